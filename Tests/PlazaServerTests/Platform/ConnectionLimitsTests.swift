import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// What a public server must survive: slow clients, huge heads, one client with many connections, proxies.
@Suite struct ConnectionLimitsTests {
    @Test func aHeadThatNeverEndsIsCutOffAtTheHeaderTimeout() async throws {
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.network.headerTimeout = 1 }) { client, _ in
            let slow = try await RawConnection(port: try #require(client.port))
            try await slow.send("GET /healthz HTTP/1.1\r\nHost: plaza\r\nX-Slow: ")
            for _ in 0..<3 {
                try await Task.sleep(for: .milliseconds(300))
                try? await slow.send("x")
            }
            let state = try await slow.wait(timeout: .seconds(5)) { $0.closed }
            #expect(state.closed && state.text.isEmpty)
            // A well-behaved client on its own connection is answered meanwhile.
            let quick = try await RawConnection(port: try #require(client.port))
            try await quick.send("GET /healthz HTTP/1.1\r\nHost: plaza\r\nConnection: close\r\n\r\n")
            #expect(try await quick.wait(timeout: .seconds(3)) { $0.closed }.text.hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A body that stops arriving is answered 408 with a problem document, then the connection closes.
    @Test func aBodyThatStopsArrivingIsAnswered408() async throws {
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.network.bodyTimeout = 1 }) { client, _ in
            let slow = try await RawConnection(port: try #require(client.port))
            try await slow.send(
                "POST /v1/auth/login HTTP/1.1\r\nHost: plaza\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"
            )
            let state = try await slow.wait(timeout: .seconds(5)) { $0.closed }
            #expect(state.closed)
            #expect(
                state.text.hasPrefix("HTTP/1.1 408") && state.text.contains("\"code\":\"request_timeout\""),
                "\(state.text.prefix(200))"
            )
        }
    }

    /// An `Upgrade` header that is no WebSocket upgrade does not switch the guard off: a trickled body is still cut off.
    @Test func aBodyThatNeverEndsIsCutOffEvenWithAnUpgradeHeader() async throws {
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.network.bodyTimeout = 1 }) { client, _ in
            let slow = try await RawConnection(port: try #require(client.port))
            try await slow.send(
                "POST /v1/auth/login HTTP/1.1\r\nHost: plaza\r\nUpgrade: h2c\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"
            )
            for _ in 0..<4 {
                try await Task.sleep(for: .milliseconds(300))
                try? await slow.send(" ")
            }
            #expect(try await slow.wait(timeout: .seconds(5)) { $0.closed }.closed)
        }
    }

    @Test func aKeptAliveConnectionIsClosedWhenIdle() async throws {
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.network.idleTimeout = 1 }) { client, _ in
            let connection = try await RawConnection(port: try #require(client.port))
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: plaza\r\n\r\n")
            let answered = try await connection.wait(timeout: .seconds(5)) { $0.text.contains("\"ok\"") }
            #expect(answered.text.hasPrefix("HTTP/1.1 200") && !answered.closed)
            #expect(try await connection.wait(timeout: .seconds(5)) { $0.closed }.closed)
        }
    }

    /// The idle deadline moves with every response: a connection used every second outlives its first deadline
    /// (the guard's one timer fires, finds the deadline moved, and waits again), then closes once left idle.
    @Test func aConnectionInUseOutlivesItsFirstIdleDeadline() async throws {
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.network.idleTimeout = 4 }) { client, _ in
            let connection = try await RawConnection(port: try #require(client.port))
            for request in 1...7 {
                try await connection.send("GET /healthz HTTP/1.1\r\nHost: plaza\r\n\r\n")
                let state = try await connection.wait(timeout: .seconds(5)) {
                    $0.closed || $0.text.components(separatedBy: "HTTP/1.1 200").count > request
                }
                #expect(!state.closed, "closed before request \(request) was answered")
                try await Task.sleep(for: .seconds(1))
            }
            #expect(try await connection.wait(timeout: .seconds(8)) { $0.closed }.closed)
        }
    }

    @Test func aHugeHeadIsAnswered431() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let port = try #require(client.port)
            for request in [
                "GET /healthz HTTP/1.1\r\nHost: plaza\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n"
            ] {
                let connection = try await RawConnection(port: port)
                try await connection.send(request)
                let state = try await connection.wait(timeout: .seconds(5)) { $0.closed }
                #expect(state.text.hasPrefix("HTTP/1.1 431"), "\(state.text.prefix(40))")
                #expect(state.closed)
            }
            // The same after a first request on a kept-alive connection.
            let connection = try await RawConnection(port: port)
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: plaza\r\n\r\n")
            try await connection.wait(timeout: .seconds(5)) { $0.text.contains("\"ok\"") }
            try await connection.send(
                "GET /healthz HTTP/1.1\r\nHost: plaza\r\nX-Big: \(String(repeating: "b", count: 100_000))\r\n\r\n"
            )
            let state = try await connection.wait(timeout: .seconds(5)) { $0.closed }
            #expect(state.text.contains("HTTP/1.1 431"))
        }
    }

    @Test func oneAddressGetsOnlyItsShareOfConnections() async throws {
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.network.maxConnectionsPerClient = 3 }) {
            client,
            _ in
            let port = try #require(client.port)
            var held: [RawConnection] = []
            for _ in 0..<3 { held.append(try await RawConnection(port: port)) }
            try await Task.sleep(for: .milliseconds(200))
            let fourth = try await RawConnection(port: port)
            #expect(try await fourth.wait(timeout: .seconds(3)) { $0.closed }.closed)
            // The three are served; once one goes, a new one is let in.
            try await held[0].send("GET /healthz HTTP/1.1\r\nHost: plaza\r\nConnection: close\r\n\r\n")
            #expect(try await held[0].wait(timeout: .seconds(3)) { $0.closed }.text.hasPrefix("HTTP/1.1 200"))
            try await Task.sleep(for: .milliseconds(200))
            let fifth = try await RawConnection(port: port)
            try await fifth.send("GET /healthz HTTP/1.1\r\nHost: plaza\r\nConnection: close\r\n\r\n")
            #expect(try await fifth.wait(timeout: .seconds(3)) { $0.closed }.text.hasPrefix("HTTP/1.1 200"))
            for connection in held { await connection.close() }
        }
    }

    /// Behind a trusted proxy each client has its own address: one client's bad log-ins lock only that client. From a
    /// peer that is no trusted proxy the header is ignored.
    @Test(arguments: [true, false])
    func forwardedAddressesCountOnlyFromTrustedProxies(_ trusted: Bool) async throws {
        try await TestPlaza.withApp(
            .sqlite,
            .live,
            configure: {
                $0.limits.loginFailuresPerAddress = 2
                if trusted { $0.network.trustedProxies = TrustedProxies(parsing: "127.0.0.0/8, ::1, 10.0.0.0/8")! }
            }
        ) { client, _ in
            func login(from address: String) async throws -> HTTPResponse.Status {
                try await client.send(
                    .post,
                    "/v1/auth/login",
                    json: LoginRequest(login: "nobody", password: "wrong password!"),
                    headers: [HTTPField.Name("X-Forwarded-For")!: "\(address), 10.0.0.7"]
                ).status
            }
            for _ in 0..<2 {
                let status = try await login(from: "203.0.113.5")
                #expect(status == .unauthorized)
            }
            let locked = try await login(from: "203.0.113.5")
            let other = try await login(from: "198.51.100.9")
            #expect(locked == .tooManyRequests)
            #expect(other == (trusted ? HTTPResponse.Status.unauthorized : .tooManyRequests))
        }
    }

    @Test func theClientIsTheRightMostAddressNoTrustedProxyAdded() throws {
        let proxies = try #require(TrustedProxies(parsing: "10.0.0.0/8, 2001:db8::/32"))
        #expect(proxies.client(peer: "10.1.2.3", forwardedFor: "198.51.100.1, 203.0.113.5, 10.9.9.9") == "203.0.113.5")
        #expect(proxies.client(peer: "10.1.2.3", forwardedFor: "192.0.2.60, [2001:db8::7]:4711") == "192.0.2.60")
        #expect(proxies.client(peer: "203.0.113.5", forwardedFor: "1.2.3.4") == "203.0.113.5")
        #expect(proxies.client(peer: "10.1.2.3", forwardedFor: "not-an-address") == "10.1.2.3")
        #expect(TrustedProxies(parsing: "10.0.0.0/33") == nil && TrustedProxies(parsing: "example.com") == nil)
    }

    @Test func metricsAreServedOnlyToTheOperator() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.mode = .production }) { client, _ in
            let closed = try await client.execute(uri: "/metrics", method: .get)
            #expect(closed.status == .notFound)
        }
        try await TestPlaza.withApp(.sqlite, configure: { $0.network.metricsToken = "a-long-metrics-token" }) {
            client,
            _ in
            let refused = try await client.execute(uri: "/metrics", method: .get)
            #expect(refused.status == .unauthorized)
            let scraped = try await client.execute(
                uri: "/metrics",
                method: .get,
                headers: [.authorization: "Bearer a-long-metrics-token"]
            )
            #expect(scraped.status == .ok && scraped.text.contains("plaza_http_requests_total"))
        }
    }
}
