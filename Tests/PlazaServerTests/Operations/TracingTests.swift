import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// With `PLAZA_OTEL_ENDPOINT` set, Plaza sends OpenTelemetry traces over OTLP/HTTP: one transfer's trace holds its
/// HTTP span (named by its route, with the request id), the SQL statements under it, and the push it caused, sent
/// later by the notification outbox.
@Suite struct TracingTests {
    @Test(arguments: TestEngine.enabled)
    func aTransfersTraceHoldsItsRequestItsSQLAndItsPush(_ engine: TestEngine) async throws {
        let collector = try await OTLPReceiver.start()
        let push = try await WebPushReceiver.start()
        defer {
            Task {
                await collector.stop()
                await push.stop()
            }
        }
        try await TestPlaza.withApp(
            engine,
            .live,
            configure: {
                $0.otelEndpoint = collector.endpoint
                $0.push.hosts = [push.origin]
            }
        ) { client, _ in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let bruno = try await accounts.signedIn("bruno").accessToken
            let subscription = push.subscribe()
            let device = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .webpush, subscription: subscription),
                token: bruno
            )
            #expect(device.status == .created, "\(device.text)")
            let wallet = WalletDriver(client)
            _ = try await wallet.fund(2_000, token: anna)
            let sent = try await client.send(
                .post,
                "/v1/transfers",
                json: TransferRequest(to: "bruno", amount: 725, currency: "USD", note: "Lunch"),
                token: anna,
                headers: [
                    HTTPField.Name("Idempotency-Key")!: UUID().uuidString,
                    HTTPField.Name("X-Request-ID")!: "transfer-to-bruno",
                ]
            )
            #expect(sent.status == .created, "\(sent.text)")
            #expect(try await push.waitFor(1, to: subscription, seconds: 20).count == 1, "the push went out")

            let spans = try await collector.spans(within: 15) { spans in
                guard let request = spans.first(where: { $0.attributes["plaza.request_id"] == "transfer-to-bruno" })
                else { return false }
                return spans.contains { $0.traceID == request.traceID && $0.name.hasPrefix("push ") }
            }
            let request = try #require(
                spans.first { $0.attributes["plaza.request_id"] == "transfer-to-bruno" },
                "the transfer's server span, among \(spans.count) spans"
            )
            #expect(request.name == "POST /v1/transfers")
            #expect(request.kind == 2, "a server span")
            #expect(request.attributes["http.route"] == "/v1/transfers")
            #expect(request.attributes["http.response.status_code"] == "201")
            let trace = spans.filter { $0.traceID == request.traceID }
            let sql = trace.filter { $0.attributes["db.system.name"] != nil }
            #expect(!sql.isEmpty, "SQL spans in the transfer's trace: \(trace)")
            #expect(
                sql.allSatisfy { $0.attributes["db.system.name"] == (engine == .sqlite ? "sqlite" : "postgresql") }
            )
            // Each span but the first hangs under another span of the same trace.
            let ids = Set(trace.map(\.spanID))
            #expect(
                trace.filter { $0.spanID != request.spanID }.allSatisfy { ids.contains($0.parentSpanID) },
                "\(trace)"
            )
            let pushSpan = try #require(trace.first { $0.name == "push webpush" }, "the push in the trace: \(trace)")
            #expect(pushSpan.kind == 3, "a client span")
            #expect(collector.resources.contains { $0["service.name"] == "plaza" })
            #expect(collector.contentTypes.allSatisfy { $0 == "application/x-protobuf" })
        }
    }

    @Test func aCallersTraceIsContinued() async throws {
        let collector = try await OTLPReceiver.start()
        defer { Task { await collector.stop() } }
        try await TestPlaza.withApp(.sqlite, configure: { $0.otelEndpoint = collector.endpoint }) { client, _ in
            let caller = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
            let answer = try await client.execute(
                uri: "/v1/languages",
                method: .get,
                headers: [HTTPField.Name("traceparent")!: caller]
            )
            #expect(answer.status == .ok)
            let spans = try await collector.spans { $0.contains { $0.name == "GET /v1/languages" } }
            let span = try #require(spans.first { $0.name == "GET /v1/languages" })
            #expect(span.traceID == "0af7651916cd43dd8448eb211c80319c")
            #expect(span.parentSpanID == "b7ad6b7169203331")
        }
    }

    @Test func theMetricsGoToTheCollectorToo() async throws {
        let collector = try await OTLPReceiver.start()
        defer { Task { await collector.stop() } }
        try await TestPlaza.withApp(
            .sqlite,
            .live,
            configure: {
                $0.otelEndpoint = collector.endpoint
                $0.otelMetricsInterval = .milliseconds(300)
            }
        ) { client, _ in
            #expect(try await client.execute(uri: "/v1/languages", method: .get).status == .ok)
            let wanted = "http_server_request_duration_seconds"
            var found: OTLPReceiver.Metric?
            for _ in 0..<100 where found == nil {
                found = collector.metrics.last {
                    $0.name == wanted && $0.points.contains { $0.attributes["http_route"] == "/v1/languages" }
                }
                if found == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let metric = try #require(found, "\(Set(collector.metrics.map(\.name)).sorted())")
            #expect(metric.kind == "histogram")
            let point = try #require(metric.points.first { $0.attributes["http_route"] == "/v1/languages" })
            #expect(point.value >= 1, "one request counted")
            #expect(collector.metrics.contains { $0.name == "http_server_active_requests" && $0.kind == "gauge" })
            #expect(collector.metrics.contains { $0.kind == "sum" && $0.name.hasPrefix("plaza_http_requests") })
        }
    }
}
