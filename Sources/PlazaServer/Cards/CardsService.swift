import Foundation
import PlazaCore
import PlazaMedia
import SQLKit

/// The card shop (issue 25): the catalogue of designers' templates, shoppers' saved designs, and their previews and
/// print files, both drawn from one layout (`CardPreflight`).
package struct CardsService: Sendable {
    let database: PlazaDatabase
    /// Where a submitted template asks for review, and decisions come back.
    let events: EventBus
    package let fonts: CardFonts
    /// Parsed art, shared by every preview and print file.
    let artCache = CardArtCache()
    /// Prices are in the Plaza's first currency.
    var currency = "USD"
    /// Shipping and tax.
    var settings = CardsConfiguration()
    /// Orders record their answer with their money (`Idempotency-Key`).
    let idempotency: IdempotencyStore
    /// The wallet's answer for taking and refunding money; nil refuses paying.
    var payments: (any CardShopPayments)? = nil
    /// Links in the mails (`PLAZA_BASE_URL`), and the outbox's nudge after a mail is queued.
    var baseURL = ""
    var mailQueued: @Sendable () -> Void = {}
    /// The words of a recipient's language (their `language`, else the operator's) for the order mails.
    var words: @Sendable (String?) -> Catalogue.Words = { _ in Catalogue.englishWords }
    /// How large art may be (`PLAZA_MEDIA_MAX_PIXELS`); where art is parsed and print files are drawn.
    var pictures = PictureBudget()
    var decoding = DecodePool.shared
    /// The shoppers' own uploads, for the photos of photo cards.
    let media: MediaService
    let store = CardsStore()

    // MARK: The catalogue, for anyone

    package func categories() async throws -> [CardCategory] {
        try await store.categories(on: database.sql)
    }

    func papers() async throws -> [CardPaperType] {
        try await store.papers(on: database.sql)
    }

    /// Approved templates matching `query`, newest first.
    package func catalogue(
        _ query: CardsStore.CatalogueQuery,
        limit: Int,
        cursor: String?
    ) async throws -> Page<CardTemplateSummary> {
        let entries = try await catalogueEntries(query, limit: limit, cursor: cursor)
        return Page(items: entries.items.map(\.summary), nextCursor: entries.nextCursor)
    }

    /// As `catalogue`, with each template's published spec (to draw its tile without reading it again).
    func catalogueEntries(
        _ query: CardsStore.CatalogueQuery,
        limit: Int,
        cursor: String?
    ) async throws -> (
        items: [(summary: CardTemplateSummary, spec: CardTemplateSpec)], nextCursor: String?
    ) {
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let rows = try await store.catalogue(query, limit: limit + 1, offset: offset, on: database.sql)
        let page = Array(rows.prefix(limit))
        let papers = try await store.papers(of: page.map(\.0.id), on: database.sql)
        let items = page.map { record, spec in
            (summary: Self.summary(record, spec: spec, papers: papers[record.id] ?? []), spec: spec)
        }
        return (items, rows.count > limit ? PlaceCursor.encode(offset: offset + limit) : nil)
    }

    /// The colour names the catalogue's templates come in (lower case), within `query`'s category and subcategory.
    func catalogueColours(_ query: CardsStore.CatalogueQuery) async throws -> [String] {
        try await store.colourNames(query, on: database.sql)
    }

    /// A template as `viewer` may see it: its designer and admins see the newest version, anyone else the published one
    /// (404 until an admin approved it once).
    func template(_ id: UUID, viewer: Identity?) async throws -> CardTemplate {
        let (record, spec, _) = try await visibleTemplate(id, viewer: viewer)
        let papers = try await store.papers(of: [id], on: database.sql)[id] ?? []
        return Self.template(record, spec: spec, version: try version(record, viewer: viewer), papers: papers)
    }

    /// The record, the spec and the version `viewer` sees.
    func visibleTemplate(
        _ id: UUID,
        viewer: Identity?
    ) async throws -> (CardsStore.TemplateRecord, CardTemplateSpec, Int) {
        guard let record = try await store.template(id, on: database.sql) else { throw PlazaError.notFound("template") }
        let version = try version(record, viewer: viewer)
        guard let spec = try await store.spec(id, version: version, on: database.sql) else {
            throw PlazaError.notFound("template")
        }
        return (record, spec, version)
    }

    private func version(_ record: CardsStore.TemplateRecord, viewer: Identity?) throws -> Int {
        let insider = viewer.map { $0.user.role == .admin || $0.user.id == record.designerId } ?? false
        if insider { return record.version }
        guard let published = record.publishedVersion else { throw PlazaError.notFound("template") }
        return published
    }

    static func summary(
        _ record: CardsStore.TemplateRecord,
        spec: CardTemplateSpec,
        papers: [CardPaperType]
    ) -> CardTemplateSummary {
        let cheapest = papers.compactMap { paper in paper.tiers.map(\.unitAmount).min().map { ($0, paper.currency) } }
            .min { $0.0 < $1.0 }
        return CardTemplateSummary(
            id: record.id,
            name: record.name,
            designer: record.designer,
            categoryId: record.categoryId,
            subcategoryId: record.subcategoryId,
            colours: spec.colours.map { CardColourSummary(id: $0.id, name: $0.name) },
            trim: spec.trim,
            state: record.state,
            previewUrl: "/v1/cards/templates/\(record.id.uuidString.lowercased())/preview.svg",
            fromAmount: cheapest?.0,
            currency: cheapest?.1
        )
    }

    static func template(
        _ record: CardsStore.TemplateRecord,
        spec: CardTemplateSpec,
        version: Int,
        papers: [CardPaperType]
    ) -> CardTemplate {
        CardTemplate(
            id: record.id,
            name: record.name,
            designer: record.designer,
            categoryId: record.categoryId,
            subcategoryId: record.subcategoryId,
            state: record.state,
            version: version,
            trim: spec.trim,
            pages: spec.pages,
            colours: spec.colours,
            labels: spec.labels,
            photoSlots: spec.photoSlots,
            paperTypes: papers,
            rejectionReason: record.rejectionReason
        )
    }

    // MARK: Admins

    /// Adds a category, or a subcategory of `parentId` (a category itself).
    package func addCategory(_ request: CardCategoryRequest, now: Date = Date()) async throws -> CardCategory {
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard CardRules.nameLength.contains(name.count) else {
            throw PlazaError.validation(field: "name", phrase("Name it (at most 80 characters)."))
        }
        let categories = try await store.categories(on: database.sql)
        if let parent = request.parentId, !categories.contains(where: { $0.id == parent }) {
            throw PlazaError.validation(
                field: "parentId",
                phrase("Subcategories belong to a category: pick one of the categories.")
            )
        }
        let siblings =
            request.parentId.map { parent in categories.first { $0.id == parent }?.subcategories.map(\.name) ?? [] }
            ?? categories.map(\.name)
        guard !siblings.contains(where: { $0.lowercased() == name.lowercased() }) else {
            throw PlazaError.conflict(field: "name", say("There is a “{name}” here already.", ["name": name]))
        }
        let id = UUID()
        try await store.addCategory(id, name: name, parent: request.parentId, now: now, on: database.sql)
        return CardCategory(id: id, name: name, subcategories: [])
    }

    /// Renames a category or subcategory, or moves it among its siblings (`position` 1 first; past the end: last).
    /// Answers the category as it now stands (a subcategory's parent).
    package func updateCategory(_ id: UUID, _ request: CardCategoryUpdate) async throws -> CardCategory {
        let categories = try await store.categories(on: database.sql)
        let parent = categories.first { category in category.subcategories.contains { $0.id == id } }
        let siblings = parent.map { $0.subcategories.map { ($0.id, $0.name) } } ?? categories.map { ($0.id, $0.name) }
        guard siblings.contains(where: { $0.0 == id }) else { throw PlazaError.notFound("category") }
        let name = request.name?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let name {
            guard CardRules.nameLength.contains(name.count) else {
                throw PlazaError.validation(field: "name", phrase("Name it (at most 80 characters)."))
            }
            guard !siblings.contains(where: { $0.0 != id && $0.1.lowercased() == name.lowercased() }) else {
                throw PlazaError.conflict(field: "name", say("There is a “{name}” here already.", ["name": name]))
            }
        }
        if let position = request.position, position < 1 {
            throw PlazaError.validation(field: "position", phrase("Places count from 1, the first."))
        }
        let store = store
        try await database.transaction { db in
            if let name { try await store.renameCategory(id, name: name, on: db) }
            if let position = request.position {
                var order = siblings.map(\.0).filter { $0 != id }
                order.insert(id, at: min(position - 1, order.count))
                try await store.orderCategories(order, on: db)
            }
        }
        let now = try await store.categories(on: database.sql)
        guard let answer = now.first(where: { $0.id == (parent?.id ?? id) }) else {
            throw PlazaError.notFound("category")
        }
        return answer
    }

    /// Adds a paper type (`id` nil) or changes one's name and prices.
    package func savePaper(_ id: UUID?, _ request: CardPaperRequest, now: Date = Date()) async throws -> CardPaperType {
        let problems = CardRules.problems(request)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        if let id, !(try await store.papers(on: database.sql)).contains(where: { $0.id == id }) {
            throw PlazaError.notFound("paper")
        }
        let paper = CardPaperType(
            id: id ?? UUID(),
            name: request.name.trimmingCharacters(in: .whitespacesAndNewlines),
            description: request.description?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty,
            sampleAmount: request.sampleAmount,
            currency: currency,
            tiers: request.tiers.sorted { $0.minQuantity < $1.minQuantity }
        )
        try await store.savePaper(paper, now: now, on: database.sql)
        return paper
    }
}
