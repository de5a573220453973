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
    private let rounds = NudgedRounds()

    init(database: PlazaDatabase, transport: any MailTransport, logger: Logger) {
        self.database = database
        self.transport = transport
        self.logger = logger
    }

    /// Asks for a delivery round now (after a commit that queued mail).
    func nudge() {
        rounds.nudge()
    }

    func run() async throws {
        await rounds.run(every: .seconds(5)) { [self] in await deliverDue() }
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
                    logger.warning(
                        "mail delivery failed",
                        metadata: ["to": "\(mail.to)", "error": "\(error)", "attempt": "\(attempts)"]
                    )
                    try await store.markFailed(id, attempts: attempts, error: "\(error)", on: database.sql, now: Date())
                }
            }
        } catch {
            logger.error("outbox round failed", metadata: ["error": "\(error)"])
        }
    }
}
