import Foundation
import PlazaDemo
import PlazaServer

/// Runs an operation many times with a fixed number in flight and reports the rate and latency percentiles.
struct LoadMeter: Sendable {
    struct Result: Sendable {
        var operations: Int
        var seconds: Double
        /// Each operation's, in milliseconds, sorted.
        var latencies: [Double]
        var rate: Double { Double(operations) / seconds }
        var p50: Double { percentile(0.5) }
        var p99: Double { percentile(0.99) }

        init(operations: Int, seconds: Double, latencies: [Double]) {
            self.operations = operations
            self.seconds = seconds
            self.latencies = latencies.sorted()
        }

        /// Rounds run one after another, as one result.
        init(combining rounds: [Result]) {
            self.init(
                operations: rounds.reduce(0) { $0 + $1.operations },
                seconds: rounds.reduce(0) { $0 + $1.seconds },
                latencies: rounds.flatMap(\.latencies)
            )
        }

        func percentile(_ fraction: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]
        }
    }

    let concurrency: Int

    /// `operation(i)` for i in 0..<count, `concurrency` at a time.
    func run(_ count: Int, _ operation: @escaping @Sendable (Int) async throws -> Void) async throws -> Result {
        let clock = ContinuousClock()
        let start = clock.now
        let workers = concurrency
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var times: [Double] = []
                    for index in stride(from: worker, to: count, by: workers) {
                        let begin = clock.now
                        try await operation(index)
                        times.append(Self.milliseconds(clock.now - begin))
                    }
                    return times
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return Result(operations: count, seconds: Self.milliseconds(clock.now - start) / 1_000, latencies: latencies)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
}
