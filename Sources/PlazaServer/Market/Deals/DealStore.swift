import Foundation
import PlazaCore
import SQLKit

/// All SQL of deals between students: price offers (and the state of their held payment), meetups and handshakes.
/// Every change of state is conditional on the state it leaves, so two requests racing change it once.
struct DealStore: Sendable {
    struct OfferRecord: Sendable {
        var id: UUID
        var listingId: UUID
        var conversationId: UUID
        var buyerId: UUID
        var sellerId: UUID
        var amount: Int64
        var currency: String
        var state: PriceOfferState
        var proposedBy: UUID
        var paymentState: DealPaymentState?
        var paymentAmount: Int64?
        var paidAt: Date?
        var settledAt: Date?
        var createdAt: Date
        var updatedAt: Date
        var buyerUsername = ""
        var buyerName = ""
        var proposerUsername = ""

        var payment: DealPayment? {
            guard let paymentState, let paymentAmount, let paidAt else { return nil }
            return DealPayment(
                state: paymentState,
                amount: paymentAmount,
                currency: currency,
                heldAt: paidAt,
                settledAt: settledAt
            )
        }

        var dto: PriceOffer {
            PriceOffer(
                id: id,
                listingId: listingId,
                conversationId: conversationId,
                buyer: ListingSeller(username: buyerUsername, displayName: buyerName),
                amount: amount,
                currency: currency,
                state: state,
                proposedBy: proposerUsername,
                payment: payment,
                createdAt: createdAt,
                updatedAt: updatedAt
            )
        }
    }

    struct MeetupRecord: Sendable {
        var id: UUID
        var conversationId: UUID
        var listingId: UUID
        var proposedBy: UUID
        var place: MeetupPlace
        var at: Date
        var windowEnd: Date
        var state: MeetupState
        var codeHash: String?
        var tokenHash: String?
        var handshakeExpiresAt: Date?
        var handshakeAttempts: Int
        var createdAt: Date
        var decidedAt: Date?
        var proposerUsername = ""
        var buyerShares = false
        var sellerShares = false

        var windowStart: Date { DealRules.window(at: at).start }

        var dto: Meetup {
            Meetup(
                id: id,
                conversationId: conversationId,
                listingId: listingId,
                proposedBy: proposerUsername,
                place: place,
                at: at,
                windowStart: windowStart,
                windowEnd: windowEnd,
                state: state,
                createdAt: createdAt
            )
        }
    }

    // MARK: Offers

    func insert(_ offer: OfferRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "market_offers")
            .columns(
                "id",
                "listing_id",
                "conversation_id",
                "buyer_id",
                "seller_id",
                "amount",
                "currency",
                "state",
                "proposed_by",
                "created_at",
                "updated_at"
            )
            .values(
                SQLBind(offer.id),
                SQLBind(offer.listingId),
                SQLBind(offer.conversationId),
                SQLBind(offer.buyerId),
                SQLBind(offer.sellerId),
                SQLBind(offer.amount),
                SQLBind(offer.currency),
                SQLBind(offer.state.rawValue),
                SQLBind(offer.proposedBy),
                SQLBind(offer.createdAt),
                SQLBind(offer.updatedAt)
            )
            .run()
    }

    private static let offerSelect: SQLQueryString = """
        SELECT o.id, o.listing_id, o.conversation_id, o.buyer_id, o.seller_id, o.amount, o.currency, o.state, o.proposed_by, o.payment_state,
        o.payment_amount, o.paid_at, o.settled_at, o.created_at, o.updated_at, b.username AS buyer_username, b.display_name AS buyer_name,
        p.username AS proposer_username
        FROM market_offers o JOIN users b ON b.id = o.buyer_id JOIN users p ON p.id = o.proposed_by
        """

    func offer(_ id: UUID, on db: any SQLDatabase) async throws -> OfferRecord? {
        try await db.raw(Self.offerSelect + " WHERE o.id = \(bind: id)").first().map(Self.offer)
    }

    /// A listing's offers, newest first: all of them (its seller), or one buyer's.
    func offers(listing: UUID, buyer: UUID? = nil, on db: any SQLDatabase) async throws -> [OfferRecord] {
        var sql = Self.offerSelect + " WHERE o.listing_id = \(bind: listing)"
        if let buyer { sql = sql + " AND o.buyer_id = \(bind: buyer)" }
        return try await db.raw(sql + " ORDER BY o.created_at DESC, o.id DESC").all().map(Self.offer)
    }

    func offers(conversation: UUID, on db: any SQLDatabase) async throws -> [OfferRecord] {
        try await db.raw(
            Self.offerSelect + " WHERE o.conversation_id = \(bind: conversation) ORDER BY o.created_at DESC, o.id DESC"
        ).all()
            .map(Self.offer)
    }

    /// Changes an offer that is still in `from`: its state, and the price and proposer of a counter. Nil when it left
    /// `from` meanwhile.
    func move(
        _ id: UUID,
        from: [PriceOfferState],
        to state: PriceOfferState,
        amount: Int64? = nil,
        proposedBy: UUID? = nil,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        var update = db.update("market_offers").set("state", to: state.rawValue).set("updated_at", to: now)
        if let amount { update = update.set("amount", to: amount) }
        if let proposedBy { update = update.set("proposed_by", to: proposedBy) }
        return try await update.where("id", .equal, id).where("state", .in, from.map(\.rawValue)).returning("id")
            .first() != nil
    }

    /// Completes the conversation's accepted offer (at most one: accepting reserves the listing), once: its id, or nil
    /// when none is accepted now, whatever was read before.
    func completeAccepted(conversation: UUID, now: Date, on db: any SQLDatabase) async throws -> UUID? {
        try await db.update("market_offers").set("state", to: PriceOfferState.completed.rawValue).set(
            "updated_at",
            to: now
        )
        .where("conversation_id", .equal, conversation).where("state", .equal, PriceOfferState.accepted.rawValue)
        .returning("id").first()?.decode(column: "id", as: UUID.self)
    }

    /// Records the buyer's money as held, once: false when the offer is no longer accepted or was paid already.
    func hold(_ id: UUID, amount: Int64, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("market_offers").set("payment_state", to: DealPaymentState.held.rawValue).set(
            "payment_amount",
            to: amount
        )
        .set("paid_at", to: now).set("updated_at", to: now)
        .where("id", .equal, id).where("state", .equal, PriceOfferState.accepted.rawValue).where(
            "payment_state",
            .is,
            SQLLiteral.null
        )
        .returning("id").first() != nil
    }

    /// Ends a held payment (`released` or `refunded`), once: the amount it held, from the row it changed (never from a
    /// copy read before: a payment made meanwhile is settled too); nil when nothing was held.
    func settle(_ id: UUID, to state: DealPaymentState, now: Date, on db: any SQLDatabase) async throws -> Int64? {
        let update = db.update("market_offers").set("payment_state", to: state.rawValue).set("settled_at", to: now).set(
            "updated_at",
            to: now
        )
        .where("id", .equal, id).where("payment_state", .equal, DealPaymentState.held.rawValue)
        return try await update.returning("payment_amount").first()?.decode(column: "payment_amount", as: Int64.self)
    }

    /// The open offers of a listing (to cancel when it is sold or removed another way).
    func openOffers(listing: UUID, on db: any SQLDatabase) async throws -> [OfferRecord] {
        let open = PriceOfferState.allCases.filter(\.isOpen).map(\.rawValue)
        return try await db.raw(
            Self.offerSelect + " WHERE o.listing_id = \(bind: listing) AND o.state IN (\(binds: open))"
        ).all().map(Self.offer)
    }

    /// Locks a listing's open offers in id order, for a transaction that ends the listing and then its offers: it takes
    /// them first, as every deal transaction does (offer, then meetups, then listing), so that on PostgreSQL a buyer's
    /// cancel and the seller's removal never wait for each other in a circle. SQLite's one writer needs nothing.
    func lockOpenOffers(listing: UUID, on db: any SQLDatabase) async throws {
        guard db.prepared != nil else { return }
        let open = PriceOfferState.allCases.filter(\.isOpen).map(\.rawValue)
        try await db.raw(
            "SELECT id FROM market_offers WHERE listing_id = \(bind: listing) AND state IN (\(binds: open)) ORDER BY id FOR UPDATE"
        )
        .run()
    }

    /// The sum of every held payment in `currency`: what Plaza's escrow account must hold.
    func heldTotal(currency: String, on db: any SQLDatabase) async throws -> Int64 {
        try await db.select().column(SQLRaw("CAST(COALESCE(SUM(payment_amount), 0) AS BIGINT)"), as: "total").from(
            "market_offers"
        )
        .where("payment_state", .equal, DealPaymentState.held.rawValue).where("currency", .equal, currency)
        .first()?.decode(column: "total", as: Int64.self) ?? 0
    }

    /// Whether `user` has money held, or held for them, in an unfinished deal.
    func holdsMoney(_ user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("market_offers").where(
            "payment_state",
            .equal,
            DealPaymentState.held.rawValue
        )
        .where { $0.where("buyer_id", .equal, user).orWhere("seller_id", .equal, user) }.limit(1).first() != nil
    }

    static func offer(_ row: any SQLRow) throws -> OfferRecord {
        OfferRecord(
            id: try row.decode(column: "id", as: UUID.self),
            listingId: try row.decode(column: "listing_id", as: UUID.self),
            conversationId: try row.decode(column: "conversation_id", as: UUID.self),
            buyerId: try row.decode(column: "buyer_id", as: UUID.self),
            sellerId: try row.decode(column: "seller_id", as: UUID.self),
            amount: try row.decode(column: "amount", as: Int64.self),
            currency: try row.decode(column: "currency", as: String.self),
            state: PriceOfferState(rawValue: try row.decode(column: "state", as: String.self)) ?? .cancelled,
            proposedBy: try row.decode(column: "proposed_by", as: UUID.self),
            paymentState: try row.decode(column: "payment_state", as: String?.self).flatMap(
                DealPaymentState.init(rawValue:)
            ),
            paymentAmount: try row.decode(column: "payment_amount", as: Int64?.self),
            paidAt: try row.decode(column: "paid_at", as: Date?.self),
            settledAt: try row.decode(column: "settled_at", as: Date?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self),
            buyerUsername: try row.decode(column: "buyer_username", as: String.self),
            buyerName: try row.decode(column: "buyer_name", as: String.self),
            proposerUsername: try row.decode(column: "proposer_username", as: String.self)
        )
    }
}
