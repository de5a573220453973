import Foundation
import Prometheus
import Synchronization

/// The application's Prometheus registry and the metrics Plaza itself records.
///
/// One registry per application (not the process-global `MetricsSystem`), so that tests can run many
/// applications side by side; `plaza serve` also bootstraps swift-metrics with it, so library metrics land here too.
public final class PlazaMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    static let latencyBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
    ]

    /// The request metrics by route and outcome: the registry checks names and labels and builds strings on every
    /// call, which is a measurable part of a request (`perf` during `plaza bench ledger`), so each is fetched once.
    private struct RequestKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private let requests = Mutex<[RequestKey: (Counter, DurationHistogram)]>([:])

    public init() {}

    func requestFinished(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestKey(method: method, route: route, status: status)
        let (counter, histogram) =
            requests.withLock { $0[key] }
            ?? {
                let metrics = (
                    registry.makeCounter(
                        descriptor: MetricNameDescriptor(
                            metricName: "plaza_http_requests",
                            unitName: "total",
                            helpText: "HTTP requests by route and status"
                        ),
                        labels: [("method", method), ("route", route), ("status", String(status))]
                    ),
                    registry.makeDurationHistogram(
                        descriptor: MetricNameDescriptor(
                            metricName: "plaza_http_request_duration",
                            unitName: "seconds",
                            helpText: "HTTP request latency"
                        ),
                        labels: [("method", method), ("route", route)],
                        buckets: Self.latencyBuckets
                    )
                )
                requests.withLock { $0[key] = metrics }
                return metrics
            }()
        counter.increment()
        histogram.record(duration)
    }

    func databaseWait(_ duration: Duration, engine: String) {
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "plaza_db_session_wait",
                unitName: "seconds",
                helpText: "Time spent waiting for a database connection"
            ),
            labels: [("engine", engine)],
            buckets: Self.latencyBuckets
        ).record(duration)
    }

    /// The Prometheus text exposition.
    func render() -> String { registry.emitToString() }
}
