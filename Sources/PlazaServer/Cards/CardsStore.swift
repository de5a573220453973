import Foundation
import PlazaCore
import SQLKit

/// All SQL of the card shop's catalogue: categories, papers, art, templates and their versions.
package struct CardsStore: Sendable {
    struct TemplateRecord: Sendable {
        var id: UUID
        var designerId: UUID?
        var designer: CardDesigner
        var name: String
        var categoryId: UUID
        var subcategoryId: UUID?
        var state: CardTemplateState
        var version: Int
        var publishedVersion: Int?
        var rejectionReason: String?
        var createdAt: Date
        var updatedAt: Date
    }

    struct ArtRecord: Sendable {
        var id: UUID
        var ownerId: UUID?
        var contentType: String
        var width: Double
        var height: Double
        var digest: String
    }

    // MARK: Categories

    func categories(on db: any SQLDatabase) async throws -> [CardCategory] {
        let rows = try await db.select().columns("id", "parent_id", "name").from("card_categories").orderBy("position")
            .orderBy("name").all()
        let all = try rows.map {
            (
                id: try $0.decode(column: "id", as: UUID.self),
                parent: try $0.decode(column: "parent_id", as: UUID?.self),
                name: try $0.decode(column: "name", as: String.self)
            )
        }
        return all.filter { $0.parent == nil }.map { category in
            CardCategory(
                id: category.id,
                name: category.name,
                subcategories: all.filter { $0.parent == category.id }.map { CardSubcategory(id: $0.id, name: $0.name) }
            )
        }
    }

    /// Adds a category (or a subcategory of `parent`) at the end of its list.
    func addCategory(_ id: UUID, name: String, parent: UUID?, now: Date, on db: any SQLDatabase) async throws {
        let last = try await db.select().column(SQLFunction("max", args: SQLColumn("position")), as: "p").from(
            "card_categories"
        )
        .where(
            SQLColumn("parent_id"),
            parent == nil ? .is : .equal,
            parent.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null
        )
        .first()?.decode(column: "p", as: Int?.self)
        try await db.insert(into: "card_categories").columns("id", "parent_id", "name", "position", "created_at")
            .values(SQLBind(id), SQLBind(parent), SQLBind(name), SQLBind((last ?? 0) + 1), SQLBind(now)).run()
    }

    func renameCategory(_ id: UUID, name: String, on db: any SQLDatabase) async throws {
        try await db.update("card_categories").set("name", to: name).where("id", .equal, id).run()
    }

    /// Numbers `siblings` (a category's subcategories, or the categories) 1, 2, 3… in the order given.
    func orderCategories(_ siblings: [UUID], on db: any SQLDatabase) async throws {
        for (index, id) in siblings.enumerated() {
            try await db.update("card_categories").set("position", to: index + 1).where("id", .equal, id).run()
        }
    }

    // MARK: Papers

    func papers(on db: any SQLDatabase) async throws -> [CardPaperType] {
        try await db.select().columns("id", "name", "description", "sample_amount", "currency", "tiers").from(
            "card_papers"
        )
        .orderBy("position").all().map(Self.paper)
    }

    /// The papers offered for each of `templates`, in the designer's order.
    func papers(of templates: [UUID], on db: any SQLDatabase) async throws -> [UUID: [CardPaperType]] {
        guard !templates.isEmpty else { return [:] }
        let rows = try await db.raw(
            """
            SELECT t.template_id, p.id, p.name, p.description, p.sample_amount, p.currency, p.tiers FROM card_template_papers t
            JOIN card_papers p ON p.id = t.paper_id WHERE t.template_id IN \(SQLBind.group(templates)) ORDER BY t.position
            """
        ).all()
        var result: [UUID: [CardPaperType]] = [:]
        for row in rows {
            result[try row.decode(column: "template_id", as: UUID.self), default: []].append(try Self.paper(row))
        }
        return result
    }

    func savePaper(_ paper: CardPaperType, now: Date, on db: any SQLDatabase) async throws {
        let tiers = try PlazaJSON.text(paper.tiers)
        let updated = try await db.update("card_papers").set("name", to: paper.name).set(
            "description",
            to: paper.description
        )
        .set("sample_amount", to: paper.sampleAmount).set("tiers", to: tiers).where("id", .equal, paper.id).returning(
            "id"
        ).all()
        guard updated.isEmpty else { return }
        let count =
            try await db.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n").from("card_papers")
            .first()?
            .decode(column: "n", as: Int.self) ?? 0
        try await db.insert(into: "card_papers").columns(
            "id",
            "name",
            "description",
            "sample_amount",
            "currency",
            "tiers",
            "position",
            "created_at"
        )
        .values(
            SQLBind(paper.id),
            SQLBind(paper.name),
            SQLBind(paper.description),
            SQLBind(paper.sampleAmount),
            SQLBind(paper.currency),
            SQLBind(tiers),
            SQLBind(count + 1),
            SQLBind(now)
        ).run()
    }

    static func paper(_ row: any SQLRow) throws -> CardPaperType {
        CardPaperType(
            id: try row.decode(column: "id", as: UUID.self),
            name: try row.decode(column: "name", as: String.self),
            description: try row.decode(column: "description", as: String?.self),
            sampleAmount: try row.decode(column: "sample_amount", as: Int64.self),
            currency: try row.decode(column: "currency", as: String.self),
            tiers: try PlazaJSON.value([CardPriceTier].self, from: try row.decode(column: "tiers", as: String.self))
        )
    }

    // MARK: Art

    func insertArt(_ art: ArtRecord, bytes: Data, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "card_art").columns(
            "id",
            "owner_id",
            "content_type",
            "width",
            "height",
            "bytes",
            "digest",
            "created_at"
        )
        .values(
            SQLBind(art.id),
            SQLBind(art.ownerId),
            SQLBind(art.contentType),
            SQLBind(art.width),
            SQLBind(art.height),
            SQLBind(bytes),
            SQLBind(art.digest),
            SQLBind(now)
        ).run()
    }

    func art(_ id: UUID, on db: any SQLDatabase) async throws -> ArtRecord? {
        try await db.select().columns("id", "owner_id", "content_type", "width", "height", "digest").from("card_art")
            .where("id", .equal, id).first()
            .map { row in
                ArtRecord(
                    id: try row.decode(column: "id", as: UUID.self),
                    ownerId: try row.decode(column: "owner_id", as: UUID?.self),
                    contentType: try row.decode(column: "content_type", as: String.self),
                    width: try row.decode(column: "width", as: Double.self),
                    height: try row.decode(column: "height", as: Double.self),
                    digest: try row.decode(column: "digest", as: String.self)
                )
            }
    }

    /// Whether a template shows `id` to everyone: its published version uses it, or a version a shopper's design was
    /// made from (it was published then) does.
    func artIsPublic(_ id: UUID, on db: any SQLDatabase) async throws -> Bool {
        let pattern = "%\(id.uuidString.lowercased())%"
        let row = try await db.raw(
            """
            SELECT 1 AS used FROM card_template_versions v JOIN card_templates t ON t.id = v.template_id
            WHERE lower(v.spec) LIKE \(bind: pattern) AND (v.version = t.published_version
              OR EXISTS (SELECT 1 FROM card_designs d WHERE d.template_id = v.template_id AND d.template_version = v.version))
            LIMIT 1
            """
        ).first()
        return row != nil
    }

    func artBytes(_ id: UUID, on db: any SQLDatabase) async throws -> Data? {
        try await db.select().column("bytes").from("card_art").where("id", .equal, id).first()?.decode(
            column: "bytes",
            as: Data.self
        )
    }
}
