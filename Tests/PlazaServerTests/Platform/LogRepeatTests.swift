import Logging
import Synchronization
import Testing

@testable import PlazaServer

/// A flood of one line (a full disk: 4,201 "WAL checkpoint failed" warnings in 22 seconds) is said a few times a
/// second and then counted, so that the other lines stay readable.
@Suite struct LogRepeatTests {
    /// A clock the test moves.
    final class TestClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)

        var now: ContinuousClock.Instant {
            instant.withLock { $0 }
        }

        func advance(by duration: Duration) {
            instant.withLock { $0 += duration }
        }
    }

    let clock: TestClock
    let log = CapturedLog()
    let limiter: RepeatLimiter

    init() {
        let clock = TestClock()
        self.clock = clock
        limiter = RepeatLimiter(limit: 5, now: { clock.now }, flushesByItself: false)
    }

    func makeLogger(_ label: String = "plaza") -> Logger {
        Logger(label: label) { [log, limiter] label in
            RepeatLimitedLogHandler(wrapping: log.handler(), label: label, limiter: limiter)
        }
    }

    @Test func aBurstOfOneWarningIsSaidFiveTimesThenCounted() {
        let logger = makeLogger()
        for _ in 0..<1_000 {
            logger.warning("WAL checkpoint failed", metadata: ["error": "disk I/O error"])
        }
        #expect(log.lines.count == 5)
        clock.advance(by: .milliseconds(1_100))
        logger.info("listening")
        let lines = log.lines
        #expect(lines.map(\.message.description) == Array(repeating: "WAL checkpoint failed", count: 6) + ["listening"])
        let count = lines[5]
        #expect(count.level == .warning)
        #expect(count.metadata?["repeated"] == "995")
        #expect(count.metadata?["error"] == "disk I/O error", "the count keeps what the lines said")
    }

    @Test func linesThatDifferOnlyInMetadataAreOneLine() throws {
        let logger = makeLogger()
        for request in 0..<20 {
            var perRequest = logger
            perRequest[metadataKey: "hb.request.id"] = "\(request)"
            perRequest.error("unexpected error", metadata: ["path": "/v1/transfers/\(request)"])
        }
        #expect(log.lines.count == 5)
        #expect(
            log.lines.map { $0.metadata?["hb.request.id"] } == ["0", "1", "2", "3", "4"],
            "a line that is said carries its logger's metadata"
        )
        limiter.flush()
        let count = try #require(log.lines.last)
        #expect(count.metadata?["repeated"] == "15")
        #expect(count.metadata?["path"] == "/v1/transfers/19", "the count shows the last line it stands for")
        #expect(count.metadata?["hb.request.id"] == nil, "the count is not about one request")
    }

    @Test func differentMessagesLevelsAndLoggersAreCountedApart() {
        let plaza = makeLogger()
        let other = makeLogger("plaza.outbox")
        for _ in 0..<10 {
            plaza.warning("WAL checkpoint failed")
            plaza.warning("push failed")
            plaza.error("push failed")
            other.warning("push failed")
        }
        let lines = log.lines
        #expect(lines.count == 20)
        #expect(lines.filter { $0.message.description == "WAL checkpoint failed" }.count == 5)
        #expect(lines.filter { $0.message.description == "push failed" && $0.level == .error }.count == 5)
        limiter.flush()
        #expect(log.lines.count == 24)
        #expect(log.lines.dropFirst(20).allSatisfy { $0.metadata?["repeated"] == "5" })
    }

    @Test func aLineAfterAQuietSecondPassesAgain() {
        let logger = makeLogger()
        for _ in 0..<7 { logger.warning("WAL checkpoint failed") }
        #expect(log.lines.count == 5)
        clock.advance(by: .seconds(2))
        for _ in 0..<7 { logger.warning("WAL checkpoint failed") }
        let lines = log.lines
        // 5 said, the count of 2, then 5 said of the next 7.
        #expect(lines.count == 11)
        #expect(lines[5].metadata?["repeated"] == "2")
        #expect(lines[6...].allSatisfy { $0.metadata?["repeated"] == nil })
        limiter.flush()
        #expect(log.lines.last?.metadata?["repeated"] == "2")
    }

    @Test func aFewLinesASecondAreNeverCounted() {
        let logger = makeLogger()
        for _ in 0..<30 {
            for _ in 0..<5 { logger.notice("mail sent") }
            clock.advance(by: .milliseconds(1_001))
        }
        limiter.flush()
        #expect(log.lines.count == 150)
        #expect(log.lines.allSatisfy { $0.metadata?["repeated"] == nil })
    }

    /// In the server nobody calls `flush()`: a timer says the count once the window has ended.
    @Test func aFloodFollowedBySilenceIsStillCounted() async throws {
        let limiter = RepeatLimiter(limit: 5, window: .milliseconds(100))
        let logger = Logger(label: "plaza") { [log] label in
            RepeatLimitedLogHandler(wrapping: log.handler(), label: label, limiter: limiter)
        }
        for _ in 0..<50 { logger.warning("WAL checkpoint failed") }
        for _ in 0..<100 where log.lines.count < 6 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(log.lines.count == 6)
        #expect(log.lines.last?.metadata?["repeated"] == "45")
    }
}
