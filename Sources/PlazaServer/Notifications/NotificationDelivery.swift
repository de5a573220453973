import Foundation
import Logging
import PlazaCore
import ServiceLifecycle

/// Sends the notification outbox: on a nudge after each commit that queued alerts, and every two seconds for retries,
/// quiet hours that ended and alerts queued by other processes. Claims are leases, so of several processes one sends
/// each delivery; a process that dies mid-send leaves it to another after the lease (the `Topic` header and the
/// notification's id as its tag make a repeat replace the first rather than show twice).
package final class NotificationDelivery: Service, Sendable {
    let notifications: NotificationService
    let senders: PushSenders
    let logger: Logger
    /// Deliveries sent at once (each waits on its push service, none on another).
    static let concurrency = 64
    /// After this many failed tries a delivery is given up.
    static let maxAttempts = 8
    private let rounds = NudgedRounds()
    /// Told each push's fate (the metrics): its platform, and why it was dropped (nil: its push service took it).
    let outcomes = CallbackSlot<(provider: String, dropReason: String?)>()
    private let sends: InFlightSends

    init(notifications: NotificationService, senders: PushSenders, logger: Logger) {
        self.notifications = notifications
        self.senders = senders
        self.logger = logger
        sends = InFlightSends(limit: Self.concurrency)
    }

    package func nudge() {
        rounds.nudge()
    }

    package func run() async throws {
        await rounds.run(every: .seconds(2)) { [self] in await round() }
        // Shutting down: what is still being sent is given up; its lease runs out and a process sends it again.
        await sends.cancelAll()
    }

    /// Fans out what waits, then starts sending what is due, until nothing is left for now. Each send runs on its own:
    /// a push service that hangs holds one of the `concurrency` places until its timeout, and nobody else's alerts.
    func round() async {
        do {
            // Until nothing is left for now: a burst of alerts goes out in one round, not one batch per heartbeat.
            while true {
                let fannedOut = try await notifications.fanOutWaiting()
                let started = try await startDue()
                if fannedOut == 0, started == 0 { break }
            }
        } catch  where !Task.isCancelled {
            logger.error("notification round failed", metadata: ["error": "\(error)"])
        } catch {}
    }

    /// Claims as many due deliveries as there are free places (waiting for one while all are taken) and starts
    /// sending each; returns how many it started.
    func startDue(now: Date = Date()) async throws -> Int {
        var free = await sends.free
        while free == 0 {
            try await Task.sleep(for: .milliseconds(20))
            free = await sends.free
        }
        let (store, db) = (notifications.store, notifications.database.sql)
        let claimed = try await store.claimDue(now: now, lease: 60, limit: free, on: db)
        for delivery in claimed { await sends.start { [self] in await deliver(delivery) } }
        return claimed.count
    }

    private func deliver(_ delivery: ClaimedDelivery) async {
        let (store, db) = (notifications.store, notifications.database.sql)
        let message = PushMessage(delivery.payload)
        let outcome = await PlazaTracer.span(
            "push \(delivery.device.platform.rawValue)",
            kind: .client,
            parent: delivery.trace,
            attributes: [("plaza.push.platform", .string(delivery.device.platform.rawValue))]
        ) { span in
            let outcome = await senders.send(message, to: delivery.device)
            if case .delivered = outcome {} else { span?.fail("\(outcome)") }
            return outcome
        }
        let now = Date()
        let provider = delivery.device.platform.rawValue
        do {
            switch outcome {
            case .delivered:
                outcomes((provider, nil))
                try await store.markDone(delivery, now: now, on: db)
            case .gone:
                outcomes((provider, "gone"))
                logger.info("push device gone", metadata: ["device": "\(delivery.device.id)"])
                try await store.forgetDevice(delivery.device.id, on: db)
            case .rejected(let reason):
                logger.warning("push refused", metadata: ["device": "\(delivery.device.id)", "reason": "\(reason)"])
                outcomes((provider, "rejected"))
                try await store.markDone(delivery, error: reason, now: now, on: db)
            case .retry(let seconds, let reason):
                // Past its TTL or its tries, an alert would only arrive stale: given up.
                let stale = now.timeIntervalSince(delivery.payload.sentAt) > TimeInterval(message.ttl)
                if delivery.attempts >= Self.maxAttempts || stale {
                    outcomes((provider, "given_up"))
                    try await store.markDone(delivery, error: "given up: \(reason)", now: now, on: db)
                } else {
                    let backOff = min(3600, 15 * pow(2, Double(max(0, delivery.attempts - 1))))
                    try await store.retry(
                        delivery,
                        at: now.addingTimeInterval(seconds.map(TimeInterval.init) ?? backOff),
                        error: reason,
                        on: db
                    )
                }
            }
        } catch  where !Task.isCancelled {
            logger.error("push outcome not recorded", metadata: ["error": "\(error)"])
        } catch {
            // Shutting down: the lease runs out and another round sends it again.
        }
    }
}

/// The sends in flight, each in a task of its own so that none waits on another; at most `limit` at once.
actor InFlightSends {
    let limit: Int
    private var running: [UUID: Task<Void, Never>] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    var free: Int { max(0, limit - running.count) }

    func start(_ work: @escaping @Sendable () async -> Void) {
        let id = UUID()
        running[id] = Task {
            await work()
            await self.finished(id)
        }
    }

    private func finished(_ id: UUID) {
        running[id] = nil
    }

    func cancelAll() {
        for task in running.values { task.cancel() }
    }
}
