import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Bidding: a biddable listing takes proxy bids (each bidder names their maximum; Plaza bids for them up to it) until
/// its end, which a bid in the last two minutes moves on by two; concurrent bids take one order. When it ends, the
/// leader wins if the reserve is met: they get an accepted offer at the final price (pay, meet and hand over as
/// for any accepted offer), and both sides are told.
extension MarketService {
    func placeBid(
        _ identity: Identity,
        listing id: UUID,
        _ request: BidRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> PlacedBid {
        guard let claim else { throw PlazaError.idempotencyKeyRequired }
        _ = try await requireStudent(identity, now: now)
        let shown = try await listing(identity, id, now: now)
        guard shown.seller.username != identity.user.username else {
            throw PlazaError.validation(field: "maxAmount", phrase("This is your own listing: others bid on it."))
        }
        if let problem = WalletRules.amountError(request.maxAmount, field: "maxAmount") {
            throw PlazaError.validation([problem])
        }
        let (bids, idempotency, listings) = (bids, idempotency, listings)
        // A bid that lost the race to another reads the auction again (a handful of tries: one order, nobody lost).
        for _ in 0..<20 {
            guard let record = try await listings.listing(id, on: database.sql), let auction = record.auction else {
                throw PlazaError(
                    .conflict,
                    .stateConflict,
                    phrase("This listing is not sold by bidding."),
                    detail: phrase("Make an offer instead.")
                )
            }
            guard record.state == .active, !record.auctionClosed else { throw Self.biddingEnded(record) }
            switch BiddingRules.bid(auction, by: identity.user.id, max: request.maxAmount, now: now) {
            case .ended: throw Self.biddingEnded(record)
            case .tooLow(let minimum):
                throw PlazaError(
                    .unprocessableContent,
                    .bidTooLow,
                    say(
                        "Bid at least {amount}.",
                        ["amount": sayMoney(Money(amount: minimum, currency: record.currency ?? currency))]
                    ),
                    detail: phrase("Name the most you would pay: Plaza bids for you only as far as needed."),
                    // In minor units, as `maxAmount` is sent.
                    errors: [
                        FieldError(field: "maxAmount", message: say("At least {amount}.", ["amount": String(minimum)]))
                    ]
                )
            case .placed(let next, let steps):
                let placed = PlacedBid(
                    id: UUID(),
                    maxAmount: request.maxAmount,
                    leading: next.leader == identity.user.id,
                    currentPrice: next.currentPrice,
                    endsAt: next.endsAt
                )
                let outbid = auction.leader.flatMap { $0 != next.leader ? $0 : nil }
                let title = record.title
                let money = Money(amount: next.currentPrice, currency: record.currency ?? currency)
                let done: Bool = try await events.transaction(publishing: { db in
                    guard try await bids.advance(id, from: auction.bidCount, to: next, on: db) else {
                        return (false, [])
                    }
                    try await bids.insert(steps: steps, listing: id, after: auction.bidCount, now: now, on: db)
                    try await idempotency.record(placed, status: 201, claim: claim, on: db)
                    let link = "/market/listings/\(id.uuidString.lowercased())"
                    var messages: [FeedMessage] = [
                        .event(
                            audience: [record.sellerId, identity.user.id] + (outbid.map { [$0] } ?? []),
                            event: PlazaEvent(
                                type: MarketEventType.bid,
                                occurredAt: now,
                                data: try JSONValue(
                                    encoding: BidUpdate(
                                        listingId: id,
                                        currentPrice: next.currentPrice,
                                        bidCount: next.bidCount,
                                        endsAt: next.endsAt
                                    )
                                )
                            )
                        )
                    ]
                    if let outbid {
                        messages.append(
                            .alert(
                                user: outbid,
                                kind: .market,
                                link: link,
                                Wording(key: "alert.market.outbid", values: ["title": title], amounts: ["money": money])
                            )
                        )
                    }
                    return (true, messages)
                })
                if done { return placed }
            }
        }
        throw PlazaError(
            .conflict,
            .conflict,
            phrase("Many bids arrived at once."),
            detail: phrase("Nothing was placed; try again.")
        )
    }

    /// Every price step of a biddable listing, newest first (proxy bids too).
    func bids(_ identity: Identity, listing id: UUID, now: Date = Date()) async throws -> [BidStep] {
        _ = try await listing(identity, id, now: now)
        return try await bids.steps(id, limit: 200, on: database.sql)
    }

    /// Ends the auctions whose time has come: the leader wins when the reserve is met. Run every minute with the
    /// other maintenance (and by tests with their own clock); each auction closes once.
    @discardableResult
    package func closeAuctions(now: Date = Date()) async throws -> Int {
        var closed = 0
        for id in try await bids.due(now: now, limit: 100, on: database.sql) {
            guard let record = try await listings.listing(id, on: database.sql) else { continue }
            if try await closeAuction(record, now: now) { closed += 1 }
        }
        return closed
    }

    /// Closes the auction of listing `id` as if it were `now` (which may be past its end): false when it was closed
    /// already or a bid landed while it was read. For `plaza bench chaos`, whose bids race the close.
    package func closeAuction(listing id: UUID, now: Date) async throws -> Bool {
        guard let record = try await listings.listing(id, on: database.sql) else { return false }
        return try await closeAuction(record, now: now)
    }

    /// Closes one auction as `record` read it: false when it was closed already, or a bid landed since the read (the
    /// next sweep reads it again).
    func closeAuction(_ record: ListingStore.Record, now: Date) async throws -> Bool {
        let id = record.id
        guard let auction = record.auction else { return false }
        let winner = auction.reserveMet ? auction.leader : nil
        var opened: UUID? = nil
        if let winner {
            opened = try await chat.open(
                UUID(),
                listing: id,
                buyer: winner,
                seller: record.sellerId,
                now: now,
                on: database.sql
            ).0
        }
        let conversation = opened
        let (bids, deals, listings) = (bids, deals, listings)
        let money = Money(amount: auction.currentPrice, currency: record.currency ?? currency)
        let link = "/market/listings/\(id.uuidString.lowercased())"
        let done: Bool = try await events.transaction(publishing: { db in
            // Closed as read, or not at all: a bid that landed meanwhile is judged by the next sweep.
            guard try await bids.close(id, count: auction.bidCount, now: now, on: db) else { return (false, []) }
            // A listing removed or sold another way meanwhile goes to nobody.
            guard let winner, let conversation,
                try await listings.move(id, from: [.active], to: .reserved, now: now, on: db)
            else {
                let key = auction.leader == nil ? "alert.market.no_bids" : "alert.market.reserve_not_met"
                let wording = Wording(key: key, values: ["title": record.title])
                return (true, [.alert(user: record.sellerId, kind: .market, link: link, wording)])
            }
            let offer = DealStore.OfferRecord(
                id: UUID(),
                listingId: id,
                conversationId: conversation,
                buyerId: winner,
                sellerId: record.sellerId,
                amount: auction.currentPrice,
                currency: record.currency ?? "USD",
                state: .accepted,
                proposedBy: winner,
                createdAt: now,
                updatedAt: now
            )
            try await deals.insert(offer, on: db)
            let conversationLink = "/market/conversations/\(conversation.uuidString.lowercased())"
            return (
                true,
                [
                    .alert(
                        user: winner,
                        kind: .market,
                        link: conversationLink,
                        Wording(key: "alert.market.won", values: ["title": record.title], amounts: ["money": money])
                    ),
                    .alert(
                        user: record.sellerId,
                        kind: .market,
                        link: conversationLink,
                        Wording(key: "alert.market.sold", values: ["title": record.title], amounts: ["money": money])
                    ),
                    .event(
                        audience: [winner, record.sellerId],
                        event: PlazaEvent(
                            type: MarketEventType.bid,
                            occurredAt: now,
                            data: try JSONValue(
                                encoding: BidUpdate(
                                    listingId: id,
                                    currentPrice: auction.currentPrice,
                                    bidCount: auction.bidCount,
                                    endsAt: auction.endsAt,
                                    closed: true
                                )
                            )
                        )
                    ),
                ]
            )
        })
        return done
    }

    /// `Listing.bidding` as `viewer` sees it.
    static func bidding(_ record: ListingStore.Record, viewer: UUID?) -> Bidding? {
        guard let auction = record.auction else { return nil }
        return Bidding(
            currentPrice: auction.currentPrice,
            bidCount: auction.bidCount,
            reserveMet: auction.reserveMet,
            endsAt: auction.endsAt,
            leading: viewer != nil && auction.leader == viewer,
            closed: record.auctionClosed,
            minimumBid: BiddingRules.minimum(auction)
        )
    }

    static func biddingEnded(_ record: ListingStore.Record) -> PlazaError {
        var error = PlazaError(
            .conflict,
            .stateConflict,
            phrase("The bidding on this listing has ended."),
            detail: phrase("Look for something similar in the feed.")
        )
        error.currentState = record.auctionClosed ? "closed" : record.state.rawValue
        return error
    }
}
