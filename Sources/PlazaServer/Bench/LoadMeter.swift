import Foundation

/// Runs an operation many times with a fixed number in flight and reports the rate and latency percentiles.
struct LoadMeter: Sendable {
    struct Result: Sendable {
        var operations: Int
        var seconds: Double
        var p50: Double
        var p99: Double
        var rate: Double { Double(operations) / seconds }
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
            return try await group.reduce(into: []) { $0 += $1 }.sorted()
        }
        let seconds = Self.milliseconds(clock.now - start) / 1_000
        guard !latencies.isEmpty else { return Result(operations: 0, seconds: seconds, p50: 0, p99: 0) }
        return Result(
            operations: count, seconds: seconds, p50: latencies[latencies.count / 2],
            p99: latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))])
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
}
