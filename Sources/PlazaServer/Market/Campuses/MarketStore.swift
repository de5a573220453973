import Foundation
import PlazaCore
import SQLKit

/// All SQL of the campus marketplace's foundation: campuses, safe spots, verified students, the agreement, categories.
struct MarketStore: Sendable {
    // MARK: Campuses

    func insert(_ campus: Campus, on db: any SQLDatabase) async throws {
        try await db.insert(into: "campuses")
            .columns(
                "id",
                "name",
                "domains",
                "center_latitude",
                "center_longitude",
                "boundary",
                "term_ends",
                "created_at"
            )
            .values(
                SQLBind(campus.id),
                SQLBind(campus.name),
                SQLBind(try PlazaJSON.text(campus.domains)),
                SQLBind(campus.center.latitude),
                SQLBind(campus.center.longitude),
                SQLBind(try campus.boundary.map(PlazaJSON.text)),
                SQLBind(try PlazaJSON.text(campus.termEnds)),
                SQLBind(campus.createdAt)
            )
            .run()
    }

    func campuses(on db: any SQLDatabase) async throws -> [Campus] {
        try await db.select().columns(Self.campusColumns.map { SQLIdentifier($0) }).from("campuses").orderBy("name")
            .all().map(Self.campus)
    }

    func campus(_ id: UUID, on db: any SQLDatabase) async throws -> Campus? {
        try await db.select().columns(Self.campusColumns.map { SQLIdentifier($0) }).from("campuses").where(
            "id",
            .equal,
            id
        ).first()
            .map(Self.campus)
    }

    static let campusColumns = [
        "id", "name", "domains", "center_latitude", "center_longitude", "boundary", "term_ends", "created_at",
    ]

    static func campus(_ row: any SQLRow) throws -> Campus {
        Campus(
            id: try row.decode(column: "id", as: UUID.self),
            name: try row.decode(column: "name", as: String.self),
            domains: try PlazaJSON.value([String].self, from: try row.decode(column: "domains", as: String.self)),
            center: Coordinate(
                latitude: try row.decode(column: "center_latitude", as: Double.self),
                longitude: try row.decode(column: "center_longitude", as: Double.self)
            ),
            boundary: try row.decode(column: "boundary", as: String?.self).map {
                try PlazaJSON.value([Coordinate].self, from: $0)
            },
            termEnds: try PlazaJSON.value([String].self, from: try row.decode(column: "term_ends", as: String.self)),
            createdAt: try row.decode(column: "created_at", as: Date.self)
        )
    }

    // MARK: Safe spots

    func insert(_ spot: SafeSpot, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "safe_spots").columns(
            "id",
            "campus_id",
            "name",
            "latitude",
            "longitude",
            "description",
            "hours",
            "created_at"
        )
        .values(
            SQLBind(spot.id),
            SQLBind(spot.campusId),
            SQLBind(spot.name),
            SQLBind(spot.latitude),
            SQLBind(spot.longitude),
            SQLBind(spot.description),
            SQLBind(spot.hours),
            SQLBind(now)
        )
        .run()
    }

    func safeSpots(campus: UUID, on db: any SQLDatabase) async throws -> [SafeSpot] {
        try await db.select().columns("id", "campus_id", "name", "latitude", "longitude", "description", "hours").from(
            "safe_spots"
        )
        .where("campus_id", .equal, campus).orderBy("name").all().map { row in
            SafeSpot(
                id: try row.decode(column: "id", as: UUID.self),
                campusId: try row.decode(column: "campus_id", as: UUID.self),
                name: try row.decode(column: "name", as: String.self),
                latitude: try row.decode(column: "latitude", as: Double.self),
                longitude: try row.decode(column: "longitude", as: Double.self),
                description: try row.decode(column: "description", as: String.self),
                hours: try row.decode(column: "hours", as: String.self)
            )
        }
    }

    func deleteSafeSpot(_ id: UUID, campus: UUID, on db: any SQLDatabase) async throws -> Bool {
        !(try await db.delete(from: "safe_spots").where("id", .equal, id).where("campus_id", .equal, campus).returning(
            "id"
        ).all()).isEmpty
    }

    // MARK: Categories

    func categories(on db: any SQLDatabase) async throws -> [MarketCategory] {
        try await db.select().columns("slug", "name").from("market_categories").orderBy("position").orderBy("slug")
            .all().map { row in
                MarketCategory(
                    slug: try row.decode(column: "slug", as: String.self),
                    name: try row.decode(column: "name", as: String.self)
                )
            }
    }

    /// Adds a category at the end of the list, or renames one; answers whether it was new.
    func save(_ category: MarketCategory, on db: any SQLDatabase) async throws -> Bool {
        let renamed = try await db.update("market_categories").set("name", to: category.name).where(
            "slug",
            .equal,
            category.slug
        )
        .returning("slug").all()
        guard renamed.isEmpty else { return false }
        let last = try await db.select().column(SQLFunction("max", args: SQLColumn("position")), as: "last").from(
            "market_categories"
        ).first()?
        .decode(column: "last", as: Int?.self)
        try await db.insert(into: "market_categories").columns("slug", "name", "position")
            .values(SQLBind(category.slug), SQLBind(category.name), SQLBind((last ?? -1) + 1)).run()
        return true
    }
}

extension MarketStore {
    // MARK: Blocks

    func block(_ blocker: UUID, _ blocked: UUID, now: Date, on db: any SQLDatabase) async throws -> Date {
        try await db.insert(into: "market_blocks").columns("blocker_id", "blocked_id", "created_at")
            .values(SQLBind(blocker), SQLBind(blocked), SQLBind(now)).ignoringConflicts(with: [
                "blocker_id", "blocked_id",
            ]).run()
        return try await db.select().column("created_at").from("market_blocks").where("blocker_id", .equal, blocker)
            .where("blocked_id", .equal, blocked).first()?.decode(column: "created_at", as: Date.self) ?? now
    }

    func unblock(_ blocker: UUID, _ blocked: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "market_blocks").where("blocker_id", .equal, blocker).where(
            "blocked_id",
            .equal,
            blocked
        ).run()
    }

    /// Whether either of the two blocked the other.
    func blocked(_ one: UUID, _ other: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("blocker_id").from("market_blocks").where {
            $0.where { $0.where("blocker_id", .equal, one).where("blocked_id", .equal, other) }
                .orWhere { $0.where("blocker_id", .equal, other).where("blocked_id", .equal, one) }
        }.first() != nil
    }

    /// Usernames of the campus's current students whose username or name contains `text`, for `viewer`'s search:
    /// nobody across a block, nobody suspended; an exact username first, then by name.
    func students(
        campus: UUID,
        matching text: String,
        viewer: UUID,
        now: Date,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [String] {
        let pattern = LikePattern.containing(text)
        let sql: SQLQueryString = """
            SELECT u.username FROM users u JOIN campus_members m ON m.user_id = u.id
            WHERE m.campus_id = \(bind: campus) AND m.verified_until > \(bind: now)
            AND (lower(u.username) LIKE lower(\(bind: pattern)) ESCAPE '\\' OR lower(u.display_name) LIKE lower(\(bind: pattern)) ESCAPE '\\')
            AND NOT EXISTS (SELECT 1 FROM market_agreements a WHERE a.user_id = u.id AND a.suspended_at IS NOT NULL)
            AND NOT EXISTS (SELECT 1 FROM market_blocks k WHERE (k.blocker_id = \(bind: viewer) AND k.blocked_id = u.id)
            OR (k.blocker_id = u.id AND k.blocked_id = \(bind: viewer)))
            ORDER BY CASE WHEN lower(u.username) = lower(\(bind: text)) THEN 0 ELSE 1 END, lower(u.display_name), u.username
            LIMIT \(bind: limit)
            """
        return try await db.raw(sql).all().map { try $0.decode(column: "username", as: String.self) }
    }

    /// The people `blocker` blocked, newest first.
    func blocks(_ blocker: UUID, on db: any SQLDatabase) async throws -> [MarketBlock] {
        try await db.raw(
            """
            SELECT u.username, u.display_name, b.created_at FROM market_blocks b JOIN users u ON u.id = b.blocked_id
            WHERE b.blocker_id = \(bind: blocker) ORDER BY b.created_at DESC
            """
        ).all().map { row in
            MarketBlock(
                username: try row.decode(column: "username", as: String.self),
                displayName: try row.decode(column: "display_name", as: String.self),
                since: try row.decode(column: "created_at", as: Date.self)
            )
        }
    }

    // MARK: Profiles

    func profile(user: UUID, on db: any SQLDatabase) async throws -> (bio: String?, photo: UUID?) {
        guard
            let row = try await db.select().columns("bio", "photo_id").from("market_profiles").where(
                "user_id",
                .equal,
                user
            ).first()
        else {
            return (nil, nil)
        }
        return (try row.decode(column: "bio", as: String?.self), try row.decode(column: "photo_id", as: UUID?.self))
    }

    func saveProfile(user: UUID, bio: String?, photo: UUID?, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "market_profiles").columns("user_id", "bio", "photo_id", "updated_at")
            .values(SQLBind(user), SQLBind(bio), SQLBind(photo), SQLBind(now))
            .onConflict(with: ["user_id"]) {
                $0.set(excludedValueOf: "bio").set(excludedValueOf: "photo_id").set(excludedValueOf: "updated_at")
            }
            .run()
    }

    // MARK: Reminders

    /// Members whose verification runs out within `ahead` and who were not reminded since it was last renewed: marked
    /// reminded now (one statement, so each is told once), with the end of their verification.
    func remindExpiring(
        now: Date,
        ahead: TimeInterval,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [(user: UUID, until: Date)] {
        let due = db.select().column("user_id").from("campus_members").where("verified_until", .greaterThan, now)
            .where("verified_until", .lessThanOrEqual, now.addingTimeInterval(ahead))
            .where {
                $0.where("reminded_at", .is, SQLLiteral.null).orWhere(
                    "reminded_at",
                    .lessThan,
                    SQLIdentifier("verified_at")
                )
            }.limit(limit)
        return try await db.update("campus_members").set("reminded_at", to: now).where(
            "user_id",
            .in,
            SQLGroupExpression(due.select)
        )
        .where {
            $0.where("reminded_at", .is, SQLLiteral.null).orWhere(
                "reminded_at",
                .lessThan,
                SQLIdentifier("verified_at")
            )
        }
        .returning("user_id", "verified_until").all()
        .map {
            (try $0.decode(column: "user_id", as: UUID.self), try $0.decode(column: "verified_until", as: Date.self))
        }
    }
}
