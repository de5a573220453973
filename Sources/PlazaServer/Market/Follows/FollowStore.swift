import Foundation
import PlazaCore
import SQLKit

/// All SQL of follows, wish lists and saved searches, and of choosing whom a new listing, a price drop or a sale
/// notifies: only current members of the listing's campus, never across a block.
struct FollowStore: Sendable {
    /// The condition that `user` (a column) is a current member of `campus` and has no block with `seller`.
    private static func reachable(_ user: String, campus: UUID, seller: UUID, now: Date) -> SQLQueryString {
        """
        EXISTS (SELECT 1 FROM campus_members cm WHERE cm.user_id = \(unsafeRaw: user) AND cm.campus_id = \(bind: campus) \
        AND cm.verified_until > \(bind: now)) \
        AND NOT EXISTS (SELECT 1 FROM market_blocks k WHERE (k.blocker_id = \(unsafeRaw: user) AND k.blocked_id = \(bind: seller)) \
        OR (k.blocker_id = \(bind: seller) AND k.blocked_id = \(unsafeRaw: user)))
        """
    }

    // MARK: Follows

    /// Follows (again: the first date stays); answers since when.
    func follow(_ follower: UUID, seller: UUID, now: Date, on db: any SQLDatabase) async throws -> Date {
        try await db.insert(into: "market_follows").columns("follower_id", "seller_id", "created_at")
            .values(SQLBind(follower), SQLBind(seller), SQLBind(now)).ignoringConflicts(with: [
                "follower_id", "seller_id",
            ]).run()
        return try await db.select().column("created_at").from("market_follows").where("follower_id", .equal, follower)
            .where("seller_id", .equal, seller).first()?.decode(column: "created_at", as: Date.self) ?? now
    }

    func unfollow(_ follower: UUID, seller: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "market_follows").where("follower_id", .equal, follower).where(
            "seller_id",
            .equal,
            seller
        ).run()
    }

    func follows(_ follower: UUID, on db: any SQLDatabase) async throws -> [MarketFollow] {
        try await db.raw(
            """
            SELECT u.username, u.display_name, f.created_at FROM market_follows f JOIN users u ON u.id = f.seller_id
            WHERE f.follower_id = \(bind: follower) ORDER BY f.created_at DESC
            """
        ).all().map {
            MarketFollow(
                username: try $0.decode(column: "username", as: String.self),
                displayName: try $0.decode(column: "display_name", as: String.self),
                since: try $0.decode(column: "created_at", as: Date.self)
            )
        }
    }

    /// The followers a new listing of `seller` notifies now, marked notified: those not told of this seller within the
    /// last `interval` (one statement, so two listings at once tell each follower once).
    func followersToTell(
        seller: UUID,
        campus: UUID,
        interval: TimeInterval,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [UUID] {
        try await db.raw(
            """
            UPDATE market_follows SET notified_at = \(bind: now) WHERE seller_id = \(bind: seller) \
            AND (notified_at IS NULL OR notified_at <= \(bind: now.addingTimeInterval(-interval))) \
            AND \(Self.reachable("market_follows.follower_id", campus: campus, seller: seller, now: now)) RETURNING follower_id
            """
        ).all().map { try $0.decode(column: "follower_id", as: UUID.self) }
    }

    // MARK: The wish list

    func save(_ user: UUID, listing: UUID, price: Int64?, now: Date, on db: any SQLDatabase) async throws -> Date {
        try await db.insert(into: "market_wish_list").columns("user_id", "listing_id", "price", "created_at")
            .values(SQLBind(user), SQLBind(listing), SQLBind(price), SQLBind(now)).ignoringConflicts(with: [
                "user_id", "listing_id",
            ]).run()
        return try await db.select().column("created_at").from("market_wish_list").where("user_id", .equal, user)
            .where("listing_id", .equal, listing).first()?.decode(column: "created_at", as: Date.self) ?? now
    }

    func unsave(_ user: UUID, listing: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "market_wish_list").where("user_id", .equal, user).where(
            "listing_id",
            .equal,
            listing
        ).run()
    }

    /// The listings on `user`'s wish list with when they were saved, newest first.
    func wishList(_ user: UUID, on db: any SQLDatabase) async throws -> [(listing: UUID, savedAt: Date)] {
        try await db.select().columns("listing_id", "created_at").from("market_wish_list").where(
            "user_id",
            .equal,
            user
        )
        .orderBy("created_at", .descending).limit(200).all()
        .map {
            (try $0.decode(column: "listing_id", as: UUID.self), try $0.decode(column: "created_at", as: Date.self))
        }
    }

    func isSaved(_ user: UUID, listing: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("user_id").from("market_wish_list").where("user_id", .equal, user).where(
            "listing_id",
            .equal,
            listing
        )
        .first() != nil
    }

    /// Who saved the listing and may still hear of it; with `below`, only those told a higher price (each is then told
    /// this one).
    func savers(
        listing: UUID,
        campus: UUID,
        seller: UUID,
        below price: Int64? = nil,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [UUID] {
        var sql: SQLQueryString = "SELECT user_id FROM market_wish_list WHERE listing_id = \(bind: listing)"
        if let price { sql = sql + " AND price > \(bind: price)" }
        let users = try await db.raw(
            sql + " AND " + Self.reachable("market_wish_list.user_id", campus: campus, seller: seller, now: now)
        ).all()
            .map { try $0.decode(column: "user_id", as: UUID.self) }
        if let price {
            try await db.update("market_wish_list").set("price", to: price).where("listing_id", .equal, listing).where(
                "price",
                .greaterThan,
                price
            )
            .run()
        }
        return users
    }

    // MARK: Saved searches

    func insert(_ search: SavedSearch, user: UUID, on db: any SQLDatabase) async throws {
        try await db.insert(into: "market_saved_searches").columns(
            "id",
            "user_id",
            "query",
            "alert",
            "created_at",
            "checked_at"
        )
        .values(
            SQLBind(search.id),
            SQLBind(user),
            SQLBind(try PlazaJSON.text(search.request)),
            SQLBind(search.alert.rawValue),
            SQLBind(search.createdAt),
            SQLBind(search.createdAt)
        )
        .run()
    }

    func delete(search id: UUID, user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "market_saved_searches").where("id", .equal, id).where("user_id", .equal, user)
            .returning("id").first() != nil
    }

    func searches(_ user: UUID, on db: any SQLDatabase) async throws -> [SavedSearch] {
        try await db.select().columns("id", "query", "created_at").from("market_saved_searches").where(
            "user_id",
            .equal,
            user
        )
        .orderBy("created_at", .descending).all().map(Self.search)
    }

    /// The instant searches of current members of `campus` who may see `seller`'s listings: each with its owner.
    func instantSearches(
        campus: UUID,
        seller: UUID,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [(user: UUID, search: SavedSearch)] {
        try await db.raw(
            """
            SELECT id, user_id, query, created_at FROM market_saved_searches WHERE alert = \(bind: SavedSearchAlert.instant.rawValue) \
            AND user_id <> \(bind: seller)
            """ + " AND " + Self.reachable("market_saved_searches.user_id", campus: campus, seller: seller, now: now)
        ).all().map { (try $0.decode(column: "user_id", as: UUID.self), try Self.search($0)) }
    }

    /// Daily searches whose last digest is a day old: each with its owner and since when it looks.
    func dueDigests(
        now: Date,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [(user: UUID, search: SavedSearch, since: Date)] {
        try await db.select().columns("id", "user_id", "query", "created_at", "checked_at").from(
            "market_saved_searches"
        )
        .where("alert", .equal, SavedSearchAlert.daily.rawValue).where(
            "checked_at",
            .lessThanOrEqual,
            now.addingTimeInterval(-FollowRules.digestInterval)
        )
        .limit(limit).all()
        .map {
            (
                try $0.decode(column: "user_id", as: UUID.self), try Self.search($0),
                try $0.decode(column: "checked_at", as: Date.self)
            )
        }
    }

    /// Moves a due digest's mark to `now`, once (false: another process sent it meanwhile).
    func markChecked(_ id: UUID, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("market_saved_searches").set("checked_at", to: now).where("id", .equal, id)
            .where("checked_at", .lessThanOrEqual, now.addingTimeInterval(-FollowRules.digestInterval)).returning("id")
            .first() != nil
    }

    static func search(_ row: any SQLRow) throws -> SavedSearch {
        let request = try PlazaJSON.value(
            SavedSearchRequest.self,
            from: try row.decode(column: "query", as: String.self)
        )
        return SavedSearch(
            id: try row.decode(column: "id", as: UUID.self),
            request,
            createdAt: try row.decode(column: "created_at", as: Date.self)
        )
    }
}
