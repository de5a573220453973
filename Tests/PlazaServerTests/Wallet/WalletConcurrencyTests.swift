import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Synchronization
import Testing

/// Many clients at once doing everything money can do, with retries that reuse their keys, over real HTTP:
/// afterwards no money appeared or vanished, nobody is below zero, the ledger verifies, and every answer was a
/// success or a 4xx problem.
@Suite struct WalletConcurrencyTests {
    static let shopPoint = Coordinate(latitude: 40.4168, longitude: -3.7038)
    static let customers = 6
    static let funding: Int64 = 20_000

    /// What the run saw: answers by status, and charges to act on.
    final class Log: Sendable {
        let statuses = Mutex<[Int: Int]>([:])
        let charges = Mutex<[Charge]>([])
        let replaysDiffered = Mutex(0)

        func count(_ response: TestResponse) {
            statuses.withLock { $0[Int(response.status.code), default: 0] += 1 }
        }
    }

    @Test(arguments: TestEngine.enabled)
    func randomMoneyTrafficConservesMoneyAndVerifies(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (places, wallet) = (PlacesDriver(client), WalletDriver(client))
            let shop = try await places.shop(at: Self.shopPoint)
            var tokens: [String] = []
            for index in 0..<Self.customers {
                let token = try await places.sharingCustomer("cust\(index)").accessToken
                try await places.move(to: Self.shopPoint, token: token)
                try await wallet.fund(Self.funding, token: token)
                tokens.append(token)
            }
            let (merchant, business, customerTokens) = (shop.tokens.accessToken, shop.business.id, tokens)
            let log = Log()

            /// Sends `request` once or, sometimes, twice with the same key (a client that did not hear the answer);
            /// both answers must then be the same.
            @Sendable func maybeTwice(
                _ request: @escaping @Sendable (String) async throws -> TestResponse
            ) async throws -> TestResponse {
                let key = UUID().uuidString
                if Int.random(in: 0..<4) > 0 {
                    let response = try await request(key)
                    log.count(response)
                    return response
                }
                async let first = request(key)
                async let second = request(key)
                let (a, b) = try await (first, second)
                log.count(a)
                log.count(b)
                // Two at once: one runs, the other is told it is still running (409) or replays the same answer.
                if a.status != .conflict, b.status != .conflict, a.text != b.text {
                    log.replaysDiffered.withLock { $0 += 1 }
                }
                let retried = try await request(key)
                log.count(retried)
                let settled = a.status == .conflict ? b : a
                if settled.status != .conflict, retried.text != settled.text {
                    log.replaysDiffered.withLock { $0 += 1 }
                }
                return retried
            }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<12 {
                    group.addTask {
                        for _ in 0..<20 {
                            let payer = Int.random(in: 0..<Self.customers)
                            switch Int.random(in: 0..<10) {
                            case 0..<3:
                                let payee = (payer + Int.random(in: 1..<Self.customers)) % Self.customers
                                let amount = Int64.random(in: 1...4_000)
                                _ = try await maybeTwice { key in
                                    try await wallet.transfer(
                                        to: "cust\(payee)",
                                        amount,
                                        key: key,
                                        token: customerTokens[payer]
                                    )
                                }
                            case 3..<5:
                                let amount = Int64.random(in: 1...3_000)
                                let response = try await maybeTwice { key in
                                    try await wallet.charge(
                                        business: business,
                                        customer: "cust\(payer)",
                                        amount,
                                        key: key,
                                        token: merchant
                                    )
                                }
                                if response.status == .created {
                                    log.charges.withLock { $0.append(try! response.decode(Charge.self)) }
                                }
                            case 5..<8:
                                guard let charge = log.charges.withLock({ $0.randomElement() }) else { continue }
                                let token = customerTokens[Int(charge.customer.username!.dropFirst(4))!]
                                _ = try await maybeTwice { key in
                                    try await wallet.approve(charge, key: key, token: token)
                                }
                            case 8:
                                guard let charge = log.charges.withLock({ $0.randomElement() }) else { continue }
                                let token = customerTokens[Int(charge.customer.username!.dropFirst(4))!]
                                log.count(
                                    try await wallet.end(
                                        charge,
                                        worker % 2 == 0 ? "cancel" : "decline",
                                        token: worker % 2 == 0 ? merchant : token
                                    )
                                )
                            default:
                                guard let charge = log.charges.withLock({ $0.randomElement() }) else { continue }
                                let amount = Int64.random(in: 1...1_500)
                                _ = try await maybeTwice { key in
                                    try await wallet.refund(charge, amount, key: key, token: merchant)
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }

            let statuses = log.statuses.withLock { $0 }
            #expect(statuses.keys.allSatisfy { (200..<500).contains($0) }, "answers: \(statuses)")
            #expect(statuses[200, default: 0] + statuses[201, default: 0] > 50, "answers: \(statuses)")
            #expect(log.replaysDiffered.withLock { $0 } == 0)
            var total: Int64 = 0
            for token in customerTokens {
                let balance = try await wallet.balance(token: token)
                #expect(balance >= 0)
                total += balance
            }
            let businessBalance = try await client.send(.get, "/v1/businesses/\(business)/wallet", token: merchant)
                .decode(Wallet.self)
            let earned = businessBalance.balances.first?.available ?? 0
            total += earned
            // Each approved charge was paid exactly once and each refund given once: the shop holds what they add up to.
            var settled: [Charge] = []
            var cursor: String?
            repeat {
                let page = try await client.send(
                    .get,
                    "/v1/businesses/\(business)/charges?limit=100\(cursor.map { "&cursor=\($0)" } ?? "")",
                    token: merchant
                )
                .decode(Page<Charge>.self)
                settled += page.items.filter { $0.status == .approved || $0.status == .refunded }
                cursor = page.nextCursor
            } while cursor != nil
            #expect(earned == settled.reduce(0) { $0 + $1.amount - $1.refundedAmount })
            #expect(!settled.isEmpty && settled.contains { $0.refundedAmount > 0 }, "answers: \(statuses)")
            #expect(total == Self.funding * Int64(Self.customers))
            let report = try await services.verifyLedger()
            #expect(report.problems.isEmpty, "\(report)")
        }
    }
}
