import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// What `deploy/` promises an operator: every metric the Grafana dashboard and the Prometheus alert rules query is on
/// `/metrics` from the start (a panel over a missing metric shows "No data", an alert over one never fires), and the
/// OpenTelemetry-named histograms move with the traffic.
@Suite struct MetricsContractTests {
    @Test func everyMetricTheDashboardAndAlertsQueryIsExported() async throws {
        let deploy = Self.repositoryRoot.appendingPathComponent("deploy")
        let dashboard = try Self.dashboardExpressions(deploy.appendingPathComponent("grafana/plaza-dashboard.json"))
        let alerts = try Self.alertExpressions(deploy.appendingPathComponent("prometheus/plaza-alerts.yml"))
        #expect(dashboard.count >= 10, "the dashboard's panels query something")
        #expect(alerts.count >= 7, "every alert rule has an expression")
        let wanted = Set((dashboard + alerts).flatMap(Self.metricFamilies))
        try #require(wanted.contains("http_server_request_duration_seconds"))
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await client.execute(uri: "/healthz", method: .get)
            _ = try await client.send(.post, "/v1/auth/login", json: LoginRequest(login: "nobody", password: "wrong"))
            let exported = Self.families(in: try await client.execute(uri: "/metrics", method: .get).text)
            for family in wanted.sorted() {
                #expect(exported.contains(family), "\(family) is queried by deploy/ but not on /metrics")
            }
        }
    }

    @Test func conventionHistogramsMoveWithRequests() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await client.send(.post, "/v1/auth/login", json: LoginRequest(login: "nobody", password: "wrong"))
            let text = try await client.execute(uri: "/metrics", method: .get).text
            let http = Self.value(
                of: "http_server_request_duration_seconds_count",
                labels: #"http_request_method="POST",http_route="/v1/auth/login",http_response_status_code="401""#,
                in: text
            )
            #expect(http == 1, "one login answered 401")
            let selects = Self.value(
                of: "db_client_operation_duration_seconds_count",
                labels: #"db_system_name="sqlite",db_operation_name="SELECT""#,
                in: text
            )
            #expect((selects ?? 0) > 0, "the login looked its account up")
            #expect(Self.value(of: "http_server_active_requests", labels: nil, in: text) == 1, "only /metrics")
            let waits = Self.value(
                of: "db_client_connection_wait_time_seconds_count",
                labels: #"db_system_name="sqlite",db_client_connection_pool_name="plaza""#,
                in: text
            )
            #expect(waits != nil)
        }
    }

    /// The sampler's SQL runs on each engine, and its gauges read what it found.
    @Test(arguments: TestEngine.enabled)
    func samplingReadsTheQueues(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            try await services.sampleMetrics()
            try await services.sampleMetrics()
            let text = try await client.execute(uri: "/metrics", method: .get).text
            #expect(Self.value(of: "plaza_outbox_depth", labels: #"queue="push""#, in: text) == 0)
            #expect(Self.value(of: "plaza_review_queue_age_seconds", labels: nil, in: text) != nil)
            #expect(Self.value(of: "plaza_presence_people", labels: nil, in: text) == 0)
            #expect(text.contains(#"plaza_push_dropped_total{provider="apns",reason="gone"} 0"#))
        }
    }

    // MARK: - Reading deploy/ and /metrics

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every panel target's `expr`.
    static func dashboardExpressions(_ file: URL) throws -> [String] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let panels = try #require(json["panels"] as? [[String: Any]])
        return panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
    }

    /// Every rule's `expr`, one line or a `|` block (the file keeps to these two forms).
    static func alertExpressions(_ file: URL) throws -> [String] {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        var expressions: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            guard let range = line.range(of: "expr:") else { continue }
            let value = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard value == "|" else {
                expressions.append(value)
                continue
            }
            let indent = line.prefix { $0 == " " }.count
            var block: [String] = []
            while index < lines.count, lines[index].prefix(while: { $0 == " " }).count > indent {
                block.append(lines[index])
                index += 1
            }
            expressions.append(block.joined(separator: "\n"))
        }
        return expressions
    }

    /// PromQL's words that are not metrics (functions are told apart by their `(`).
    static let promQLWords: Set<String> = [
        "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset", "inf",
        "nan", "up",
    ]

    /// The metric families `expression` reads: strings, label matchers, ranges, grouping labels and Grafana's
    /// variables removed; `_bucket`, `_sum`, `_count` stripped to the histogram's family.
    static func metricFamilies(_ expression: String) -> [String] {
        var text = expression
        for pattern in [
            #""(?:[^"\\]|\\.)*""#, #"\{[^}]*\}"#, #"\[[^\]]*\]"#,
            #"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)"#, #"\$\{?\w+\}?"#,
        ] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        let identifier = try! NSRegularExpression(pattern: #"(?<![\w.:])[a-zA-Z_:][a-zA-Z0-9_:]*+(?!\s*\()"#)
        let matches = identifier.matches(in: text, range: NSRange(text.startIndex..., in: text))
        return matches.compactMap { match -> String? in
            guard let range = Range(match.range, in: text) else { return nil }
            var name = String(text[range])
            guard !promQLWords.contains(name.lowercased()) else { return nil }
            for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
                name.removeLast(suffix.count)
            }
            return name
        }
    }

    /// The families `/metrics` declares (`# TYPE name kind`).
    static func families(in exposition: String) -> Set<String> {
        Set(
            exposition.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard words.count >= 4, words[0] == "#", words[1] == "TYPE" else { return nil }
                return String(words[2])
            }
        )
    }

    /// The value of the sample `name{labels}` (or `name` alone when `labels` is nil).
    static func value(of name: String, labels: String?, in exposition: String) -> Double? {
        let prefix = labels.map { "\(name){\($0)} " } ?? "\(name) "
        return exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.dropFirst(prefix.count).split(separator: " ").first ?? "") }
    }
}
