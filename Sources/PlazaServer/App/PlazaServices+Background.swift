import Foundation
import Logging
import ServiceLifecycle

extension PlazaServices {
    /// Long-running work to run beside the server, each traced when tracing is on (the exporter first, so that it
    /// stops last and sends what the others recorded as they stopped).
    var backgroundServices: [any Service] {
        guard let tracer else { return untracedServices }
        return [tracer.exporter] + untracedServices.map { TracedService(base: $0, tracer: tracer) }
    }

    private var untracedServices: [any Service] {
        [
            DatabaseService(database: database), outbox,
            MaintenanceService(limiter: limiter, idempotency: idempotency, logger: logger),
            PlacesBackgroundService(places: places), notificationDelivery,
            // Expires pending charges past their time (telling both sides), and re-sends to the processor what a
            // stopped process recorded but never sent.
            RecurringWork(name: "wallet", interval: wallet.configuration.sweepInterval, logger: logger) { [wallet] in
                try await wallet.expireCharges()
                try await wallet.resendUnsent()
            },
            // Ends the programs whose own end has come (their open cards expire, holders are told) and cards past
            // their own life.
            RecurringWork(name: "loyalty", interval: 60, logger: logger) { [loyalty] in
                _ = try await loyalty.expireEndedPrograms()
                _ = try await loyalty.expireLapsedCards()
                _ = try await loyalty.remindExpiringPunches()
            },
            // Starts approved campaigns whose time came and ends those past their end.
            RecurringWork(name: "offers", interval: 60, logger: logger) { [offers] in
                try await offers.advanceCampaigns()
            },
            // Expires meetups whose window passed (a deal without its handshake is called off, held money goes back), and
            // sends the saved searches' daily digests.
            RecurringWork(name: "market", interval: 60, logger: logger) { [market] in
                try await market.expireMeetups()
                try await market.closeAuctions()
                try await market.sendDigests()
                try await market.remindExpiringMembers()
            },
            // The gauges that need SQL, and the money moved, for `/metrics`.
            metricsSampler,
            // Checks every cross-domain invariant once a day and alerts the admins when one is broken (`plaza verify`).
            RecurringWork(name: "verify", interval: 86_400, logger: logger) { [self] in try await self.verifyAndAlert()
            },
        ] + (events.feed.service.map { [$0] } ?? [])
            // SQLite copies in PLAZA_BACKUP_DIR: one at start unless a young one exists, then every PLAZA_BACKUP_EVERY.
            + (backups.map { [BackupService(backups: $0, ready: { [self] in await self.schemaIsCurrent() })] } ?? [])
    }
}

/// Keeps the database's background work running and closes it at shutdown.
struct DatabaseService: Service {
    let database: PlazaDatabase
    func run() async throws {
        if let service = database.service {
            try await service.run()
        } else {
            try? await gracefulShutdown()
        }
        try await database.close()
    }
}

/// Prunes what no window looks at any more: old rate-limit events and idempotency keys.
struct MaintenanceService: Service {
    let limiter: RateLimiter
    let idempotency: IdempotencyStore
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // First wait: at start the database's own service may not be running yet.
                try await Task.sleep(for: .seconds(600))
                do {
                    try await limiter.prune()
                    try await idempotency.prune()
                } catch {
                    logger.warning("maintenance failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
    }
}

/// Runs a background service with the application's tracer in its task, so that what it does is traced.
struct TracedService: Service {
    let base: any Service
    let tracer: PlazaTracer
    func run() async throws {
        try await PlazaTracer.$current.withValue(tracer) { try await base.run() }
    }
}

extension PlazaServices {
    /// The feed's listening connection (PostgreSQL), for a process that is not a server but follows the others (a
    /// bench watching positions reach another process); nil on SQLite.
    package var feedListener: (any Service)? { events.feed.service }

    /// Whether that listener is connected and listening.
    package var feedIsListening: Bool { events.feed.receiver.isListening }
}
