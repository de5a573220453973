import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOPosix
import PlazaCore
import PlazaTestSupport
import SQLKit
import Synchronization
import Testing

@testable import PlazaServer

/// Untrusted pictures cannot stall the server: their size is judged from the header before anything is decoded, a
/// damaged one is refused before it is stored, and decoding runs on a bounded pool of its own, off the event loops.
@Suite struct PictureBudgetTests {
    /// A JPEG whose frame header claims `width` × `height` (the phone photo's pixels stay as they are).
    static func jpeg(claiming width: Int, _ height: Int) throws -> Data {
        var bytes = [UInt8](MediaTests.phoneJPEG)
        let frame = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[frame + 5] = UInt8(height >> 8)
        bytes[frame + 6] = UInt8(height & 0xFF)
        bytes[frame + 7] = UInt8(width >> 8)
        bytes[frame + 8] = UInt8(width & 0xFF)
        return Data(bytes)
    }

    static func stored(_ services: PlazaServices) async throws -> Int {
        try await services.database.sql.raw("SELECT COUNT(*) AS n FROM media").first()?.decode(
            column: "n",
            as: Int.self
        ) ?? -1
    }

    @Test(arguments: TestEngine.enabled)
    func aPictureClaimingTooManyPixelsIsRefusedFromItsHeaderAndNothingIsStored(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let ana = try await AccountsDriver(client).signedIn("ana").accessToken
            let cases: [(String, Data, String)] = [
                // Small files whose headers ask every viewer's browser (and once the server) for gigabytes.
                ("7000 × 7000 PNG", MediaTests.stripedPNG(width: 7_000, height: 1, claimedHeight: 7_000), "image/png"),
                (
                    "100,000 × 100,000 PNG", MediaTests.stripedPNG(width: 100_000, height: 1, claimedHeight: 100_000),
                    "image/png"
                ),
                ("65,500 × 65,500 JPEG", try Self.jpeg(claiming: 65_500, 65_500), "image/jpeg"),
                ("a side over 12,000", MediaTests.stripedPNG(width: 12_001, height: 1), "image/png"),
            ]
            for (name, data, type) in cases {
                let refused = try await MediaTests.upload(client, data, type: type, token: ana)
                #expect(
                    refused.status == .unprocessableContent && refused.problem?.code == .imageTooLarge,
                    "\(name): \(refused.text)"
                )
                #expect(refused.problem?.errors?.first?.field == "body", "\(name)")
                #expect(
                    refused.problem?.title.contains("at most 40,000,000 pixels, 12,000 a side") == true,
                    "\(name): \(refused.text)"
                )
            }
            #expect(try await Self.stored(services) == 0)
            // Just inside the side limit, a picture is taken.
            let narrow = try await MediaTests.upload(
                client,
                MediaTests.stripedPNG(width: 12_000, height: 2),
                type: "image/png",
                token: ana
            )
            #expect(narrow.status == .created, "\(narrow.text)")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aPNGCutShortIsRefusedBeforeItIsStored(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let ana = try await AccountsDriver(client).signedIn("ana").accessToken
            // Every chunk whole and its CRC right, but half the rows its header promises: it used to be stored and
            // served as its own thumbnail.
            let cut = MediaTests.stripedPNG(width: 600, height: 200, claimedHeight: 400)
            let refused = try await MediaTests.upload(client, cut, type: "image/png", token: ana)
            #expect(
                refused.status == .unprocessableContent && refused.problem?.code == .invalidImage,
                "\(refused.text)"
            )
            #expect(refused.problem?.errors?.first?.field == "body")
            #expect(try await Self.stored(services) == 0)
            let whole = try await MediaTests.upload(
                client,
                MediaTests.stripedPNG(width: 600, height: 400),
                type: "image/png",
                token: ana
            )
            #expect(whole.status == .created)
        }
    }

    @Test func theOperatorSetsThePixelBudget() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.pictures.maxPixels = 100_000 }) { client, services in
            let ana = try await AccountsDriver(client).signedIn("ana").accessToken
            let refused = try await MediaTests.upload(
                client,
                MediaTests.stripedPNG(width: 600, height: 400),
                type: "image/png",
                token: ana
            )
            #expect(
                refused.problem?.code == .imageTooLarge
                    && refused.problem?.title.contains("at most 100,000 pixels") == true
            )
            // Card art keeps to the same budget.
            let admin = try await AdminTests.admin(client, services)
            let dana = try await CardsDriver.designer(client, services, "dana", admin: admin)
            let art = try await CardsDriver.uploadArt(
                client,
                dana,
                MediaTests.stripedPNG(width: 600, height: 400),
                type: "image/png"
            )
            #expect(art.status == .unprocessableContent && art.problem?.code == .imageTooLarge, "\(art.text)")
            let cut = try await CardsDriver.uploadArt(
                client,
                dana,
                MediaTests.stripedPNG(width: 300, height: 100, claimedHeight: 300),
                type: "image/png"
            )
            #expect(cut.status == .unprocessableContent && cut.problem?.code == .invalidImage, "\(cut.text)")
            #expect(
                try await CardsDriver.uploadArt(
                    client,
                    dana,
                    MediaTests.stripedPNG(width: 300, height: 300),
                    type: "image/png"
                ).status == .created
            )
            #expect(throws: ConfigurationErrors.self) {
                try PlazaConfiguration.fromEnvironment(["PLAZA_MEDIA_MAX_PIXELS": "lots"])
            }
            #expect(
                try PlazaConfiguration.fromEnvironment(["PLAZA_MEDIA_MAX_PIXELS": "1000000"]).pictures.maxPixels
                    == 1_000_000
            )
        }
    }

    /// A gate the test opens: work on the pool waits on it, so the pool can be seen full.
    final class Gate: Sendable {
        private let open = Mutex(false)
        func release() { open.withLock { $0 = true } }
        func wait() {
            while !open.withLock({ $0 }) { usleep(1_000) }
        }
    }

    @Test func aFullPoolAnswers503AtOnceAndStoresNothing() async throws {
        // A budget past anything the test's own set-up may take on a loaded machine: the gate decides when work ends.
        let pool = DecodePool(threads: 1, queue: 1, budget: .seconds(600))
        let gate = Gate()
        let ranOnEventLoop = Mutex<Bool?>(nil)
        let first = Task {
            try await pool.run {
                ranOnEventLoop.withLock { $0 = MultiThreadedEventLoopGroup.currentEventLoop != nil }
                gate.wait()
            }
        }
        let second = Task { try await pool.run { gate.wait() } }
        while pool.load < 2 { try await Task.sleep(for: .milliseconds(5)) }
        try await TestPlaza.withApp(.sqlite) { client, services in
            let ana = try await AccountsDriver(client).signedIn("ana").accessToken
            let identity = try #require(try await services.accounts.identity(bearer: ana))
            let media = MediaService(database: services.database, decoding: pool)
            do {
                _ = try await media.upload(
                    identity,
                    MediaTests.stripedPNG(width: 600, height: 400),
                    contentType: "image/png"
                )
                Issue.record("a full pool took the upload")
            } catch let error as PlazaError {
                #expect(
                    error.status == .serviceUnavailable && error.code == .unavailable
                        && error.headers[.retryAfter] == "2"
                )
            }
            #expect(try await Self.stored(services) == 0)
            gate.release()
            try await first.value
            try await second.value
            #expect(pool.load == 0)
            #expect(
                try await media.upload(
                    identity,
                    MediaTests.stripedPNG(width: 600, height: 400),
                    contentType: "image/png"
                ).width == 600
            )
        }
        #expect(ranOnEventLoop.withLock { $0 } == false, "decoding runs on the pool's threads, not an event loop")
    }

    @Test func workPastItsBudgetIsAnsweredAndKeepsItsPlaceUntilItEnds() async throws {
        let pool = DecodePool(threads: 1, queue: 0, budget: .milliseconds(50))
        let gate = Gate()
        await #expect(throws: PlazaError.self) { try await pool.run { gate.wait() } }
        // The thread is still busy with it: the pool is full until the work really ends.
        #expect(pool.load == 1)
        await #expect(throws: PlazaError.self) { try await pool.run { 1 } }
        gate.release()
        while pool.load > 0 { try await Task.sleep(for: .milliseconds(5)) }
        // Free again. Under the whole suite even `42` can miss a 50 ms budget (the thread waits for a core), so a few
        // tries; a pool that stayed full would answer every one with 503.
        var answer: Int?
        for _ in 0..<20 where answer == nil { answer = try? await pool.run { 42 } }
        #expect(answer == 42)
    }
}
