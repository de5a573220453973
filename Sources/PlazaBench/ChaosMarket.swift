import Foundation
import PlazaCore
import PlazaServer

/// The marketplace of a chaos run: one campus every bench user studies at, and a listing of its seller's for every deal
/// of the workload (bulk-loaded, no photos), so that each deal starts from an item for sale.
struct ChaosMarket: Sendable {
    /// The listings, by deal number.
    var listings: [UUID]
    /// The biddable listings, by auction number.
    var auctions: [UUID] = []
    /// A point near the campus's centre, where every meetup is.
    static let center = Coordinate(latitude: 48.1508, longitude: 11.5805)

    static let none = ChaosMarket(listings: [])

    /// Opens the campus, enrolls `users` (membership and agreement) and lists an item of each deal's seller.
    static func seed(
        users: [LedgerBenchData.User],
        deals: [ChaosDeal],
        auctions: [ChaosAuction] = [],
        services: PlazaServices
    ) async throws -> ChaosMarket {
        guard !deals.isEmpty || !auctions.isEmpty else { return .none }
        _ = try await services.market.createCampus(
            CampusRequest(name: "Chaos University", domains: ["chaos-uni.edu"], center: center)
        )
        for user in users {
            guard let record = try await AccountStore().user(login: user.username, on: services.database.sql) else {
                throw ChaosFailure("no user \(user.username) to enroll")
            }
            try await services.market.enroll(
                Identity(user: record, sessionID: UUID()),
                email: "\(user.username)@chaos-uni.edu"
            )
        }
        let now = Date()
        let items = deals.enumerated().map { number, deal in
            ImportedListing(
                seller: users[deal.seller].id,
                title: "Desk lamp \(number)",
                description: "Warm light, bendy neck.",
                price: 1_000,
                category: "other",
                condition: .good,
                createdAt: now
            )
        }
        // Biddable from 1,000 for a day: the run closes each one itself, as if its end had come, while its bids land.
        let biddable = auctions.enumerated().map { number, auction in
            ImportedListing(
                seller: users[auction.seller].id,
                title: "Signed poster \(number)",
                description: "From the 2019 concert.",
                price: 1_000,
                category: "other",
                condition: .good,
                createdAt: now,
                biddingEndsAt: now.addingTimeInterval(86_400)
            )
        }
        let campus = try await campus(services)
        return ChaosMarket(
            listings: try await services.market.importListings(items, campus: campus),
            auctions: try await services.market.importListings(biddable, campus: campus)
        )
    }

    /// The campus just opened (the only one: the database was empty).
    private static func campus(_ services: PlazaServices) async throws -> UUID {
        guard let campus = try await services.market.allCampuses().first else {
            throw ChaosFailure("the chaos campus is missing")
        }
        return campus.id
    }
}

/// One deal of the workload: a seller's item, a buyer's accepted offer and an agreed meetup (set up request by request,
/// each retried until answered), then requests that race: the buyer paying (with its key, once, twice at once or again
/// later), one side calling the deal off, and the handshake (the seller's code, the buyer's confirmation).
struct ChaosDeal: Sendable {
    /// What races once the deal is set up.
    enum Race: Sendable, CaseIterable {
        /// The payment against a cancel.
        case payOrCancel
        /// The payment against the handshake.
        case payOrHandshake
        /// Paid first; then a cancel against the handshake.
        case paidThenCancelOrHandshake
        /// The payment, a cancel and the handshake at once.
        case all

        var pays: Bool { self != .paidThenCancelOrHandshake }
        var cancels: Bool { self != .payOrHandshake }
        var shakes: Bool { self != .payOrCancel }
    }

    var number: Int
    var seller: Int
    var buyer: Int
    var amount: Int64
    var race: Race
    /// Who calls it off: the seller, or else the buyer.
    var sellerCancels: Bool
    var payStyle: ChaosBench.Operation.Style
    var key: String

    /// What the deal's requests were answered. A status of 0: no answer even after every retry.
    struct Result: Sendable {
        var offer: UUID?
        /// The step the set-up stopped at, and its answer, when it did.
        var setUpFailed: String?
        /// The pay route's answers to the deal's key (the one sent first when paid before the race).
        var pays: [Int] = []
        var cancel: Int?
        /// The seller's code (`POST …/handshake`), then the buyer's confirmation.
        var shown: Int?
        var confirmed: Int?
    }
}

extension ChaosRun {
    /// Sets a deal up and runs its race.
    func deal(_ deal: ChaosDeal) async -> ChaosDeal.Result {
        var result = ChaosDeal.Result()
        let (seller, buyer) = (users[deal.seller].token, users[deal.buyer].token)
        let listing = market.listings[deal.number]
        let offered = await call(
            "/v1/market/listings/\(listing)/offers",
            token: buyer,
            body: Self.json(PriceOfferRequest(amount: deal.amount))
        )
        guard let offered, offered.status == 201, let offer = Self.decode(PriceOffer.self, offered) else {
            result.setUpFailed = "offer: \(ChaosReply.describe(offered))"
            return result
        }
        result.offer = offer.id
        // A 409 after an unanswered try: that try did it.
        let accepted = await call("/v1/market/offers/\(offer.id)/accept", token: seller)
        guard let accepted, accepted.status == 200 || (accepted.status == 409 && accepted.retried) else {
            result.setUpFailed = "accept: \(ChaosReply.describe(accepted))"
            return result
        }
        let place = MeetupRequest(
            latitude: ChaosMarket.center.latitude + 0.0004,
            longitude: ChaosMarket.center.longitude,
            at: Date() + 300
        )
        let proposed = await call(
            "/v1/market/conversations/\(offer.conversationId)/meetups",
            token: buyer,
            body: Self.json(place)
        )
        guard let proposed, proposed.status == 201, let meetup = Self.decode(Meetup.self, proposed) else {
            result.setUpFailed = "meetup: \(ChaosReply.describe(proposed))"
            return result
        }
        let agreed = await call("/v1/market/meetups/\(meetup.id)/accept", token: seller)
        guard let agreed, agreed.status == 200 || (agreed.status == 409 && agreed.retried) else {
            result.setUpFailed = "meetup accept: \(ChaosReply.describe(agreed))"
            return result
        }
        let pay = { @Sendable in await self.pay(offer.id, token: buyer, key: deal.key) }
        if deal.race == .paidThenCancelOrHandshake { result.pays = await sent(deal.payStyle, pay) }
        // The race: every contestant at once.
        async let paid = deal.race.pays ? sent(deal.payStyle, pay) : []
        async let cancelled =
            deal.race.cancels
            ? call("/v1/market/offers/\(offer.id)/cancel", token: deal.sellerCancels ? seller : buyer) : nil
        async let shaken = deal.race.shakes ? handshake(meetup.id, seller: seller, buyer: buyer) : nil
        let (pays, cancel, handshake) = await (paid, cancelled, shaken)
        result.pays += pays
        if deal.race.cancels { result.cancel = cancel?.status ?? 0 }
        if let handshake { (result.shown, result.confirmed) = handshake }
        return result
    }

    /// The buyer pays with the deal's key: the final status (0: unanswered).
    private func pay(_ offer: UUID, token: String, key: String) async -> Int {
        await call("/v1/market/offers/\(offer)/pay", token: token, key: key)?.status ?? 0
    }

    /// The seller shows the code, the buyer types it: the two statuses (the confirmation nil when no code showed).
    private func handshake(_ meetup: UUID, seller: String, buyer: String) async -> (Int, Int?) {
        let shown = await call("/v1/market/meetups/\(meetup)/handshake", token: seller)
        guard let shown, shown.status == 201, let handshake = Self.decode(Handshake.self, shown) else {
            return (shown?.status ?? 0, nil)
        }
        let confirm = Self.json(HandshakeConfirmation(code: handshake.code))
        return (
            201, await call("/v1/market/meetups/\(meetup)/handshake/confirm", token: buyer, body: confirm)?.status ?? 0
        )
    }
}
