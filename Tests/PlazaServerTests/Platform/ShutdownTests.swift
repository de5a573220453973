import Foundation
import PlazaServer
import PlazaTestSupport
import Testing

/// SIGTERM on a real `plaza serve`: it stops at once for idle clients, lets a request in flight finish, and exits.
@Suite struct ShutdownTests {
    @Test func sigtermClosesIdleConnectionsFinishesRequestsInFlightAndExits() async throws {
        try await TestPlaza.withPreparedStorage(.sqlite, accounts: ["zoe"]) { storage, secretKey in
            let server = try await ChildPlaza(
                storage: storage,
                secretKey: secretKey,
                extra: ["PLAZA_SHUTDOWN_SECONDS": "10"]
            )
            defer { server.kill() }
            // A kept-alive connection that asked once and then waits, as browsers and HTTP client pools do.
            let idle = try await RawConnection(port: server.port)
            try await idle.send("GET /healthz HTTP/1.1\r\nHost: plaza\r\n\r\n")
            #expect(try await idle.wait(timeout: .seconds(5)) { $0.text.contains("\"ok\"") }.closed == false)
            // A connection opened ahead and silent (browsers preconnect): it kept a stopping server up as long as it stayed.
            let silent = try await RawConnection(port: server.port)
            // A log-in whose body is still on its way when the signal comes.
            let body = #"{"login":"zoe","password":"a long enough passphrase"}"#
            let busy = try await RawConnection(port: server.port)
            try await busy.send(
                "POST /v1/auth/login HTTP/1.1\r\nHost: plaza\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                    + body.prefix(10)
            )
            try await Task.sleep(for: .milliseconds(200))

            let signalled = ContinuousClock.now
            server.sendTerminate()
            #expect(
                try await idle.wait(timeout: .seconds(3)) { $0.closed }.closed,
                "the idle connection was not closed"
            )
            #expect(
                try await silent.wait(timeout: .seconds(3)) { $0.closed }.closed,
                "the silent connection was not closed"
            )
            try await Task.sleep(for: .milliseconds(300))
            try await busy.send(String(body.dropFirst(10)))
            let answered = try await busy.wait(timeout: .seconds(5)) { $0.text.contains("accessToken") || $0.closed }
            #expect(
                answered.text.hasPrefix("HTTP/1.1 200") && answered.text.contains("accessToken"),
                "\(answered.text.prefix(60))"
            )
            let status = try await server.waitForExit(timeout: .seconds(8))
            #expect(status == 0, "plaza serve did not exit cleanly within 8 s of SIGTERM")
            #expect(ContinuousClock.now - signalled < .seconds(8))
        }
    }

    /// With `PLAZA_DRAIN_SECONDS`, SIGTERM first drains: the server still answers, old connections and new, but each
    /// answer says `Connection: close` and the connection closes after it (no proxy keeps one the stop would cut),
    /// and `/readyz` says 503 `shutdown: draining`; then it stops as without.
    @Test func sigtermWithADrainAnswersAndClosesEachConnectionThenStops() async throws {
        try await TestPlaza.withPreparedStorage(.sqlite, accounts: []) { storage, secretKey in
            let server = try await ChildPlaza(
                storage: storage,
                secretKey: secretKey,
                extra: ["PLAZA_SHUTDOWN_SECONDS": "5", "PLAZA_DRAIN_SECONDS": "2"]
            )
            defer { server.kill() }
            let kept = try await RawConnection(port: server.port)
            try await kept.send("GET /healthz HTTP/1.1\r\nHost: plaza\r\n\r\n")
            let first = try await kept.wait(timeout: .seconds(5)) { $0.text.contains("\"ok\"") }
            #expect(!first.text.lowercased().contains("connection: close") && !first.closed)

            let signalled = ContinuousClock.now
            server.sendTerminate()
            try await Task.sleep(for: .milliseconds(300))
            // The kept-alive connection still gets its answer, which closes it.
            try await kept.send("GET /healthz HTTP/1.1\r\nHost: plaza\r\n\r\n")
            let second = try await kept.wait(timeout: .seconds(3)) { $0.closed }
            #expect(second.closed && second.text.components(separatedBy: "HTTP/1.1 200").count == 3, "\(second.text)")
            #expect(second.text.lowercased().contains("connection: close"))
            // A new connection is still taken; readiness says why the balancer should look elsewhere.
            let fresh = try await RawConnection(port: server.port)
            try await fresh.send("GET /readyz HTTP/1.1\r\nHost: plaza\r\n\r\n")
            let ready = try await fresh.wait(timeout: .seconds(3)) { $0.closed }
            #expect(ready.text.hasPrefix("HTTP/1.1 503"), "\(ready.text.prefix(60))")
            #expect(ready.text.contains("\"shutdown\":\"draining\"") && ready.closed)

            let status = try await server.waitForExit(timeout: .seconds(10))
            #expect(status == 0, "plaza serve did not exit cleanly after its drain")
            #expect(ContinuousClock.now - signalled >= .seconds(2), "the drain was cut short")
        }
    }
}
