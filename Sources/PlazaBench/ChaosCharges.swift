import Foundation
import NIOHTTP1
import PlazaCore
import PlazaServer

/// The counter of a chaos run: a shop whose owner (a person of the run's own, made a merchant) charges the people
/// standing in it.
struct ChaosShop: Sendable {
    var business: UUID
    /// The owner's index among the run's people.
    var owner: Int
    var location: UUID
    /// Its coffee card: `punchesRequired` punches, no waiting between two.
    var program: UUID

    static let none = ChaosShop(business: UUID(), owner: 0, location: UUID(), program: UUID())
    static let punchesRequired = 3

    /// The shop at the market's centre, its owner `users[owner]` made an approved merchant, with its coffee card.
    static func seed(owner: Int?, users: [LedgerBenchData.User], services: PlazaServices) async throws -> ChaosShop {
        guard let owner else { return .none }
        try await AccountStore().setRole(users[owner].id, .merchant, now: Date(), on: services.database.sql)
        let merchant = try await ChaosCards.person(services, users[owner].username, role: nil)
        let shop = try await services.businesses.createBusiness(
            merchant,
            CreateBusinessRequest(name: "Chaos Corner", category: .grocery)
        )
        let location = try await services.businesses.addLocation(
            merchant,
            business: shop.id,
            LocationRequest(
                name: "Counter",
                address: "Chaos",
                latitude: ChaosMarket.center.latitude,
                longitude: ChaosMarket.center.longitude,
                radiusMeters: 50
            )
        )
        let admin = try await ChaosCards.person(services, "chaoschargesadmin", role: .admin)
        try await ChaosCoupons.approve(.merchant, admin: admin, services: services)
        let program = try await services.loyalty.createProgram(
            merchant,
            business: shop.id,
            LoyaltyProgramRequest(
                title: "Chaos coffee",
                punchesRequired: punchesRequired,
                reward: "A coffee",
                oneCardAtATime: false,
                velocityWindowMinutes: 0
            )
        )
        return ChaosShop(business: shop.id, owner: owner, location: location.id, program: program.id)
    }
}

/// One charge of the workload: its customer steps into the shop (sharing their location), the owner charges them
/// (set-up, each step retried until answered); then approving with one key (once, twice at once or again later) races
/// what `race` says, and, once paid, refunds of two fifths each race each other (three do not fit).
struct ChaosCharge: Sendable {
    enum Race: Sendable, CaseIterable {
        /// The customer approves while the owner cancels.
        case approveOrCancel
        /// One device approves while another declines.
        case approveOrDecline
        /// Two devices approve, with two keys.
        case twoKeys
    }

    var number: Int
    /// The customer: one of the market's people (their balance is shared with transfers and deals).
    var customer: Int
    var amount: Int64
    var race: Race
    var payStyle: ChaosBench.Operation.Style
    /// Refunds sent at once once the charge is paid: 0 to 3.
    var refunds: Int
    var refundStyle: ChaosBench.Operation.Style
    /// The charge's key, the two approvals' and one per refund.
    var keys: [String]

    /// Each refund gives back two fifths.
    var refundAmount: Int64 { amount * 2 / 5 }

    /// What the charge's requests were answered. A status of 0: no answer even after every retry.
    struct Result: Sendable {
        var charge: UUID?
        var setUpFailed: String?
        /// The answers to the first approval key, then the second's.
        var first: [Int] = []
        var second: [Int] = []
        /// The cancel's or the decline's answer.
        var ended: Int?
        /// Per refund key, its answers.
        var refunds: [[Int]] = []
    }
}

extension ChaosRun {
    /// Charges the customer in the shop and runs the race.
    func charge(_ charge: ChaosCharge) async -> ChaosCharge.Result {
        var result = ChaosCharge.Result()
        let (customer, owner) = (users[charge.customer], users[shop.owner])
        // In the shop: sharing with merchants, and a point at the counter now.
        let sharing = await call(
            "/v1/me/location-sharing",
            method: .PUT,
            token: customer.token,
            body: Self.json(LocationSharing(level: .merchants))
        )
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let point = LocationPoint(
            latitude: ChaosMarket.center.latitude,
            longitude: ChaosMarket.center.longitude,
            accuracy: 10,
            recordedAt: now
        )
        let moved = await call(
            "/v1/me/locations",
            token: customer.token,
            body: Self.json(LocationUpload(points: [point]))
        )
        guard let sharing, sharing.status == 200, let moved, moved.status < 300 else {
            result.setUpFailed = "in the shop: \(ChaosReply.describe(sharing)), \(ChaosReply.describe(moved))"
            return result
        }
        let request = CreateChargeRequest(
            businessId: shop.business,
            customer: customer.username,
            amount: charge.amount,
            currency: "USD"
        )
        let created = await call("/v1/charges", token: owner.token, key: charge.keys[0], body: Self.json(request))
        guard let created, created.status == 201, let made = Self.decode(Charge.self, created) else {
            result.setUpFailed = "charge: \(ChaosReply.describe(created))"
            return result
        }
        result.charge = made.id
        let approval = Self.json(
            ApproveChargeRequest(amount: made.amount, currency: made.currency, businessId: shop.business)
        )
        let approve = { @Sendable (key: String) in
            await self.call("/v1/charges/\(made.id)/approve", token: customer.token, key: key, body: approval)?.status
                ?? 0
        }
        let end: (path: String, token: String)? =
            switch charge.race {
            case .approveOrCancel: ("cancel", owner.token)
            case .approveOrDecline: ("decline", customer.token)
            case .twoKeys: nil
            }
        async let first = sent(charge.payStyle) { await approve(charge.keys[1]) }
        async let second = charge.race == .twoKeys ? [await approve(charge.keys[2])] : []
        async let ended =
            end == nil ? nil : await call("/v1/charges/\(made.id)/\(end!.path)", token: end!.token)?.status ?? 0
        (result.first, result.second, result.ended) = await (first, second, ended)
        guard (result.first + result.second).contains(200), charge.refunds > 0 else { return result }
        let body = Self.json(RefundRequest(amount: charge.refundAmount))
        result.refunds = await withTaskGroup(of: (Int, [Int]).self) { group in
            for index in 0..<charge.refunds {
                group.addTask {
                    let answers = await self.sent(charge.refundStyle) {
                        await self.call(
                            "/v1/charges/\(made.id)/refunds",
                            token: owner.token,
                            key: charge.keys[3 + index],
                            body: body
                        )?.status ?? 0
                    }
                    return (index, answers)
                }
            }
            var refunds = Array(repeating: [Int](), count: charge.refunds)
            for await (index, answers) in group { refunds[index] = answers }
            return refunds
        }
        return result
    }
}
