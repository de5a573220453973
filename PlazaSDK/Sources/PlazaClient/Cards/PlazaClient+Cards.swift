import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: The catalogue (no sign-in needed)

    /// The catalogue's categories with their subcategories, in the admins' order.
    public func cardCategories() async throws -> [CardCategory] {
        let page: Page<CardCategory> = try await send("GET", "v1/cards/categories")
        return page.items
    }

    /// The papers cards are printed on, with the price of a sample and the price per card by quantity.
    public func cardPapers() async throws -> [CardPaperType] {
        let page: Page<CardPaperType> = try await send("GET", "v1/cards/papers")
        return page.items
    }

    /// Approved templates, newest first: by category, subcategory, words in the name or designer (`text`) and colour name.
    public func cardTemplates(
        category: UUID? = nil,
        subcategory: UUID? = nil,
        text: String? = nil,
        colour: String? = nil,
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> Page<CardTemplateSummary> {
        try await send(
            "GET",
            "v1/cards/templates",
            query: Self.query([
                "category": category?.uuidString.lowercased(), "subcategory": subcategory?.uuidString.lowercased(),
                "q": text, "colour": colour,
                "limit": limit.map(String.init), "cursor": cursor,
            ])
        )
    }

    /// A template with its pages, colours, labels and papers; signed in as its designer, the newest version (a draft too).
    public func cardTemplate(_ id: UUID) async throws -> CardTemplate {
        try await send("GET", "v1/cards/templates/\(id.uuidString.lowercased())", auth: await catalogueAuth)
    }

    /// A page of a template in a colour variant (`CardColour.id`; the first when nil) with its own text, as SVG (units mm).
    public func cardTemplatePreviewSVG(
        _ id: UUID,
        colour: String? = nil,
        page: CardPage = .front
    ) async throws -> String {
        let data = try await sendData(
            "GET",
            "v1/cards/templates/\(id.uuidString.lowercased())/preview.svg",
            query: Self.query(["colour": colour, "page": page.rawValue]),
            auth: await catalogueAuth
        )
        return String(decoding: data, as: UTF8.self)
    }

    /// A font cards are set in (`CardRules.fontIDs`), as its TrueType file: draw previews with the print's own outlines.
    public func cardFont(_ id: String) async throws -> Data {
        try await sendData("GET", "v1/cards/fonts/\(id)")
    }

    /// A piece of art a template names (`CardColour.art`), SVG or PNG as Plaza stored it.
    public func cardArt(_ id: UUID) async throws -> Data {
        try await sendData("GET", "v1/cards/art/\(id.uuidString.lowercased())")
    }

    /// Signed in when the client is, so a designer sees their own drafts; anonymous otherwise, as the catalogue allows.
    private var catalogueAuth: Auth {
        get async { await isSignedIn ? .required : .none }
    }
}

extension PlazaClient {
    // MARK: My designs

    /// Saves a design from a template's catalogue version, with a colour and label changes (`labels[i].<field>` when not allowed).
    public func createCardDesign(_ request: CardDesignRequest) async throws -> CardDesign {
        try await send("POST", "v1/cards/designs", body: request, auth: .required)
    }

    /// My saved designs, most recently changed first.
    public func cardDesigns(limit: Int? = nil, cursor: String? = nil) async throws -> Page<CardDesign> {
        try await send(
            "GET",
            "v1/cards/designs",
            query: Self.query(["limit": limit.map(String.init), "cursor": cursor]),
            auth: .required
        )
    }

    /// One of my designs with its preflight findings.
    public func cardDesign(_ id: UUID) async throws -> CardDesign {
        try await send("GET", "v1/cards/designs/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Changes a design's name, colour or labels (`templateId` is ignored); locked at the printer (`state_conflict`).
    public func updateCardDesign(_ id: UUID, _ change: CardDesignRequest) async throws -> CardDesign {
        try await send("PATCH", "v1/cards/designs/\(id.uuidString.lowercased())", body: change, auth: .required)
    }

    /// Deletes a design (not one at the printer).
    public func deleteCardDesign(_ id: UUID) async throws {
        try await sendVoid("DELETE", "v1/cards/designs/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Copies a design, named "… (copy)".
    public func duplicateCardDesign(_ id: UUID) async throws -> CardDesign {
        try await send("POST", "v1/cards/designs/\(id.uuidString.lowercased())/duplicate", auth: .required)
    }

    /// A page of a design as SVG (units mm), drawn from the print's layout; `guides` adds the trim, bleed and safe-area lines.
    public func cardDesignPreviewSVG(_ id: UUID, page: CardPage = .front, guides: Bool = false) async throws -> String {
        let data = try await sendData(
            "GET",
            "v1/cards/designs/\(id.uuidString.lowercased())/preview.svg",
            query: Self.query(["page": page.rawValue, "guides": guides ? "1" : nil]),
            auth: .required
        )
        return String(decoding: data, as: UTF8.self)
    }

    /// Where every line of every label goes (mm), and what preflight finds.
    public func cardDesignLayout(_ id: UUID) async throws -> CardDesignLayout {
        try await send("GET", "v1/cards/designs/\(id.uuidString.lowercased())/layout", auth: .required)
    }

    /// The print file, a PDF page per side: show it, then order with `CardProofApproval(designId:printFile:)` of these bytes.
    public func cardDesignPrintPDF(_ id: UUID) async throws -> Data {
        try await sendData("GET", "v1/cards/designs/\(id.uuidString.lowercased())/print.pdf", auth: .required)
    }
}
