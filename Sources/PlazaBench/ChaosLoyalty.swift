import Foundation
import NIOHTTP1
import PlazaCore
import PlazaServer

/// One loyalty card of the workload: its holder takes a card of the shop's coffee card (three punches); two counters
/// scan each punch code at once; then two counters confirm the reward's code at once, one of them sending its key
/// twice (set-up steps retried until answered).
struct ChaosPunchCard: Sendable {
    var number: Int
    /// The holder: one of the market's people.
    var holder: Int
    /// Two scan keys per punch, then the two confirmations' keys.
    var keys: [String]
    var redeemStyle: ChaosBench.Operation.Style

    /// One scan's answer: its status, and whether it says the punch counted.
    struct Scan: Sendable, Hashable {
        var status: Int
        var counted: Bool
    }

    /// What the card's requests were answered. A status of 0: no answer even after every retry.
    struct Result: Sendable {
        var card: UUID?
        var setUpFailed: String?
        /// Per punch, each counter's answers (one per send).
        var scans: [[[Scan]]] = []
        /// Per confirmation key, its answers.
        var redemptions: [[Int]] = []
    }
}

extension ChaosRun {
    /// Takes a card, has it punched full by racing counters, then redeemed by racing counters.
    func punchCard(_ item: ChaosPunchCard) async -> ChaosPunchCard.Result {
        var result = ChaosPunchCard.Result()
        let (holder, owner) = (users[item.holder], users[shop.owner])
        let taken = await call("/v1/loyalty-programs/\(shop.program)/cards", token: holder.token)
        guard let taken, taken.status == 201, let card = Self.id(in: taken.body) else {
            result.setUpFailed = "card: \(ChaosReply.describe(taken))"
            return result
        }
        result.card = card
        let scan = { @Sendable (body: String, key: String) async -> ChaosPunchCard.Scan in
            guard
                let reply = await self.call(
                    "/v1/businesses/\(self.shop.business)/loyalty/punches",
                    token: owner.token,
                    key: key,
                    body: body
                )
            else { return ChaosPunchCard.Scan(status: 0, counted: false) }
            return ChaosPunchCard.Scan(
                status: reply.status,
                counted: Self.decode(CounterPunch.self, reply)?.status == .counted
            )
        }
        for punch in 0..<ChaosShop.punchesRequired {
            let shown = await call("/v1/me/loyalty-cards/\(card)/punch-code", token: holder.token)
            guard let shown, shown.status < 300, let code = Self.decode(CustomerCode.self, shown) else {
                result.setUpFailed = "punch code: \(ChaosReply.describe(shown))"
                return result
            }
            let body = Self.json(CounterPunchRequest(code: code.code, locationId: shop.location))
            async let first = [await scan(body, item.keys[2 * punch])]
            async let second = [await scan(body, item.keys[2 * punch + 1])]
            result.scans.append(await [first, second])
        }
        let shown = await call("/v1/me/loyalty-cards/\(card)/redeem-code", token: holder.token)
        // A card left short of its punches (a code that ran out while the server was down) has nothing to redeem.
        guard let shown, shown.status < 300, let code = Self.decode(RedeemCode.self, shown) else {
            if shown?.status != 409 { result.setUpFailed = "redeem code: \(ChaosReply.describe(shown))" }
            return result
        }
        let body = Self.json(RedemptionRequest(code: code.qrPayload, locationId: shop.location))
        let confirm = { @Sendable (key: String) async -> Int in
            await self.call(
                "/v1/businesses/\(self.shop.business)/loyalty-redemptions",
                token: owner.token,
                key: key,
                body: body
            )?.status ?? 0
        }
        let base = 2 * ChaosShop.punchesRequired
        async let first = sent(item.redeemStyle) { await confirm(item.keys[base]) }
        async let second = [await confirm(item.keys[base + 1])]
        result.redemptions = await [first, second]
        return result
    }
}
