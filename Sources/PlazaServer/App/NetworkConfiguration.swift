import Foundation

/// How the server holds up on an open network (`PLAZA_HEADER_TIMEOUT` and friends, see the README's table).
public struct NetworkConfiguration: Sendable {
    /// A new connection's first request head must arrive within this (slowloris).
    public var headerTimeout: TimeInterval = 10
    /// A kept-alive connection's next request head must arrive within this of the previous response.
    public var idleTimeout: TimeInterval = 30
    /// A request's body must arrive within this of its head.
    public var bodyTimeout: TimeInterval = 30
    /// A request head (line and headers) past this many bytes is answered 431.
    public var maxHeaderBytes = 16 * 1024
    /// Open connections in all; past it, new ones wait in the kernel's queue.
    public var maxConnections = 10_000
    /// Open connections from one address (trusted proxies excepted); past it, new ones are closed at once.
    public var maxConnectionsPerClient = 256
    /// On SIGTERM or SIGINT: how long requests in flight may take before they are cut off.
    public var shutdownSeconds: TimeInterval = 20
    /// On SIGTERM, before the listener closes: how long `/readyz` says 503 and each response closes its connection
    /// (`ServerDrain`); 0, the default, stops at once.
    public var drainSeconds: TimeInterval = 0
    /// Proxies whose `Forwarded` / `X-Forwarded-For` name the client.
    var trustedProxies = TrustedProxies.none
    /// `/metrics` answers only with `Authorization: Bearer <token>` …
    public var metricsToken: String?
    /// … or only on this port of its own (on the same host), not on the public one.
    public var metricsPort: Int?

    public init() {}

    mutating func read(_ value: (String) -> String?, fail: (String, String) -> Void) {
        func seconds(_ key: String, _ range: ClosedRange<TimeInterval>, into target: inout TimeInterval) {
            guard let text = value(key) else { return }
            if let parsed = PlazaConfiguration.parseDuration(text), range.contains(parsed) {
                target = parsed
            } else {
                fail(
                    key,
                    "must be a duration from \(Int(range.lowerBound))s to \(Int(range.upperBound))s such as 10s or 2m, not '\(text)'"
                )
            }
        }
        func count(_ key: String, _ range: ClosedRange<Int>, into target: inout Int) {
            guard let text = value(key) else { return }
            if let parsed = Int(text), range.contains(parsed) {
                target = parsed
            } else {
                fail(key, "must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
        }
        seconds("PLAZA_HEADER_TIMEOUT", 1...300, into: &headerTimeout)
        seconds("PLAZA_IDLE_TIMEOUT", 1...3_600, into: &idleTimeout)
        seconds("PLAZA_BODY_TIMEOUT", 1...3_600, into: &bodyTimeout)
        seconds("PLAZA_SHUTDOWN_SECONDS", 1...3_600, into: &shutdownSeconds)
        seconds("PLAZA_DRAIN_SECONDS", 0...300, into: &drainSeconds)
        count("PLAZA_MAX_CONNECTIONS", 16...1_000_000, into: &maxConnections)
        count("PLAZA_MAX_CONNECTIONS_PER_CLIENT", 1...1_000_000, into: &maxConnectionsPerClient)
        if let text = value("PLAZA_TRUSTED_PROXIES") {
            if let parsed = TrustedProxies(parsing: text) {
                trustedProxies = parsed
            } else {
                fail(
                    "PLAZA_TRUSTED_PROXIES",
                    "must be addresses or CIDR ranges separated by commas, such as 10.0.0.0/8,::1, not '\(text)'"
                )
            }
        }
        if let token = value("PLAZA_METRICS_TOKEN") {
            if token.utf8.count >= 16 {
                metricsToken = token
            } else {
                fail("PLAZA_METRICS_TOKEN", "must be at least 16 characters long")
            }
        }
        if let text = value("PLAZA_METRICS_PORT") {
            if let port = Int(text), (1...65535).contains(port) {
                metricsPort = port
            } else {
                fail("PLAZA_METRICS_PORT", "must be a port number from 1 to 65535, not '\(text)'")
            }
        }
    }
}
