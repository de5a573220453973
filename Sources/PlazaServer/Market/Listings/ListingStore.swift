import Foundation
import PlazaCore
import SQLKit

/// All SQL about listings, their full-text index (FTS5 on SQLite, `tsvector` on PostgreSQL) and the feed.
struct ListingStore: Sendable {
    struct Record: Sendable {
        var id: UUID
        var campusId: UUID
        var sellerId: UUID
        var state: ListingState
        var title: String
        var description: String
        var price: Int64?
        var currency: String?
        var category: String
        var condition: ListingCondition
        var photoIds: [UUID]
        var soldTo: UUID?
        var createdAt: Date
        var updatedAt: Date
        /// From the accounts' table, as every domain reads a user's name.
        var sellerUsername = ""
        var sellerName = ""
        var buyerUsername: String?
        /// A listing sold by bidding: its auction (nil otherwise), and whether it has ended.
        var auction: AuctionState? = nil
        var auctionClosed = false
        /// What the page shows of the seller, when the statement that read the listing read it too.
        var sellerFacts: SellerFacts? = nil
    }

    func insert(_ record: Record, searchBody: String, on db: any SQLDatabase) async throws {
        try await db.insert(into: "listings")
            .columns(
                "id",
                "campus_id",
                "seller_id",
                "state",
                "title",
                "description",
                "price",
                "currency",
                "category",
                "condition",
                "photo_ids",
                "sold_to",
                "created_at",
                "updated_at",
                "bidding_ends_at",
                "bidding_reserve",
                "bidding_current"
            )
            .values(
                SQLBind(record.id),
                SQLBind(record.campusId),
                SQLBind(record.sellerId),
                SQLBind(record.state.rawValue),
                SQLBind(record.title),
                SQLBind(record.description),
                SQLBind(record.price),
                SQLBind(record.currency),
                SQLBind(record.category),
                SQLBind(record.condition.rawValue),
                SQLBind(try PlazaJSON.text(record.photoIds)),
                SQLBind(record.soldTo),
                SQLBind(record.createdAt),
                SQLBind(record.updatedAt),
                SQLBind(record.auction?.endsAt),
                SQLBind(record.auction?.reserve),
                SQLBind(record.auction?.currentPrice)
            )
            .run()
        try await index(record.id, body: searchBody, on: db)
    }

    /// Changes what a listing says, never its state (an offer accepted or a sale meanwhile stands): false when it is no
    /// longer active or reserved.
    func update(_ record: Record, searchBody: String, on db: any SQLDatabase) async throws -> Bool {
        let changed =
            try await db.update("listings").set("title", to: record.title)
            .set("description", to: record.description).set("price", to: SQLBind(record.price)).set(
                "currency",
                to: SQLBind(record.currency)
            )
            .set("category", to: record.category).set("condition", to: record.condition.rawValue)
            .set("photo_ids", to: try PlazaJSON.text(record.photoIds)).set("updated_at", to: record.updatedAt).where(
                "id",
                .equal,
                record.id
            )
            .where("state", .in, [ListingState.active.rawValue, ListingState.reserved.rawValue]).returning("id").first()
            != nil
        if changed { try await index(record.id, body: searchBody, on: db) }
        return changed
    }

    /// Moves a listing from one of `states` to `state` (the buyer recorded for a sale); false when another request
    /// moved it first (two accepted offers at once reserve it once).
    func move(
        _ id: UUID,
        from states: [ListingState],
        to state: ListingState,
        soldTo: UUID? = nil,
        now: Date,
        on db: any SQLDatabase
    ) async throws
        -> Bool
    {
        var update = db.update("listings").set("state", to: state.rawValue).set("updated_at", to: now)
        if let soldTo { update = update.set("sold_to", to: soldTo) }
        return try await update.where("id", .equal, id).where("state", .in, states.map(\.rawValue)).returning("id")
            .first() != nil
    }

    /// Inserts many listings at once, with their search index (a benchmark's or an import's load): a few statements per
    /// thousand rows.
    func insertMany(_ records: [Record], bodies: [String], on db: any SQLDatabase) async throws {
        let sqlite = db.prepared == nil
        for start in stride(from: 0, to: records.count, by: 500) {
            let chunk = start..<min(start + 500, records.count)
            // SQLite: the chunk's search keys follow the highest so far (the caller's transaction holds the writer).
            let first = sqlite ? try await topSearchKey(on: db) + 1 : 0
            var columns = [
                "id", "campus_id", "seller_id", "state", "title", "description", "price", "currency", "category",
                "condition", "photo_ids", "created_at", "updated_at",
            ]
            if sqlite { columns.append("search_key") }
            var insert = db.insert(into: "listings").columns(columns)
            for (offset, record) in records[chunk].enumerated() {
                var values: [any SQLExpression] = [
                    SQLBind(record.id),
                    SQLBind(record.campusId),
                    SQLBind(record.sellerId),
                    SQLBind(record.state.rawValue),
                    SQLBind(record.title),
                    SQLBind(record.description),
                    SQLBind(record.price),
                    SQLBind(record.currency),
                    SQLBind(record.category),
                    SQLBind(record.condition.rawValue),
                    SQLBind(try PlazaJSON.text(record.photoIds)),
                    SQLBind(record.createdAt),
                    SQLBind(record.updatedAt),
                ]
                if sqlite { values.append(SQLBind(first + Int64(offset))) }
                insert = insert.values(values)
            }
            try await insert.run()
            if sqlite {
                let rows = chunk.map { index -> SQLQueryString in
                    "(\(bind: first + Int64(index - start)), \(bind: bodies[index]))"
                }
                try await db.raw("INSERT INTO listings_words (rowid, body) VALUES \(rows.joined(separator: ", "))")
                    .run()
            } else {
                let rows = chunk.map { index -> SQLQueryString in "(\(bind: records[index].id), \(bind: bodies[index]))"
                }
                try await db.raw(
                    """
                    UPDATE listings SET search = to_tsvector('simple', v.body) FROM (VALUES \(rows.joined(separator: ", "))) AS v(id, body) \
                    WHERE listings.id = v.id::uuid
                    """
                ).run()
            }
        }
    }

    /// SQLite: the highest search key given so far (0 before the first listing).
    private func topSearchKey(on db: any SQLDatabase) async throws -> Int64 {
        try await db.raw("SELECT COALESCE(MAX(search_key), 0) AS top FROM listings").first()?.decode(
            column: "top",
            as: Int64.self
        ) ?? 0
    }

    /// The one place the engines' full-text indexes differ: SQLite's FTS5 table, PostgreSQL's `tsvector` column.
    func index(_ id: UUID, body: String, on db: any SQLDatabase) async throws {
        if db.prepared != nil {
            try await db.raw("UPDATE listings SET search = to_tsvector('simple', \(bind: body)) WHERE id = \(bind: id)")
                .run()
        } else {
            // The listing's search key: its own, or the next one for a new listing (the transaction holds the writer).
            let key = try await db.raw(
                """
                UPDATE listings SET search_key = COALESCE(search_key, (SELECT COALESCE(MAX(search_key), 0) + 1 \
                FROM listings)) WHERE id = \(bind: id) RETURNING search_key
                """
            ).first()?.decode(column: "search_key", as: Int64.self)
            guard let key else { return }
            try await db.raw("DELETE FROM listings_words WHERE rowid = \(bind: key)").run()
            try await db.raw("INSERT INTO listings_words (rowid, body) VALUES (\(bind: key), \(bind: body))").run()
        }
    }

    /// Searches that matched more than `drivenLimit` listings lately. Walking the feed is right for any search
    /// (only slower for a rare one), so a search remembered here may skip the probe; one that matched few is never
    /// remembered (its matches could grow past what reading by key finds).
    let commonSearches = CommonSearches()

    private static let columnList: SQLQueryString = """
        SELECT l.id, l.campus_id, l.seller_id, l.state, l.title, l.description, l.price, l.currency, l.category, l.condition, l.photo_ids,
        l.sold_to, l.created_at, l.updated_at, s.username AS seller_username, s.display_name AS seller_name, b.username AS buyer_username,
        l.bidding_ends_at, l.bidding_reserve, l.bidding_current, l.bidding_leader, l.bidding_leader_max, l.bidding_count, l.bidding_closed
        """
    private static let fromClause: SQLQueryString = from()
    static var selectColumns: SQLQueryString { columnList + fromClause }

    /// The listings with their seller and buyer; `hint` (SQLite's `INDEXED BY`) says which index reads the listings.
    private static func from(hint: SQLQueryString = "") -> SQLQueryString {
        " FROM listings l" + hint + " JOIN users s ON s.id = l.seller_id LEFT JOIN users b ON b.id = l.sold_to"
    }

    func listing(_ id: UUID, on db: any SQLDatabase) async throws -> Record? {
        try await db.raw(Self.selectColumns + " WHERE l.id = \(bind: id)").first().map(Self.record)
    }

    /// These listings (any that exist), by id, in one statement.
    func listings(ids: [UUID], on db: any SQLDatabase) async throws -> [UUID: Record] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await db.raw(Self.selectColumns + " WHERE l.id IN \(SQLBind.group(Array(Set(ids))))").all().map(
            Self.record
        )
        return Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The numbers of rows a feed statement reads (a page and one more): a page size rounds up to one of them.
    static let fetchSizes = [21, 51, 101]

    /// The campus's active listings matching `query`, whose sellers signed the agreement in force and are not suspended; a
    /// page from `offset`.
    /// Nothing of a seller `viewer` blocked, or who blocked `viewer`, shows.
    func feed(
        campus: UUID,
        viewer: UUID,
        _ query: ListingQuery,
        agreement: Int,
        limit: Int,
        offset: Int,
        createdAfter: Date? = nil,
        sellersAt: Date? = nil,
        on db: any SQLDatabase
    ) async throws -> [Record] {
        let clauses = ListingSearch.clauses(query.text ?? "")
        let search = clauses.isEmpty ? nil : try await matching(clauses, on: db)
        if !clauses.isEmpty, search == nil { return [] }
        var sql = Self.columnList
        // The sellers' facts as of `sellersAt`, in the same statement (only the page's rows compute them).
        if let sellersAt {
            sql += ", s.created_at AS seller_since, " + Self.sellerFactsColumns(of: "l.seller_id", now: sellersAt)
        }
        sql +=
            Self.from(hint: search?.hint ?? "") + """
                 WHERE l.campus_id = \(bind: campus) AND l.state = 'active'
                 AND EXISTS (SELECT 1 FROM market_agreements a WHERE a.user_id = l.seller_id AND a.signed_version = \(bind: agreement)
                 AND a.suspended_at IS NULL)
                 AND NOT EXISTS (SELECT 1 FROM market_blocks k WHERE (k.blocker_id = \(bind: viewer) AND k.blocked_id = l.seller_id)
                 OR (k.blocker_id = l.seller_id AND k.blocked_id = \(bind: viewer)))
                """
        if let search { sql += " AND " + search.condition }
        if let category = query.category { sql += " AND l.category = \(bind: category)" }
        if let condition = query.condition { sql += " AND l.condition = \(bind: condition.rawValue)" }
        if let low = query.minPrice { sql += " AND COALESCE(l.price, 0) >= \(bind: low)" }
        if let high = query.maxPrice { sql += " AND COALESCE(l.price, 0) <= \(bind: high)" }
        if let seller = query.seller { sql += " AND s.username = \(bind: seller.lowercased())" }
        if let createdAfter { sql += " AND l.created_at > \(bind: createdAfter)" }
        let order: SQLQueryString =
            switch query.sort {
            case .newest: " ORDER BY l.created_at DESC, l.id DESC"
            case .priceAscending: " ORDER BY COALESCE(l.price, 0) ASC, l.created_at DESC, l.id DESC"
            case .priceDescending: " ORDER BY COALESCE(l.price, 0) DESC, l.created_at DESC, l.id DESC"
            }
        // The page's size, and the first page's offset, are literals: PostgreSQL plans a kept statement without its
        // values, and not knowing them it chose a plan 100 times slower. A few sizes only, so that clients' page sizes
        // make a few statements, not a hundred.
        let fetch = Self.fetchSizes.first { $0 >= limit } ?? limit
        sql += order + " LIMIT \(literal: fetch)"
        if offset == 0 { sql += " OFFSET 0" } else { sql += " OFFSET \(bind: offset)" }
        return try await db.kept.raw(sql).all().prefix(limit).map(Self.record)
    }

    /// A seller's listings, newest first, in `states`.
    func listings(
        seller: UUID,
        states: [ListingState],
        limit: Int,
        offset: Int,
        on db: any SQLDatabase
    ) async throws -> [Record] {
        let sql =
            Self.selectColumns
            + " WHERE l.seller_id = \(bind: seller) AND l.state IN (\(binds: states.map(\.rawValue)))"
            + " ORDER BY l.created_at DESC, l.id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)"
        return try await db.raw(sql).all().map(Self.record)
    }

    /// Sold listings, newest first: `seller`'s (my sales) or bought by `buyer` (my purchases), with the completed
    /// offer's amount and whether it was paid through Plaza.
    func sold(
        seller: UUID? = nil,
        buyer: UUID? = nil,
        limit: Int,
        offset: Int,
        on db: any SQLDatabase
    ) async throws
        -> [(record: Record, buyerName: String?, amount: Int64?, paid: Bool)]
    {
        var sql =
            Self.columnList
                + """
                , b.display_name AS buyer_name,
                (SELECT o.amount FROM market_offers o WHERE o.listing_id = l.id AND o.state = 'completed' LIMIT 1) AS agreed,
                (SELECT o.payment_state FROM market_offers o WHERE o.listing_id = l.id AND o.state = 'completed' LIMIT 1) AS paid
                """ + Self.fromClause + " WHERE l.state = 'sold'"
        if let seller { sql += " AND l.seller_id = \(bind: seller)" }
        if let buyer { sql += " AND l.sold_to = \(bind: buyer)" }
        sql += " ORDER BY l.updated_at DESC, l.id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)"
        return try await db.raw(sql).all().map {
            (
                try Self.record($0), try $0.decode(column: "buyer_name", as: String?.self),
                try $0.decode(column: "agreed", as: Int64?.self),
                try $0.decode(column: "paid", as: String?.self) != nil
            )
        }
    }

    /// How many of the seller's listings are sold, and how many active.
    func counts(seller: UUID, on db: any SQLDatabase) async throws -> (sold: Int, active: Int) {
        let rows = try await db.select().column("state").column(SQLFunction("count", args: SQLLiteral.all), as: "n")
            .from("listings")
            .where("seller_id", .equal, seller).where(
                "state",
                .in,
                [ListingState.sold.rawValue, ListingState.active.rawValue]
            )
            .groupBy("state").all()
        var counts: [String: Int] = [:]
        for row in rows {
            counts[try row.decode(column: "state", as: String.self)] = try row.decode(column: "n", as: Int.self)
        }
        return (counts[ListingState.sold.rawValue] ?? 0, counts[ListingState.active.rawValue] ?? 0)
    }

    /// The `photo_ids` column, a JSON array of ids as `PlazaJSON` writes it (`["…","…"]`), read without a JSON
    /// decoder per listing of a page; anything else is read by the decoder.
    static func photoIds(_ text: String) throws -> [UUID] {
        if text == "[]" { return [] }
        if text.hasPrefix("[\""), text.hasSuffix("\"]") {
            let ids = text.dropFirst(2).dropLast(2).split(separator: "\",\"", omittingEmptySubsequences: false)
                .compactMap { UUID(text: $0) }
            if text.utf8.count == ids.count * 39 + 1 { return ids }  // each piece an id: `[` + 39 per id
        }
        return try PlazaJSON.value([UUID].self, from: text)
    }

    static func record(_ row: any SQLRow) throws -> Record {
        Record(
            id: try row.decode(column: "id", as: UUID.self),
            campusId: try row.decode(column: "campus_id", as: UUID.self),
            sellerId: try row.decode(column: "seller_id", as: UUID.self),
            state: ListingState(rawValue: try row.decode(column: "state", as: String.self)) ?? .removed,
            title: try row.decode(column: "title", as: String.self),
            description: try row.decode(column: "description", as: String.self),
            price: try row.decode(column: "price", as: Int64?.self),
            currency: try row.decode(column: "currency", as: String?.self),
            category: try row.decode(column: "category", as: String.self),
            condition: ListingCondition(rawValue: try row.decode(column: "condition", as: String.self)) ?? .good,
            photoIds: try photoIds(try row.decode(column: "photo_ids", as: String.self)),
            soldTo: try row.decode(column: "sold_to", as: UUID?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self),
            sellerUsername: try row.decode(column: "seller_username", as: String.self),
            sellerName: try row.decode(column: "seller_name", as: String.self),
            buyerUsername: try row.decode(column: "buyer_username", as: String?.self),
            auction: try row.decode(column: "bidding_ends_at", as: Date?.self).map { endsAt in
                let start = try row.decode(column: "price", as: Int64?.self) ?? 0
                return AuctionState(
                    startPrice: start,
                    reserve: try row.decode(column: "bidding_reserve", as: Int64?.self),
                    currentPrice: try row.decode(column: "bidding_current", as: Int64?.self) ?? start,
                    leader: try row.decode(column: "bidding_leader", as: UUID?.self),
                    leaderMax: try row.decode(column: "bidding_leader_max", as: Int64?.self) ?? 0,
                    bidCount: try row.decode(column: "bidding_count", as: Int.self),
                    endsAt: endsAt
                )
            },
            auctionClosed: try row.decode(column: "bidding_closed", as: Bool.self),
            sellerFacts: row.contains(column: "seller_sales") ? try sellerFacts(row) : nil
        )
    }
}
