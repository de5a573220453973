import Foundation
import Prometheus
import Synchronization

/// Plaza's own metrics beside the HTTP and database ones: money moved, pushes, presence and the queues.
///
/// Counters are registered at zero for their common label sets and gauges at zero, so that every family shows on
/// `/metrics` (with its `# TYPE`) from the start: the dashboard and the alert rules in `deploy/` name them all.
/// The gauges and the money come from `PlazaServices.sampleMetrics`, every 15 seconds, never per scrape.
final class DomainMetrics: Sendable {
    /// `provider` label values: the push platforms.
    static let providers = ["apns", "fcm", "webpush"]
    /// Why a push was dropped: the device is gone, its push service refused it, or it was given up after retries.
    static let dropReasons = ["gone", "rejected", "given_up"]
    /// Journal kinds shown at zero from the start (others appear when they first move money).
    static let moneyKinds = ["transfer", "charge", "refund", "top_up", "withdrawal"]
    /// `queue` label values of `plaza_outbox_depth`.
    static let queues = ["mail", "push"]

    private let registry: PrometheusCollectorRegistry
    private let presence: Gauge
    private let reviewAge: Gauge
    private let outbox: [String: Gauge]
    private let sent: [String: Counter]
    private let dropped: [String: [String: Counter]]
    /// Each (kind, currency)'s moved total at the last sample; nil before the first one (which only sets the base).
    private let moneySeen = Mutex<[MoneyKey: Int64]?>(nil)

    struct MoneyKey: Hashable, Sendable {
        let kind: String
        let currency: String
    }

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        presence = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "plaza_presence",
                unitName: "people",
                helpText: "People in the live presence index of this process"
            )
        )
        reviewAge = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "plaza_review_queue_age",
                unitName: "seconds",
                helpText: "Age of the oldest open admin review item (0 when none is open)"
            )
        )
        let outboxName = MetricNameDescriptor(
            metricName: "plaza_outbox",
            unitName: "depth",
            helpText: "Undelivered rows in the outboxes (mail, push)"
        )
        outbox = Dictionary(
            uniqueKeysWithValues: Self.queues.map {
                ($0, registry.makeGauge(descriptor: outboxName, labels: [("queue", $0)]))
            }
        )
        let sentName = MetricNameDescriptor(
            metricName: "plaza_push_sent",
            unitName: "total",
            helpText: "Pushes their push service accepted, by provider"
        )
        sent = Dictionary(
            uniqueKeysWithValues: Self.providers.map {
                ($0, registry.makeCounter(descriptor: sentName, labels: [("provider", $0)]))
            }
        )
        let droppedName = MetricNameDescriptor(
            metricName: "plaza_push_dropped",
            unitName: "total",
            helpText: "Pushes that will never arrive, by provider and reason (gone, rejected, given_up)"
        )
        dropped = Dictionary(
            uniqueKeysWithValues: Self.providers.map { provider in
                let byReason = Self.dropReasons.map { reason in
                    let labels = [("provider", provider), ("reason", reason)]
                    return (reason, registry.makeCounter(descriptor: droppedName, labels: labels))
                }
                return (provider, Dictionary(uniqueKeysWithValues: byReason))
            }
        )
    }

    /// Registers the money counter at zero for each common kind in `currencies`.
    func prepareMoney(currencies: [String]) {
        for currency in currencies {
            for kind in Self.moneyKinds { _ = moneyCounter(MoneyKey(kind: kind, currency: currency)) }
        }
    }

    private func moneyCounter(_ key: MoneyKey) -> Counter {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "plaza_money_moved_minor",
                unitName: "total",
                helpText: "Money moved by committed journal entries, in minor units, by currency and kind"
            ),
            labels: [("currency", key.currency), ("kind", key.kind)]
        )
    }

    /// One push's outcome: `dropReason` nil when its push service took it.
    func push(provider: String, dropReason: String?) {
        if let dropReason {
            dropped[provider]?[dropReason]?.increment()
        } else {
            sent[provider]?.increment()
        }
    }

    func presencePeople(_ count: Int) {
        presence.set(Double(count))
    }

    func outboxDepth(mail: Int, push: Int) {
        outbox["mail"]?.set(Double(mail))
        outbox["push"]?.set(Double(push))
    }

    /// The oldest open review item's creation (nil: none open).
    func reviewQueue(oldest: Date?, now: Date = Date()) {
        reviewAge.set(oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
    }

    /// The ledger's moved totals now (whole database): the counters go up by what moved since the last sample. The
    /// first sample is the base, so that a restart shows no burst of everything ever moved. Every process samples the
    /// same ledger: across processes take `max`, not `sum`.
    func moneyMoved(totals: [MoneyKey: Int64]) {
        let increases: [(MoneyKey, Int64)] = moneySeen.withLock { last in
            let previous = last
            last = totals
            guard let previous else { return [] }
            return totals.compactMap { key, total in
                let increase = total - (previous[key] ?? 0)
                return increase > 0 ? (key, increase) : nil
            }
        }
        for (key, increase) in increases { moneyCounter(key).increment(by: increase) }
    }
}
