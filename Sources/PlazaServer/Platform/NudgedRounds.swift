import Foundation
import ServiceLifecycle

/// How the outboxes (mail, notifications) run: a round on each nudge (after a commit that queued work) and at least
/// every `interval` (retries, work queued by other processes). Nudges that arrive during a round make one more round;
/// graceful shutdown ends the loop, and cancels the round in flight.
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
            // Shutdown cancels a round in flight too (a push service that does not answer must not hold the process):
            // what it had claimed is retried by a process after the lease.
            group.addTask { [nudges] in
                try? await cancelWhenGracefulShutdown {
                    for await _ in nudges { await round() }
                }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
