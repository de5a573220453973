import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct OperationsTests {
    @Test(arguments: TestEngine.enabled)
    func healthAndReadiness(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .ok)
            #expect(ready.text.contains(engine.rawValue))
        }
    }

    @Test func metricsCountRequestsByRouteTemplate() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await client.send(.delete, "/v1/me/sessions/\(UUID())")
            _ = try await client.send(
                .post,
                "/v1/auth/login",
                json: LoginRequest(login: "nobody", password: "wrong password")
            )
            let metrics = try await client.execute(uri: "/metrics", method: .get).text
            #expect(
                metrics.contains(#"plaza_http_requests_total{method="POST",route="/v1/auth/login",status="401"} 1"#)
            )
            #expect(
                metrics.contains(#"route="/v1/me/sessions/{id}""#) || metrics.contains(#"route="/v1/me/sessions/id""#)
            )
            #expect(metrics.contains("plaza_http_request_duration_seconds_bucket"))
            #expect(metrics.contains(#"plaza_db_session_wait_seconds_count{engine="sqlite"}"#))
        }
    }

    @Test func everyResponseCarriesARequestIDAndStrictHeaders() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let given = try await client.execute(
                uri: "/healthz",
                method: .get,
                headers: [HTTPField.Name("X-Request-ID")!: "trace-123"]
            )
            #expect(given.headers[HTTPField.Name("X-Request-ID")!] == "trace-123")
            let page = try await client.execute(uri: "/login", method: .get)
            #expect(page.headers[HTTPField.Name("X-Request-ID")!]?.isEmpty == false)
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(
                csp.contains("script-src 'self'") && !csp.contains("unsafe-inline")
                    && csp.contains("frame-ancestors 'none'")
            )
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
        }
    }

    @Test func devPagesExistOnlyInDevMode() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.mode = .production }) { client, _ in
            let status = try await client.execute(uri: "/dev/mailbox", method: .get).status
            #expect(status == .notFound)
        }
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let status = try await client.execute(uri: "/dev/mailbox", method: .get).status
            #expect(status == .ok)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theDevMailboxLinksTheVerificationLink(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            _ = try await AccountsDriver(client).register("zoe")
            let page = try await client.execute(uri: "/dev/mailbox", method: .get, headers: [.accept: "text/html"])
            let link = try #require(page.text.firstMatch(of: #/<a href="(https?://[^"]+)">/#)?.output.1)
            #expect(link.contains("verify"))
        }
    }

    @Test func theAppIsInstallable() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get)
            #expect(manifest.headers[.contentType] == "application/manifest+json")
            let parsed = try JSONSerialization.jsonObject(with: Data(manifest.body.readableBytesView)) as? [String: Any]
            #expect(parsed?["display"] as? String == "standalone")
            for icon in (parsed?["icons"] as? [[String: Any]] ?? []) {
                let path = try #require(icon["src"] as? String)
                #expect(try await client.execute(uri: path, method: .get).status == .ok, "\(path) is missing")
            }
            let worker = try await client.execute(uri: "/sw.js", method: .get)
            #expect(worker.status == .ok && worker.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(try await client.execute(uri: "/static/offline.html", method: .get).status == .ok)
            let css = try await client.execute(uri: "/static/app.css", method: .get)
            let etag = try #require(css.headers[.eTag])
            #expect(
                try await client.execute(uri: "/static/app.css", method: .get, headers: [.ifNoneMatch: etag]).status
                    == .notModified
            )
        }
    }
}
