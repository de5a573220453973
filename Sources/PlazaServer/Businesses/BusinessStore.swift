import Foundation
import PlazaCore
import SQLKit

/// A row of `businesses`.
struct BusinessRecord: Sendable, Equatable {
    var id: UUID
    var name: String
    var category: BusinessCategory
    var description: String
    /// Public (search, nearby, its page, presence) once its merchant is approved.
    var listed: Bool
    /// Runs a loyalty program now (kept by Places' recorder when Loyalty says so).
    var hasLoyalty = false
    var createdAt: Date
    /// The counter's suggested tips in percent; empty for none.
    var tipPercents: [Int] = []
    var taxId: String?
    /// The tax rate its prices include, in basis points (1900 for 19 %).
    var taxBasisPoints: Int?

    init(
        id: UUID = UUID(),
        name: String,
        category: BusinessCategory,
        description: String,
        listed: Bool = true,
        createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.description = description
        self.listed = listed
        self.createdAt = createdAt
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        name = try row.decode(column: "name", as: String.self)
        category = BusinessCategory(rawValue: try row.decode(column: "category", as: String.self)) ?? .other
        description = try row.decode(column: "description", as: String.self)
        listed = try row.decode(column: "listed", as: Bool.self)
        hasLoyalty = try row.decode(column: "has_loyalty", as: Bool.self)
        createdAt = try row.decode(column: "created_at", as: Date.self)
        tipPercents = (try row.decode(column: "tip_percents", as: String?.self) ?? "").split(separator: ",")
            .compactMap { Int($0) }
        taxId = try row.decode(column: "tax_id", as: String?.self)
        taxBasisPoints = try row.decode(column: "tax_rate_bp", as: Int?.self)
    }

    func dto(locations: [BusinessLocation], role: BusinessRole?) -> Business {
        Business(
            id: id,
            name: name,
            category: category,
            description: description,
            locations: locations,
            role: role,
            listed: listed,
            hasLoyalty: hasLoyalty,
            createdAt: createdAt,
            tipPercents: tipPercents,
            taxId: taxId,
            taxRate: taxBasisPoints.map { Double($0) / 100 }
        )
    }
}

/// All SQL about businesses, their members and their locations.
struct BusinessStore: Sendable {
    private static let columns = [
        "id", "name", "category", "description", "listed", "has_loyalty", "created_at", "tip_percents", "tax_id",
        "tax_rate_bp",
    ]
    static let locationColumns = [
        "id", "business_id", "name", "address", "latitude", "longitude", "radius_meters", "opening_hours",
    ]

    func insert(_ business: BusinessRecord, owner: UUID, on db: any SQLDatabase) async throws {
        try await db.insert(into: "businesses").columns(
            "id",
            "name",
            "category",
            "description",
            "listed",
            "search_text",
            "created_at",
            "updated_at"
        )
        .values(
            SQLBind(business.id),
            SQLBind(business.name),
            SQLBind(business.category.rawValue),
            SQLBind(business.description),
            SQLBind(business.listed),
            SQLBind(BusinessRules.searchText(name: business.name, description: business.description)),
            SQLBind(business.createdAt),
            SQLBind(business.createdAt)
        ).run()
        try await setMember(business: business.id, user: owner, role: .owner, now: business.createdAt, on: db)
    }

    /// The business and `user`'s role in it (`nil` when not a member), in one statement.
    func business(id: UUID, roleOf user: UUID, on db: any SQLDatabase) async throws -> (BusinessRecord, BusinessRole?)?
    {
        let member = SQLBinaryExpression(
            SQLBinaryExpression(SQLColumn("business_id", table: "m"), .equal, SQLColumn("id", table: "b")),
            .and,
            SQLBinaryExpression(SQLColumn("user_id", table: "m"), .equal, SQLBind(user))
        )
        guard
            let row = try await db.select().columns(Self.columns.map { SQLColumn($0, table: "b") }).column(
                SQLColumn("role", table: "m")
            )
            .from(SQLAlias(SQLIdentifier("businesses"), as: SQLIdentifier("b")))
            .join(
                SQLAlias(SQLIdentifier("business_members"), as: SQLIdentifier("m")),
                method: SQLJoinMethod.left,
                on: member
            )
            .where(SQLColumn("id", table: "b"), .equal, SQLBind(id)).first()
        else { return nil }
        return (
            try BusinessRecord(row: row),
            try row.decode(column: "role", as: String?.self).flatMap(BusinessRole.init(rawValue:))
        )
    }

    func businesses(ids: [UUID], on db: any SQLDatabase) async throws -> [UUID: BusinessRecord] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await db.select().columns(Self.columns.map { SQLIdentifier($0) }).from("businesses")
            .where("id", .in, SQLBind.group(ids)).all()
        return Dictionary(uniqueKeysWithValues: try rows.map(BusinessRecord.init(row:)).map { ($0.id, $0) })
    }

    func update(_ business: BusinessRecord, now: Date, on db: any SQLDatabase) async throws {
        try await db.update("businesses").set("name", to: business.name).set("category", to: business.category.rawValue)
            .set("description", to: business.description)
            .set("search_text", to: BusinessRules.searchText(name: business.name, description: business.description))
            .set(
                "tip_percents",
                to: business.tipPercents.isEmpty ? nil : business.tipPercents.map(String.init).joined(separator: ",")
            )
            .set("tax_id", to: business.taxId).set("tax_rate_bp", to: business.taxBasisPoints)
            .set("updated_at", to: now)
            .where("id", .equal, business.id).run()
    }

    /// Lists (or unlists) every business `owner` owns: their merchant was approved (or refused).
    /// Marks whether a business runs a loyalty program now.
    func setHasLoyalty(_ running: Bool, business: UUID, on db: any SQLDatabase) async throws {
        try await db.update("businesses").set("has_loyalty", to: running).where("id", .equal, business).run()
    }

    func setListed(_ listed: Bool, ownedBy owner: UUID, on db: any SQLDatabase) async throws {
        let owned = SQLQueryString(
            "(SELECT business_id FROM business_members WHERE user_id = \(bind: owner) AND role = \(bind: BusinessRole.owner.rawValue))"
        )
        try await db.update("businesses").set("listed", to: listed).where(SQLColumn("id"), .in, owned).run()
    }

    func delete(id: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "businesses").where("id", .equal, id).run()
    }

    /// Name or description contains `text` (accents and case folded) and category matches, ordered by name; `after` is
    /// the last id seen.
    func search(
        text: String?,
        category: BusinessCategory?,
        hasLoyalty: Bool? = nil,
        only: Set<UUID>? = nil,
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws -> [BusinessRecord] {
        var query = db.select().columns(Self.columns.map { SQLIdentifier($0) }).from("businesses").where(
            "listed",
            .equal,
            true
        )
        if let text, !text.isEmpty {
            let pattern = LikePattern.containing(PlacesRules.searchFolded(text))
            // Both sides folded by Plaza (`search_text` is written with the row); one explicit escape for both engines.
            query = query.where(SQLQueryString("search_text LIKE \(bind: pattern) ESCAPE '\\'"))
        }
        if let category { query = query.where("category", .equal, category.rawValue) }
        if let hasLoyalty { query = query.where("has_loyalty", .equal, hasLoyalty) }
        if let only {
            guard !only.isEmpty else { return [] }
            query = query.where("id", .in, SQLBind.group(Array(only)))
        }
        if let after {
            // Compared with the cursor row's stored name, as the session list does.
            let name = SQLQueryString("(SELECT lower(name) FROM businesses WHERE id = \(bind: after))")
            query = query.where {
                $0.where(SQLFunction("lower", args: SQLIdentifier("name")), .greaterThan, name)
                    .orWhere {
                        $0.where(SQLFunction("lower", args: SQLIdentifier("name")), .equal, name).where(
                            "id",
                            .greaterThan,
                            after
                        )
                    }
            }
        }
        return try await query.orderBy(SQLFunction("lower", args: SQLIdentifier("name"))).orderBy("id").limit(limit)
            .all()
            .map(BusinessRecord.init(row:))
    }

    // MARK: Members

    func role(of user: UUID, in business: UUID, on db: any SQLDatabase) async throws -> BusinessRole? {
        try await db.select().column("role").from("business_members").where("business_id", .equal, business).where(
            "user_id",
            .equal,
            user
        )
        .first().flatMap { BusinessRole(rawValue: try $0.decode(column: "role", as: String.self)) }
    }

    func roles(of user: UUID, on db: any SQLDatabase) async throws -> [UUID: BusinessRole] {
        let rows = try await db.select().columns("business_id", "role").from("business_members").where(
            "user_id",
            .equal,
            user
        ).all()
        var roles: [UUID: BusinessRole] = [:]
        for row in rows {
            roles[try row.decode(column: "business_id", as: UUID.self)] = BusinessRole(
                rawValue: try row.decode(column: "role", as: String.self)
            )
        }
        return roles
    }

    func setMember(business: UUID, user: UUID, role: BusinessRole, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "business_members").columns("business_id", "user_id", "role", "created_at")
            .values(SQLBind(business), SQLBind(user), SQLBind(role.rawValue), SQLBind(now))
            .onConflict(with: ["business_id", "user_id"]) { $0.set(excludedValueOf: "role") }
            .run()
    }

    func removeMember(business: UUID, user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "business_members").where("business_id", .equal, business).where(
            "user_id",
            .equal,
            user
        )
        .returning("user_id").first() != nil
    }

    /// The names of the businesses whose only owner is `user`.
    func soleOwnerships(user: UUID, on db: any SQLDatabase) async throws -> [String] {
        try await db.raw(
            """
            SELECT b.name FROM business_members m JOIN businesses b ON b.id = m.business_id
            WHERE m.user_id = \(bind: user) AND m.role = \(bind: BusinessRole.owner.rawValue)
            AND NOT EXISTS (
                SELECT 1 FROM business_members o
                WHERE o.business_id = m.business_id AND o.role = \(bind: BusinessRole.owner.rawValue) AND o.user_id <> m.user_id)
            ORDER BY b.name
            """
        ).all().map { try $0.decode(column: "name", as: String.self) }
    }

    func removeMemberships(user: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "business_members").where("user_id", .equal, user).run()
    }

    func members(business: UUID, on db: any SQLDatabase) async throws -> [BusinessMember] {
        try await db.select().columns(
            SQLColumn("username", table: "u"),
            SQLColumn("display_name", table: "u"),
            SQLColumn("role", table: "m"),
            SQLColumn("created_at", table: "m")
        )
        .from(SQLAlias(SQLIdentifier("business_members"), as: SQLIdentifier("m")))
        .join(
            SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("u")),
            on: SQLColumn("user_id", table: "m"),
            .equal,
            SQLColumn("id", table: "u")
        )
        .where(SQLColumn("business_id", table: "m"), .equal, SQLBind(business))
        .orderBy(SQLColumn("created_at", table: "m")).all()
        .map { row in
            BusinessMember(
                username: try row.decode(column: "username", as: String.self),
                displayName: try row.decode(column: "display_name", as: String.self),
                role: BusinessRole(rawValue: try row.decode(column: "role", as: String.self)) ?? .staff,
                addedAt: try row.decode(column: "created_at", as: Date.self)
            )
        }
    }

    /// The owners and staff of each business, for addressing live events.
    func memberIDs(businesses: [UUID], on db: any SQLDatabase) async throws -> [UUID: [UUID]] {
        guard !businesses.isEmpty else { return [:] }
        let rows = try await db.select().columns("business_id", "user_id").from("business_members")
            .where("business_id", .in, SQLBind.group(businesses)).all()
        var result: [UUID: [UUID]] = [:]
        for row in rows {
            result[try row.decode(column: "business_id", as: UUID.self), default: []].append(
                try row.decode(column: "user_id", as: UUID.self)
            )
        }
        return result
    }

    /// Every business's owners and staff (the location catalog's membership table).
    func allMemberships(on db: any SQLDatabase) async throws -> [UUID: [UUID: BusinessRole]] {
        var memberships: [UUID: [UUID: BusinessRole]] = [:]
        for row in try await db.select().columns("business_id", "user_id", "role").from("business_members").all() {
            guard let role = BusinessRole(rawValue: try row.decode(column: "role", as: String.self)) else { continue }
            memberships[try row.decode(column: "business_id", as: UUID.self), default: [:]][
                try row.decode(column: "user_id", as: UUID.self)
            ] = role
        }
        return memberships
    }

    func ownerCount(business: UUID, on db: any SQLDatabase) async throws -> Int {
        try await db.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n").from("business_members")
            .where("business_id", .equal, business).where("role", .equal, BusinessRole.owner.rawValue)
            .first().map { try $0.decode(column: "n", as: Int.self) } ?? 0
    }
}
