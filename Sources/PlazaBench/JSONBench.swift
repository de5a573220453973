import Foundation
import NIOCore
import PlazaCore
import PlazaServer

/// `plaza bench json`: a presence list encoded by Foundation's encoder (as every other answer is) and by
/// `JSONWriter`, the one hand-written encoder, to decide whether it still pays (`Platform/Speed`).
public struct JSONBench {
    public var people: [Int] = [10, 79, 500]
    public var rounds = 2_000

    public init(rounds: Int) { self.rounds = rounds }

    public func run() throws -> String {
        var lines = ["| people | Foundation JSONEncoder | JSONWriter | ratio |", "|---:|---:|---:|---:|"]
        for count in people {
            let page = Page(
                items: (0..<count).map {
                    PresentCustomer(
                        username: "customer\($0)",
                        displayName: "Customer Number \($0)",
                        locationId: UUID(),
                        since: Date(timeIntervalSince1970: 1_790_000_000 + Double($0))
                    )
                },
                nextCursor: nil
            )
            let encoder = PlazaJSON.encoder()
            var writer = JSONWriter()
            page.write(to: &writer)
            guard try encoder.encode(page) == Data(writer.buffer.readableBytesView) else { throw BenchError.disagree }
            let foundation = try time { _ = try encoder.encode(page) }
            let handWritten = try time {
                var writer = JSONWriter()
                page.write(to: &writer)
                _ = writer.buffer
            }
            lines.append(
                "| \(count) | \(String(format: "%.1f", foundation)) µs | \(String(format: "%.1f", handWritten)) µs | "
                    + "\(String(format: "%.1f", foundation / handWritten))× |"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The median of five runs of `rounds` calls, per call, in microseconds.
    private func time(_ body: () throws -> Void) throws -> Double {
        var runs: [Double] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for _ in 0..<rounds { try body() }
            let elapsed = ContinuousClock.now - start
            runs.append(
                Double(elapsed.components.seconds) * 1e6 / Double(rounds) + Double(elapsed.components.attoseconds)
                    / 1e12 / Double(rounds)
            )
        }
        return runs.sorted()[2]
    }

    enum BenchError: Error { case disagree }
}
