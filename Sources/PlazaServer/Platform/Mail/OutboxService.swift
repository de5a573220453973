import Foundation
import Logging
import ServiceLifecycle

/// Delivers the outbox: on a nudge after each enqueue, and every few seconds for retries and for mail
/// queued by other processes.
final class OutboxService: Service, Sendable {
    let database: PlazaDatabase
    let transport: any MailTransport
    let logger: Logger
    let store = OutboxStore()
    private let nudges: AsyncStream<Void>
    private let nudger: AsyncStream<Void>.Continuation

    init(database: PlazaDatabase, transport: any MailTransport, logger: Logger) {
        self.database = database
        self.transport = transport
        self.logger = logger
        (nudges, nudger) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a delivery round now (after a commit that queued mail).
    func nudge() {
        nudger.yield()
    }

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [nudger] in
                // A heartbeat, so retries and other processes' mail go out without a nudge.
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(5))
                    nudger.yield()
                }
            }
            group.addTask { [self] in
                for await _ in nudges.cancelOnGracefulShutdown() {
                    await deliverDue()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// One round: claim what is due, send it, record the outcome.
    func deliverDue(now: Date = Date()) async {
        do {
            let claimed = try await store.claimDue(on: database.sql, now: now, lease: 120)
            for (id, mail) in claimed {
                do {
                    try await transport.send(mail)
                    try await store.markSent(id, on: database.sql, now: Date())
                } catch {
                    let attempts = (try? await store.attempts(of: id, on: database.sql)) ?? 1
                    logger.warning("mail delivery failed", metadata: ["to": "\(mail.to)", "error": "\(error)", "attempt": "\(attempts)"])
                    try await store.markFailed(id, attempts: attempts, error: "\(error)", on: database.sql, now: Date())
                }
            }
        } catch {
            logger.error("outbox round failed", metadata: ["error": "\(error)"])
        }
    }
}
