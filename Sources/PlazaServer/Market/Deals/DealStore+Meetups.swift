import Foundation
import PlazaCore
import SQLKit

/// The SQL of meetups and their handshakes: proposals and answers, the handshake's hashes, sharing, the sweep.
extension DealStore {
    func insert(_ meetup: MeetupRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "market_meetups")
            .columns(
                "id",
                "conversation_id",
                "listing_id",
                "proposed_by",
                "spot_id",
                "spot_name",
                "latitude",
                "longitude",
                "at",
                "window_end",
                "state",
                "created_at"
            )
            .values(
                SQLBind(meetup.id),
                SQLBind(meetup.conversationId),
                SQLBind(meetup.listingId),
                SQLBind(meetup.proposedBy),
                SQLBind(meetup.place.spotId),
                SQLBind(meetup.place.name),
                SQLBind(meetup.place.latitude),
                SQLBind(meetup.place.longitude),
                SQLBind(meetup.at),
                SQLBind(meetup.windowEnd),
                SQLBind(meetup.state.rawValue),
                SQLBind(meetup.createdAt)
            )
            .run()
    }

    private static let meetupSelect: SQLQueryString = """
        SELECT m.id, m.conversation_id, m.listing_id, m.proposed_by, m.spot_id, m.spot_name, m.latitude, m.longitude, m.at, m.window_end,
        m.state, m.code_hash, m.token_hash, m.handshake_expires_at, m.handshake_attempts, m.created_at, m.decided_at,
        p.username AS proposer_username, m.buyer_shares, m.seller_shares
        FROM market_meetups m JOIN users p ON p.id = m.proposed_by
        """

    func meetup(_ id: UUID, on db: any SQLDatabase) async throws -> MeetupRecord? {
        try await db.raw(Self.meetupSelect + " WHERE m.id = \(bind: id)").first().map(Self.meetup)
    }

    /// A conversation's meetups, newest first.
    func meetups(conversation: UUID, on db: any SQLDatabase) async throws -> [MeetupRecord] {
        try await db.raw(
            Self.meetupSelect + " WHERE m.conversation_id = \(bind: conversation) ORDER BY m.created_at DESC, m.id DESC"
        ).all()
            .map(Self.meetup)
    }

    /// Moves a meetup still in `from` to `state`; false when it left `from` meanwhile.
    func move(
        meetup id: UUID,
        from: [MeetupState],
        to state: MeetupState,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.update("market_meetups").set("state", to: state.rawValue).set("decided_at", to: now)
            .where("id", .equal, id).where("state", .in, from.map(\.rawValue)).returning("id").first() != nil
    }

    /// Moves every other meetup of the conversation still in `from` to `state` (a new proposal supersedes the open
    /// ones; an acceptance, every other).
    func supersede(
        conversation: UUID,
        except id: UUID,
        from: [MeetupState],
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        try await db.update("market_meetups").set("state", to: MeetupState.superseded.rawValue).set(
            "decided_at",
            to: now
        )
        .where("conversation_id", .equal, conversation).where("id", .notEqual, id).where(
            "state",
            .in,
            from.map(\.rawValue)
        ).run()
    }

    /// Calls off the conversation's open meetups (its deal was called off: there is nothing left to hand over).
    func cancelMeetups(conversation: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.update("market_meetups").set("state", to: MeetupState.cancelled.rawValue).set(
            "decided_at",
            to: now
        )
        .where("conversation_id", .equal, conversation)
        .where("state", .in, [MeetupState.proposed.rawValue, MeetupState.accepted.rawValue]).run()
    }

    /// Turns one side's location share for a meetup on or off.
    func setSharing(_ id: UUID, buyer: Bool, on: Bool, db: any SQLDatabase) async throws {
        try await db.update("market_meetups").set(buyer ? "buyer_shares" : "seller_shares", to: on).where(
            "id",
            .equal,
            id
        ).run()
    }

    /// Stores a new handshake's hashes on an accepted meetup (replacing an earlier one); false when it is not accepted.
    func issueHandshake(
        _ id: UUID,
        codeHash: String,
        tokenHash: String,
        expiresAt: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.update("market_meetups").set("code_hash", to: codeHash).set("token_hash", to: tokenHash)
            .set("handshake_expires_at", to: expiresAt).set("handshake_attempts", to: 0)
            .where("id", .equal, id).where("state", .equal, MeetupState.accepted.rawValue).returning("id").first()
            != nil
    }

    /// Uses the handshake up and completes the meetup, once: false when it was used, replaced or the meetup moved on.
    /// `column` is `code_hash` (a typed code) or `token_hash` (a scanned QR).
    func useHandshake(_ id: UUID, column: String, hash: String, now: Date, on db: any SQLDatabase) async throws -> Bool
    {
        try await db.update("market_meetups").set("state", to: MeetupState.completed.rawValue).set(
            "decided_at",
            to: now
        )
        .set("code_hash", to: SQLLiteral.null).set("token_hash", to: SQLLiteral.null)
        .where("id", .equal, id).where("state", .equal, MeetupState.accepted.rawValue).where(
            SQLIdentifier(column),
            .equal,
            SQLBind(hash)
        )
        .where("handshake_expires_at", .greaterThan, now).returning("id").first() != nil
    }

    /// Counts a wrong code; at `limit` the handshake is void. Answers the attempts counted so far.
    func wrongCode(_ id: UUID, limit: Int, on db: any SQLDatabase) async throws -> Int {
        let attempts = SQLBinaryExpression(SQLIdentifier("handshake_attempts"), .add, SQLLiteral.numeric("1"))
        let count =
            try await db.update("market_meetups").set("handshake_attempts", to: attempts).where("id", .equal, id)
            .where("code_hash", .isNot, SQLLiteral.null).returning("handshake_attempts").first()?.decode(
                column: "handshake_attempts",
                as: Int.self
            )
            ?? limit
        if count >= limit {
            try await db.update("market_meetups").set("code_hash", to: SQLLiteral.null).set(
                "token_hash",
                to: SQLLiteral.null
            )
            .where("id", .equal, id).run()
        }
        return count
    }

    /// Proposed or accepted meetups whose window has ended (at most `limit`), for the sweep to expire.
    func dueMeetups(now: Date, limit: Int, on db: any SQLDatabase) async throws -> [MeetupRecord] {
        let open = [MeetupState.accepted.rawValue, MeetupState.proposed.rawValue]
        return try await db.raw(
            Self.meetupSelect
                + " WHERE m.state IN (\(binds: open)) AND m.window_end <= \(bind: now) LIMIT \(bind: limit)"
        )
        .all().map(Self.meetup)
    }

    static func meetup(_ row: any SQLRow) throws -> MeetupRecord {
        MeetupRecord(
            id: try row.decode(column: "id", as: UUID.self),
            conversationId: try row.decode(column: "conversation_id", as: UUID.self),
            listingId: try row.decode(column: "listing_id", as: UUID.self),
            proposedBy: try row.decode(column: "proposed_by", as: UUID.self),
            place: MeetupPlace(
                spotId: try row.decode(column: "spot_id", as: UUID?.self),
                name: try row.decode(column: "spot_name", as: String?.self),
                latitude: try row.decode(column: "latitude", as: Double.self),
                longitude: try row.decode(column: "longitude", as: Double.self)
            ),
            at: try row.decode(column: "at", as: Date.self),
            windowEnd: try row.decode(column: "window_end", as: Date.self),
            state: MeetupState(rawValue: try row.decode(column: "state", as: String.self)) ?? .cancelled,
            codeHash: try row.decode(column: "code_hash", as: String?.self),
            tokenHash: try row.decode(column: "token_hash", as: String?.self),
            handshakeExpiresAt: try row.decode(column: "handshake_expires_at", as: Date?.self),
            handshakeAttempts: try row.decode(column: "handshake_attempts", as: Int.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            decidedAt: try row.decode(column: "decided_at", as: Date?.self),
            proposerUsername: try row.decode(column: "proposer_username", as: String.self),
            buyerShares: try row.decode(column: "buyer_shares", as: Bool.self),
            sellerShares: try row.decode(column: "seller_shares", as: Bool.self)
        )
    }

    /// Whether the listing was sold to `buyer` by a confirmed handshake (ratings follow only those).
    func handshakeDone(listing: UUID, buyer: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            """
            SELECT m.id FROM market_meetups m JOIN market_conversations c ON c.id = m.conversation_id
            WHERE m.listing_id = \(bind: listing) AND c.buyer_id = \(bind: buyer) AND m.state = \(bind: MeetupState.completed.rawValue) LIMIT 1
            """
        ).first() != nil
    }
}
