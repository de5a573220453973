import Foundation
import PlazaCore
import SQLKit

/// Templates: one row each with its newest and its published version, every saved version's spec, its papers.
extension CardsStore {
    /// A catalogue query: approved templates only, with the published version's spec.
    package struct CatalogueQuery: Sendable {
        var category: UUID?
        var subcategory: UUID?
        var words: String?
        var colour: String?

        package init(category: UUID? = nil, subcategory: UUID? = nil, words: String? = nil, colour: String? = nil) {
            (self.category, self.subcategory, self.words, self.colour) = (category, subcategory, words, colour)
        }
    }

    static let templateColumns: SQLQueryString = """
        SELECT t.id, t.designer_id, t.name, t.category_id, t.subcategory_id, t.state, t.version, t.published_version, t.rejection_reason,
        t.created_at, t.updated_at, u.username AS designer_username, u.display_name AS designer_name
        FROM card_templates t LEFT JOIN users u ON u.id = t.designer_id
        """

    func template(_ id: UUID, on db: any SQLDatabase) async throws -> TemplateRecord? {
        try await db.raw(Self.templateColumns + " WHERE t.id = \(bind: id)").first().map(Self.template)
    }

    static let templateWithSpecColumns: SQLQueryString = """
        SELECT t.id, t.designer_id, t.name, t.category_id, t.subcategory_id, t.state, t.version, t.published_version, t.rejection_reason,
        t.created_at, t.updated_at, u.username AS designer_username, u.display_name AS designer_name, v.spec
        FROM card_templates t LEFT JOIN users u ON u.id = t.designer_id
        """

    /// The catalogue's page from `offset`, each with its published spec.
    func catalogue(
        _ query: CatalogueQuery,
        limit: Int,
        offset: Int,
        on db: any SQLDatabase
    ) async throws -> [(TemplateRecord, CardTemplateSpec)] {
        var sql: SQLQueryString =
            Self.templateWithSpecColumns
            + " JOIN card_template_versions v ON v.template_id = t.id AND v.version = t.published_version WHERE t.published_version IS NOT NULL"
        sql = sql + Self.filters(query)
        sql = sql + " ORDER BY t.updated_at DESC, t.id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)"
        return try await db.raw(sql).all().map(Self.templateWithSpec)
    }

    /// The colour names (lower case) of the catalogue's templates in `query`'s category and subcategory, A to Z.
    func colourNames(_ query: CatalogueQuery, on db: any SQLDatabase) async throws -> [String] {
        var sql: SQLQueryString =
            "SELECT DISTINCT t.colour_names FROM card_templates t WHERE t.published_version IS NOT NULL"
        sql = sql + Self.filters(CatalogueQuery(category: query.category, subcategory: query.subcategory))
        let lists = try await db.raw(sql).all().map { try $0.decode(column: "colour_names", as: String.self) }
        return Set(lists.flatMap { $0.split(separator: "|").map(String.init) }).sorted()
    }

    private static func filters(_ query: CatalogueQuery) -> SQLQueryString {
        var sql: SQLQueryString = ""
        if let category = query.category { sql = sql + " AND t.category_id = \(bind: category)" }
        if let subcategory = query.subcategory { sql = sql + " AND t.subcategory_id = \(bind: subcategory)" }
        if let words = query.words?.trimmingCharacters(in: .whitespaces), !words.isEmpty {
            for word in words.split(separator: " ").prefix(8) {
                let pattern = LikePattern.containing(String(word))
                sql =
                    sql
                    + " AND (lower(t.name) LIKE lower(\(bind: pattern)) ESCAPE '\\' OR lower(u.display_name) LIKE lower(\(bind: pattern)) ESCAPE '\\')"
            }
        }
        if let colour = query.colour?.trimmingCharacters(in: .whitespaces).lowercased(), !colour.isEmpty {
            sql = sql + " AND t.colour_names LIKE \(bind: LikePattern.containing("|\(colour)|")) ESCAPE '\\'"
        }
        return sql
    }

    /// A designer's own templates with their newest versions' specs, newest change first.
    func templates(designer: UUID, on db: any SQLDatabase) async throws -> [(TemplateRecord, CardTemplateSpec)] {
        try await db.raw(
            Self.templateWithSpecColumns
                + " JOIN card_template_versions v ON v.template_id = t.id AND v.version = t.version"
                + " WHERE t.designer_id = \(bind: designer) ORDER BY t.updated_at DESC, t.id DESC"
        ).all().map(Self.templateWithSpec)
    }

    static func templateWithSpec(_ row: any SQLRow) throws -> (TemplateRecord, CardTemplateSpec) {
        (
            try template(row),
            try PlazaJSON.value(CardTemplateSpec.self, from: try row.decode(column: "spec", as: String.self))
        )
    }

    func spec(_ template: UUID, version: Int, on db: any SQLDatabase) async throws -> CardTemplateSpec? {
        try await db.select().column("spec").from("card_template_versions").where("template_id", .equal, template)
            .where("version", .equal, version)
            .first().map {
                try PlazaJSON.value(CardTemplateSpec.self, from: try $0.decode(column: "spec", as: String.self))
            }
    }

    /// Saves a new template, or a new version of one (its designer's edit: back to a draft until submitted again).
    func saveTemplate(
        _ record: TemplateRecord,
        spec: CardTemplateSpec,
        papers: [UUID],
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        if record.version == 1 {
            try await db.insert(into: "card_templates")
                .columns(
                    "id",
                    "designer_id",
                    "name",
                    "category_id",
                    "subcategory_id",
                    "state",
                    "version",
                    "created_at",
                    "updated_at"
                )
                .values(
                    SQLBind(record.id),
                    SQLBind(record.designerId),
                    SQLBind(record.name),
                    SQLBind(record.categoryId),
                    SQLBind(record.subcategoryId),
                    SQLBind(record.state.rawValue),
                    SQLBind(record.version),
                    SQLBind(now),
                    SQLBind(now)
                ).run()
        } else {
            try await db.update("card_templates").set("name", to: record.name).set("category_id", to: record.categoryId)
                .set("subcategory_id", to: record.subcategoryId).set("state", to: record.state.rawValue).set(
                    "version",
                    to: record.version
                )
                .set("updated_at", to: now).where("id", .equal, record.id).run()
        }
        try await db.insert(into: "card_template_versions").columns("template_id", "version", "spec", "created_at")
            .values(SQLBind(record.id), SQLBind(record.version), SQLBind(try PlazaJSON.text(spec)), SQLBind(now)).run()
        try await db.delete(from: "card_template_papers").where("template_id", .equal, record.id).run()
        for (position, paper) in papers.enumerated() {
            try await db.insert(into: "card_template_papers").columns("template_id", "paper_id", "position")
                .values(SQLBind(record.id), SQLBind(paper), SQLBind(position)).run()
        }
    }

    /// Moves a template from one of `from` to `to`; false when it was in none of them. Approving publishes its newest
    /// version (and its colour names, for the catalogue's filter).
    func move(
        _ id: UUID,
        from: [CardTemplateState],
        to: CardTemplateState,
        reason: String? = nil,
        colourNames: [String]? = nil,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        var update = db.update("card_templates").set("state", to: to.rawValue).set("rejection_reason", to: reason).set(
            "updated_at",
            to: now
        )
        if to == .approved {
            update = update.set("published_version", to: SQLColumn("version"))
            if let colourNames {
                update = update.set(
                    "colour_names",
                    to: "|" + colourNames.map { $0.lowercased() }.joined(separator: "|") + "|"
                )
            }
        }
        return try await update.where("id", .equal, id).where("state", .in, from.map(\.rawValue)).returning("id").all()
            .count == 1
    }

    static func template(_ row: any SQLRow) throws -> TemplateRecord {
        TemplateRecord(
            id: try row.decode(column: "id", as: UUID.self),
            designerId: try row.decode(column: "designer_id", as: UUID?.self),
            designer: CardDesigner(
                username: try row.decode(column: "designer_username", as: String?.self) ?? "plaza",
                displayName: try row.decode(column: "designer_name", as: String?.self) ?? "A former designer"
            ),
            name: try row.decode(column: "name", as: String.self),
            categoryId: try row.decode(column: "category_id", as: UUID.self),
            subcategoryId: try row.decode(column: "subcategory_id", as: UUID?.self),
            state: CardTemplateState(rawValue: try row.decode(column: "state", as: String.self)) ?? .draft,
            version: try row.decode(column: "version", as: Int.self),
            publishedVersion: try row.decode(column: "published_version", as: Int?.self),
            rejectionReason: try row.decode(column: "rejection_reason", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self)
        )
    }
}
