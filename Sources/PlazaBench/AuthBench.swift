import Foundation
import HummingbirdBcrypt
import Logging
import NIOPosix
import PlazaCore
import PlazaDemo
import PlazaServer
import ServiceLifecycle

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `plaza bench auth`: log-ins per second through the whole stack (HTTP on loopback, JSON, rate-limit
/// bookkeeping, bcrypt, session rows, JWT), measured beside its peer in the same run: bare bcrypt
/// verifications per second at the same cost and concurrency, the ceiling any log-in can reach here.
public struct AuthBench: Sendable {
    var configuration: PlazaConfiguration
    let logins: Int
    let concurrency: Int

    public init(configuration: PlazaConfiguration, logins: Int, concurrency: Int) {
        self.configuration = configuration
        self.logins = max(1, logins)
        self.concurrency = max(1, concurrency)
    }

    public func run() async throws -> String {
        // The bench signs in the same account many times from one address: lift the failure limits out of the way.
        try await BenchServer.run(
            configuration,
            prepare: {
                $0.limits.loginFailuresPerAccount = .max
                $0.limits.loginFailuresPerAddress = .max
            }
        ) { services, port, _ in
            let password = "bench-password-\(UUID().uuidString.prefix(8))"
            try await services.createAccount(
                email: "bench@bench.test",
                username: "bench",
                displayName: "Bench",
                password: password,
                role: .customer,
                checkPolicy: false
            )
            let peer = try await measureBcrypt(password: password)
            let stack = try await measureLogins(port: port, password: password)
            return """
                plaza bench auth: \(logins) log-ins, \(concurrency) in flight, bcrypt cost \(services.configuration.bcryptCost), \
                \(services.database.engine.rawValue), \(ProcessInfo.processInfo.activeProcessorCount) cores
                | what | per second | median ms |
                |---|---|---|
                | POST /v1/auth/login over HTTP (Plaza) | \(String(format: "%.2f", stack.rate)) | \(String(format: "%.0f", stack.median)) |
                | bare bcrypt verify (peer) | \(String(format: "%.2f", peer.rate)) | \(String(format: "%.0f", peer.median)) |
                Plaza reaches \(String(format: "%.0f", 100 * stack.rate / peer.rate))% of the bcrypt ceiling.
                """
        }
    }

    struct Measurement {
        var rate: Double
        var median: Double
    }

    private func measureBcrypt(password: String) async throws -> Measurement {
        let hash = Bcrypt.hash(password, cost: UInt8(configuration.bcryptCost))
        return try await measure {
            _ = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
        }
    }

    private func measureLogins(port: Int, password: String) async throws -> Measurement {
        let url = URL(string: "http://127.0.0.1:\(port)/v1/auth/login")!
        let body = try PlazaJSON.encoder().encode(LoginRequest(login: "bench", password: password, device: "bench"))
        let session = URLSession(configuration: .ephemeral)
        return try await measure {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
            let (_, response) = try await session.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                throw BenchError(message: "log-in answered \(response)")
            }
        }
    }

    struct BenchError: Error { var message: String }

    /// Runs `operation` `logins` times with `concurrency` in flight; the rate and the median latency.
    private func measure(_ operation: @escaping @Sendable () async throws -> Void) async throws -> Measurement {
        let clock = ContinuousClock()
        let start = clock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var times: [Double] = []
                    for _ in stride(from: worker, to: logins, by: concurrency) {
                        let begin = clock.now
                        try await operation()
                        let elapsed = clock.now - begin
                        times.append(
                            Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                        )
                    }
                    return times
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }.sorted()
        }
        let total = clock.now - start
        let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        return Measurement(rate: Double(logins) / seconds, median: latencies[latencies.count / 2])
    }
}
