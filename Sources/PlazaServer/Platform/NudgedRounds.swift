import Foundation
import ServiceLifecycle

/// How the outboxes (mail, notifications) run: a round on each nudge (after a commit that queued work) and at least
/// every `interval` (retries, work queued by other processes). Nudges that arrive during a round make one more round.
struct NudgedRounds: Sendable {
    private let nudges: AsyncStream<Void>
    private let nudger: AsyncStream<Void>.Continuation

    init() {
        (nudges, nudger) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func nudge() {
        nudger.yield()
    }

    /// Runs rounds until graceful shutdown.
    func run(every interval: Duration, _ round: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [nudger] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    nudger.yield()
                }
            }
            group.addTask { [nudges] in
                for await _ in nudges.cancelOnGracefulShutdown() { await round() }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
