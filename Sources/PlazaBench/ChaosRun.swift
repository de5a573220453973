import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The clients of one chaos run: workers take the operations in order, send each (twice at once, or again later, as
/// its style says) and retry an unanswered one with its key until it is answered, waiting while the server is down.
final class ChaosRun: Sendable {
    let operations: [ChaosBench.Operation]
    let users: [LedgerBenchData.User]
    let client: HTTPClient
    let base: String
    /// Every answer each operation got (one per send that was answered in the end).
    let answers: LockedBox<[[ChaosBench.Answer]]>
    /// The server is being killed and restarted: workers wait.
    let down = LockedBox(false)
    private let next = LockedBox(0)
    private let done = LockedBox(0)
    private let slowestAnswer = LockedBox(Duration.zero)
    /// How often an unanswered send is tried again before it counts as unanswered (about two minutes).
    static let attempts = 600

    init(operations: [ChaosBench.Operation], users: [LedgerBenchData.User], client: HTTPClient, base: String) {
        self.operations = operations
        self.users = users
        self.client = client
        self.base = base
        answers = LockedBox(Array(repeating: [], count: operations.count))
    }

    /// How many operations workers have taken so far.
    var started: Int { next.get() }
    var finished: Bool { done.get() >= operations.count }
    var slowest: Duration { slowestAnswer.get() }

    func work() async {
        while true {
            let index = next.update { value -> Int in
                defer { value += 1 }
                return value
            }
            guard index < operations.count else { return }
            let operation = operations[index]
            var got: [ChaosBench.Answer]
            switch operation.style {
            case .once:
                got = [await send(operation)]
            case .twice:
                async let first = send(operation)
                async let second = send(operation)
                got = [await first, await second]
            case .againLater:
                got = [await send(operation)]
                try? await Task.sleep(for: .milliseconds(50))
                got.append(await send(operation))
            }
            answers.update { $0[index] = got }
            done.update { $0 += 1 }
        }
    }

    /// Sends until the answer is final: made or refused. 5xx, 409 "still running" and dropped connections are tried
    /// again with the same key.
    func send(_ operation: ChaosBench.Operation) async -> ChaosBench.Answer {
        let body = #"{"to":"\#(users[operation.to].username)","amount":\#(operation.amount),"currency":"USD"}"#
        for _ in 0..<Self.attempts {
            while down.get() { try? await Task.sleep(for: .milliseconds(50)) }
            var request = HTTPClientRequest(url: base + "/v1/transfers")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(users[operation.from].token)")
            request.headers.add(name: "Idempotency-Key", value: operation.key)
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
            let started = ContinuousClock.now
            do {
                let response = try await client.execute(request, timeout: .seconds(30))
                let reply = try await response.body.collect(upTo: 1 << 20)
                let took = ContinuousClock.now - started
                slowestAnswer.update { $0 = max($0, took) }
                let status = Int(response.status.code)
                if status == 201, let id = Self.id(in: reply) { return .made(id) }
                if status < 500, status != 409 || !String(buffer: reply).contains("still running") { return .refused(status) }
            } catch {
                // Dropped by a kill, refused while it restarts, or timed out: the same key again.
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return .unanswered
    }

    static func id(in reply: ByteBuffer) -> UUID? {
        struct Made: Decodable { var id: UUID }
        return try? JSONDecoder().decode(Made.self, from: Data(reply.readableBytesView)).id
    }
}
