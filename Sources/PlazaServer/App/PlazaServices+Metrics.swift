import Foundation
import Logging

extension PlazaServices {
    /// How often the gauges that need SQL (and the money moved) are sampled: never per scrape, so that a scraper
    /// cannot load the database, and a few scrapes (15 s apart by default) see each value.
    static let metricsSampleInterval: TimeInterval = 15

    /// Samples `DomainMetrics`' gauges and the ledger's totals beside the server.
    var metricsSampler: RecurringWork {
        RecurringWork(name: "metrics", interval: Self.metricsSampleInterval, logger: logger) { [self] in
            try await sampleMetrics()
        }
    }

    /// Reads the live presence index, the outboxes, the review queue and the ledger into the metrics.
    func sampleMetrics(now: Date = Date()) async throws {
        let (domain, db) = (metrics.domain, database.sql)
        domain.presencePeople(places.index.count)
        domain.outboxDepth(
            mail: try await outbox.store.undeliveredCount(on: db),
            push: try await notifications.store.undeliveredCount(on: db)
        )
        domain.reviewQueue(oldest: try await admin.reviews.oldestOpen(on: db), now: now)
        domain.moneyMoved(totals: try await wallet.ledger.movedTotals(on: db))
    }
}
