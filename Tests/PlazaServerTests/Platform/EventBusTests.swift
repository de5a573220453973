import Foundation
import PlazaCore
import PlazaTestSupport
import Synchronization
import Testing

@testable import PlazaServer

/// Follow-on messages (a recorder answering what another published) are never dropped, however deep the chain; a
/// cycle fails its transaction instead of looping or losing anything in silence (issue 36).
@Suite struct EventBusTests {
    /// The depths the recorder saw, in order.
    final class Seen: Sendable {
        let depths = Mutex<[Int]>([])
    }

    /// A chain link: `test.chain.N` answered by `test.chain.N+1` up to `last` (or forever when `last` is nil).
    static func chain(_ seen: Seen, last: Int?) -> EventBus.Recorder {
        EventBus.Recorder(reacting: { messages, _ in
            var follow: [FeedMessage] = []
            for case .event(_, let event) in messages where event.type.hasPrefix("test.chain.") {
                let depth = Int(event.type.dropFirst("test.chain.".count)) ?? 0
                seen.depths.withLock { $0.append(depth) }
                if last.map({ depth < $0 }) ?? true { follow.append(link(depth + 1)) }
            }
            return (false, follow)
        })
    }

    static func link(_ depth: Int) -> FeedMessage {
        .event(audience: [], event: PlazaEvent(type: "test.chain.\(depth)", occurredAt: Date(), data: .null))
    }

    @Test(arguments: TestEngine.enabled)
    func followOnsDeeperThanThreeRoundsAreAllRecorded(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { _, services in
            let seen = Seen()
            services.events.record(Self.chain(seen, last: 8))
            let result = try await services.events.transaction(publishing: { _ in ("done", [Self.link(1)]) })
            #expect(result == "done")
            #expect(seen.depths.withLock { $0 } == Array(1...8), "every link of the chain reached the recorders")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aCycleOfRecordersFailsItsTransaction(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { _, services in
            let seen = Seen()
            services.events.record(Self.chain(seen, last: nil))
            await #expect(throws: EventBus.FollowOnCycle.self) {
                try await services.events.transaction(publishing: { _ in ((), [Self.link(1)]) })
            }
            #expect(seen.depths.withLock { $0.count } == EventBus.followOnRounds, "it stopped at the bound, not before")
        }
    }
}
