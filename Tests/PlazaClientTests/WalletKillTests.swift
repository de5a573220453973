import Foundation
import PlazaClient
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Synchronization
import Testing

/// A server killed with SIGKILL in the middle of a stream of transfers loses no transfer it acknowledged and
/// leaves no half-applied entry; the SDK's retries with the same keys after the restart pay each transfer once.
@Suite struct WalletKillTests {
    static let people = ["kim", "lou", "max", "noa", "oli", "pia"]
    static let funding: Int64 = 50_000

    /// One intended transfer, its key, and what the client heard.
    struct Attempt: Sendable {
        var from: Int
        var request: TransferRequest
        var key: String
        var acknowledged: Transfer?
    }

    final class Attempts: Sendable {
        let list = Mutex<[Attempt]>([])
    }

    final class KilledAt: Sendable {
        let at = Mutex<ContinuousClock.Instant?>(nil)
    }

    @Test(arguments: TestEngine.enabled)
    func acknowledgedTransfersSurviveSIGKILLAndRetriesPayOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withPreparedStorage(engine, accounts: Self.people) { storage, secretKey in
            let server = try await ChildPlaza(storage: storage, secretKey: secretKey)
            defer { server.stop() }
            var clients: [PlazaClient] = []
            for name in Self.people {
                let client = PlazaClient(baseURL: server.baseURL)
                try await client.login(name, password: AccountsDriver.password)
                let topUp = try await client.topUp(
                    TopUpRequest(
                        amount: Self.funding,
                        currency: "USD",
                        card: CardDetails(number: "4242424242424242", expMonth: 1, expYear: 2035, cvc: "123")
                    )
                )
                var status = topUp.status
                for _ in 0..<500 where status == .pending {
                    try await Task.sleep(for: .milliseconds(20))
                    status = try await client.topUp(topUp.id).status
                }
                #expect(status == .succeeded)
                clients.append(client)
            }
            let attempts = Attempts()
            let phones = clients

            // Eight senders keep transferring; the server is killed while they do, once more than 20 were acknowledged
            // (however slow the machine), and the senders stop soon after.
            let killed = KilledAt()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for sender in 0..<8 {
                    group.addTask {
                        let deadline = ContinuousClock.now + .seconds(30)
                        while ContinuousClock.now < deadline,
                            killed.at.withLock({ $0.map { ContinuousClock.now < $0 + .milliseconds(300) } ?? true })
                        {
                            let from = Int.random(in: 0..<Self.people.count)
                            let to = (from + Int.random(in: 1..<Self.people.count)) % Self.people.count
                            var attempt = Attempt(
                                from: from,
                                request: TransferRequest(
                                    to: Self.people[to],
                                    amount: Int64.random(in: 1...500),
                                    currency: "USD",
                                    note: "s\(sender)"
                                ),
                                key: UUID().uuidString
                            )
                            attempt.acknowledged = try? await phones[from].transfer(
                                attempt.request,
                                idempotencyKey: attempt.key
                            )
                            attempts.list.withLock { $0.append(attempt) }
                        }
                    }
                }
                group.addTask {
                    let deadline = ContinuousClock.now + .seconds(20)
                    while ContinuousClock.now < deadline,
                        attempts.list.withLock({ $0.filter { $0.acknowledged != nil }.count }) <= 25
                    {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                    server.kill()
                    killed.at.withLock { $0 = ContinuousClock.now }
                }
                try await group.waitForAll()
            }
            let sent = attempts.list.withLock { $0 }
            let acknowledged = sent.filter { $0.acknowledged != nil }
            let unanswered = sent.filter { $0.acknowledged == nil }
            #expect(
                acknowledged.count > 20 && !unanswered.isEmpty,
                "acknowledged \(acknowledged.count), unanswered \(unanswered.count)"
            )
            print("kill test: \(acknowledged.count) acknowledged, \(unanswered.count) unanswered")

            // Nothing half-written: every entry balances and every cached balance matches the journal.
            let afterKill = try await TestPlaza.verifyLedger(storage)
            #expect(afterKill.problems.isEmpty, "\(afterKill)")

            try await server.start()
            /// A request the killed server was running holds its key until its lease (10 s) lapses: retry until then.
            @Sendable func patiently(_ attempt: Attempt) async throws -> Transfer {
                let deadline = ContinuousClock.now + .seconds(30)
                while true {
                    do {
                        return try await phones[attempt.from].transfer(attempt.request, idempotencyKey: attempt.key)
                    } catch let error as PlazaClientError
                        where error.code == .conflict && ContinuousClock.now < deadline
                    {
                        try await Task.sleep(for: .milliseconds(500))
                    }
                }
            }
            // Every acknowledged transfer is there, once: a retry with its key replays it instead of paying again.
            for attempt in acknowledged {
                let replay = try await patiently(attempt)
                #expect(replay.id == attempt.acknowledged?.id)
            }
            // What the client never heard about is retried with the same key: it lands exactly once.
            var settled = acknowledged.compactMap(\.acknowledged)
            for attempt in unanswered {
                do {
                    settled.append(try await patiently(attempt))
                } catch let error as PlazaClientError where error.code == .insufficientFunds {
                    continue
                }
            }
            var balances: [Int64] = []
            for phone in phones { balances.append(try await phone.wallet().balances.first?.available ?? 0) }
            #expect(balances.reduce(0, +) == Self.funding * Int64(Self.people.count))
            for (index, name) in Self.people.enumerated() {
                let sentBy = settled.filter { $0.from.username == name }.reduce(0) { $0 + $1.amount }
                let received = settled.filter { $0.to.username == name }.reduce(0) { $0 + $1.amount }
                #expect(balances[index] == Self.funding - sentBy + received, "\(name)")
            }
            let report = try await TestPlaza.verifyLedger(storage)
            #expect(report.problems.isEmpty, "\(report)")
        }
    }
}
