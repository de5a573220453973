import Foundation
import Prometheus
import Synchronization

/// The application's Prometheus registry and the metrics Plaza itself records.
///
/// One registry per application (not the process-global `MetricsSystem`), so that tests can run many
/// applications side by side; `plaza serve` also bootstraps swift-metrics with it, so library metrics land here too.
///
/// HTTP and database metrics come twice: Plaza's first names (`plaza_http_*`, `plaza_db_session_wait_seconds`, which
/// the bench and older dashboards read) and OpenTelemetry's semantic conventions in Prometheus form
/// (`http_server_*`, `db_client_*`), which ready-made dashboards expect.
public final class PlazaMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    /// Money, pushes, presence, queues: see `DomainMetrics`.
    let domain: DomainMetrics
    static let latencyBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
    ]
    /// OpenTelemetry's advice for `http.server.request.duration`.
    static let httpBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(75),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .milliseconds(750), .seconds(1), .seconds(2.5),
        .seconds(5), .seconds(7.5), .seconds(10),
    ]
    /// OpenTelemetry's advice for `db.client.operation.duration` (and the pool's wait), with a finer low end: most
    /// statements here take well under a millisecond.
    static let databaseBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .milliseconds(1), .milliseconds(5), .milliseconds(10),
        .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5), .seconds(10),
    ]
    /// The operations registered at start, so that their series exist before the first statement.
    static let commonOperations = ["SELECT", "INSERT", "UPDATE", "DELETE", "BEGIN", "COMMIT", "ROLLBACK"]

    /// The request metrics by route and outcome: the registry checks names and labels and builds strings on every
    /// call, which is a measurable part of a request (`perf` during `plaza bench ledger`), so each is fetched once.
    private struct RequestKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private struct RequestMetrics {
        let count: Counter
        let duration: DurationHistogram
        let serverDuration: DurationHistogram
    }

    private let requests = Mutex<[RequestKey: RequestMetrics]>([:])
    private let activeRequests: Gauge
    /// `db_client_operation_duration_seconds` by first keyword, for the one engine this application uses.
    private let operations = Mutex<[String: DurationHistogram]>([:])
    /// `db_system_name`, set by `prepareDatabase`: OpenTelemetry's `sqlite` or `postgresql`.
    private let databaseSystem = Mutex<String>("unknown")
    private let waits = Mutex<[String: (plaza: DurationHistogram, convention: DurationHistogram)]>([:])

    public init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        activeRequests = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "http_server_active",
                unitName: "requests",
                helpText: "HTTP requests being answered now"
            )
        )
        domain = DomainMetrics(registry: registry)
    }

    /// Registers the database's metrics for `engine` (`sqlite`, `postgres`) at zero, so they show before first use.
    func prepareDatabase(engine: String) {
        let system = engine == "postgres" ? "postgresql" : engine
        databaseSystem.withLock { $0 = system }
        for operation in Self.commonOperations { _ = operationHistogram(operation) }
        _ = waitHistograms(engine: engine)
    }

    func requestStarted() {
        activeRequests.increment()
    }

    /// `endpoint`: the router's template (`/v1/me/sessions/:id`, labelled `/v1/me/sessions/id`), nil when no route
    /// matched (`unmatched`); the label is made once per template, not per request.
    func requestFinished(method: String, endpoint: String?, status: Int, duration: Duration) {
        activeRequests.decrement()
        let key = RequestKey(method: method, route: endpoint ?? "", status: status)
        let metrics = requests.withLock { $0[key] } ?? makeRequestMetrics(key)
        metrics.count.increment()
        metrics.duration.record(duration)
        metrics.serverDuration.record(duration)
    }

    private func makeRequestMetrics(_ key: RequestKey) -> RequestMetrics {
        let route = key.route.isEmpty ? "unmatched" : key.route.replacingOccurrences(of: ":", with: "")
        let metrics = RequestMetrics(
            count: registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    metricName: "plaza_http_requests",
                    unitName: "total",
                    helpText: "HTTP requests by route and status"
                ),
                labels: [("method", key.method), ("route", route), ("status", String(key.status))]
            ),
            duration: registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    metricName: "plaza_http_request_duration",
                    unitName: "seconds",
                    helpText: "HTTP request latency"
                ),
                labels: [("method", key.method), ("route", route)],
                buckets: Self.latencyBuckets
            ),
            serverDuration: registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    metricName: "http_server_request_duration",
                    unitName: "seconds",
                    helpText: "Duration of HTTP server requests (OpenTelemetry http.server.request.duration)"
                ),
                labels: [
                    ("http_request_method", key.method), ("http_route", route),
                    ("http_response_status_code", String(key.status)),
                ],
                buckets: Self.httpBuckets
            )
        )
        requests.withLock { $0[key] = metrics }
        return metrics
    }

    func databaseWait(_ duration: Duration, engine: String) {
        let (plaza, convention) = waitHistograms(engine: engine)
        plaza.record(duration)
        convention.record(duration)
    }

    private func waitHistograms(engine: String) -> (plaza: DurationHistogram, convention: DurationHistogram) {
        if let existing = waits.withLock({ $0[engine] }) { return existing }
        let histograms = (
            plaza: registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    metricName: "plaza_db_session_wait",
                    unitName: "seconds",
                    helpText: "Time spent waiting for a database connection"
                ),
                labels: [("engine", engine)],
                buckets: Self.latencyBuckets
            ),
            convention: registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    metricName: "db_client_connection_wait_time",
                    unitName: "seconds",
                    helpText: "Time to obtain a connection (OpenTelemetry db.client.connection.wait_time)"
                ),
                labels: [
                    ("db_system_name", engine == "postgres" ? "postgresql" : engine),
                    ("db_client_connection_pool_name", "plaza"),
                ],
                buckets: Self.databaseBuckets
            )
        )
        waits.withLock { $0[engine] = histograms }
        return histograms
    }

    /// One statement: `operation` is its first keyword (`StatementTiming`).
    func databaseOperation(_ operation: String, duration: Duration) {
        operationHistogram(operation).record(duration)
    }

    private func operationHistogram(_ operation: String) -> DurationHistogram {
        if let existing = operations.withLock({ $0[operation] }) { return existing }
        let histogram = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "db_client_operation_duration",
                unitName: "seconds",
                helpText: "Duration of database client operations (OpenTelemetry db.client.operation.duration)"
            ),
            labels: [("db_system_name", databaseSystem.withLock { $0 }), ("db_operation_name", operation)],
            buckets: Self.databaseBuckets
        )
        operations.withLock { $0[operation] = histogram }
        return histogram
    }

    /// The Prometheus text exposition.
    func render() -> String { registry.emitToString() }
}
