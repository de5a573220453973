import Foundation
import PlazaCore
import PlazaServer

/// The coupons of a chaos run: an approved merchant's shop and, for every round of claims, a coupon campaign of three
/// (approved through the review queue) delivered to the round's claimers, who subscribe to the shop just for it.
struct ChaosCoupons: Sendable {
    /// The campaigns, by round number.
    var campaigns: [UUID]

    static let none = ChaosCoupons(campaigns: [])
    /// Coupons per campaign: fewer than its claimers.
    static let cap = 3

    /// The merchant, the shop (its merchant approved by an admin), and a campaign per round reaching its claimers.
    static func seed(
        rounds: [ChaosCoupon],
        users: [LedgerBenchData.User],
        services: PlazaServices
    ) async throws -> ChaosCoupons {
        guard !rounds.isEmpty else { return .none }
        let merchant = try await ChaosCards.person(services, "chaosmerchant", role: .merchant)
        let admin = try await ChaosCards.person(services, "chaosoffersadmin", role: .admin)
        let shop = try await services.businesses.createBusiness(
            merchant,
            CreateBusinessRequest(name: "Chaos Bakery", category: .grocery)
        )
        _ = try await services.businesses.addLocation(
            merchant,
            business: shop.id,
            LocationRequest(
                name: "Chaos",
                address: "Chaos",
                latitude: ChaosMarket.center.latitude,
                longitude: ChaosMarket.center.longitude,
                radiusMeters: 50
            )
        )
        try await approve(.merchant, admin: admin, services: services)
        let now = Date()
        var campaigns: [UUID] = []
        for round in rounds {
            var claimers: [Identity] = []
            for number in round.claimers {
                claimers.append(try await ChaosCards.person(services, users[number].username, role: nil))
            }
            // Subscribed while the campaign starts (it reaches its shop's subscribers then), unsubscribed from coupons after.
            for claimer in claimers {
                _ = try await services.offers.subscribe(
                    claimer,
                    business: shop.id,
                    SubscriptionRequest(ads: false, coupons: true)
                )
            }
            let content = CampaignContent(
                kind: .coupon,
                title: "Chaos coupon \(round.number)",
                body: "Ten off, three of them.",
                startsAt: now.addingTimeInterval(-3_600),
                endsAt: now.addingTimeInterval(86_400),
                target: CampaignTarget(),
                delivery: [.automatic],
                discount: CouponDiscount(percentOff: 10),
                totalRedemptions: cap
            )
            let campaign = try await services.offers.createCampaign(merchant, business: shop.id, content)
            _ = try await services.offers.submit(merchant, campaign.id)
            try await approve(.campaign, admin: admin, services: services)
            for claimer in claimers {
                _ = try await services.offers.subscribe(
                    claimer,
                    business: shop.id,
                    SubscriptionRequest(ads: false, coupons: false)
                )
            }
            campaigns.append(campaign.id)
        }
        return ChaosCoupons(campaigns: campaigns)
    }

    /// Approves whatever of `kind` waits in the review queue.
    static func approve(_ kind: ReviewKind, admin: Identity, services: PlazaServices) async throws {
        for item in try await services.admin.reviewQueue(state: .open, kind: kind, limit: 50, cursor: nil).items {
            _ = try await services.admin.decide(admin, item.id, approve: true, reason: nil)
        }
    }
}

/// One round of coupon claims: more claimers than the campaign has coupons, all at once, some tapping twice at once.
struct ChaosCoupon: Sendable {
    var number: Int
    /// The claimers: people of the run's own, after the card shoppers.
    var claimers: [Int]
    /// Which claimers tap twice.
    var twice: [Bool]

    /// What each claimer was answered: per send, its status (0: unanswered) and the claim it named.
    struct Result: Sendable {
        var answers: [[Claimed]] = []
    }

    /// One claim answer.
    struct Claimed: Sendable, Equatable {
        var status: Int
        var claim: UUID?
    }
}

extension ChaosRun {
    /// Every claimer of the round at once.
    func claims(_ round: ChaosCoupon) async -> ChaosCoupon.Result {
        let campaign = coupons.campaigns[round.number]
        let claim = { @Sendable (token: String) async -> ChaosCoupon.Claimed in
            guard let reply = await self.call("/v1/offers/\(campaign)/claim", token: token) else {
                return ChaosCoupon.Claimed(status: 0)
            }
            return ChaosCoupon.Claimed(status: reply.status, claim: reply.status < 300 ? Self.id(in: reply.body) : nil)
        }
        return await withTaskGroup(of: (Int, [ChaosCoupon.Claimed]).self) { group in
            for (index, number) in round.claimers.enumerated() {
                let token = users[number].token
                group.addTask { (index, await self.sent(round.twice[index] ? .twice : .once) { await claim(token) }) }
            }
            var result = ChaosCoupon.Result(answers: Array(repeating: [], count: round.claimers.count))
            for await (index, answers) in group { result.answers[index] = answers }
            return result
        }
    }
}
