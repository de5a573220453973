import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: The designers' studio

    /// Uploads a page's art (`image/svg+xml` of flat colours and paths, or `image/png`, at most 20 MB) to name in a template.
    public func uploadCardArt(_ data: Data, contentType: String) async throws -> CardArtUpload {
        try await upload("v1/cards/art", data, contentType: contentType)
    }

    /// Creates a template as a draft only I (and admins) see; designers only (`forbidden`).
    public func createCardTemplate(_ request: CardTemplateRequest) async throws -> CardTemplate {
        try await send("POST", "v1/cards/templates", body: request, auth: .required)
    }

    /// Saves a new version of my template: a draft again, while the catalogue keeps the approved one until review.
    public func updateCardTemplate(_ id: UUID, _ request: CardTemplateRequest) async throws -> CardTemplate {
        try await send("PATCH", "v1/cards/templates/\(id.uuidString.lowercased())", body: request, auth: .required)
    }

    /// Sends my template to the admins' review queue (`preflight_failed` when its own text does not fit).
    public func submitCardTemplate(_ id: UUID) async throws -> CardTemplate {
        try await send("POST", "v1/cards/templates/\(id.uuidString.lowercased())/submit", auth: .required)
    }

    /// What my templates sold: orders, cards and revenue per template and in all; designers only (`forbidden`).
    public func myCardSales() async throws -> CardDesignerSales {
        try await send("GET", "v1/cards/me/sales", auth: .required)
    }

    /// My templates in every state, newest change first.
    public func myCardTemplates() async throws -> [CardTemplateSummary] {
        let page: Page<CardTemplateSummary> = try await send("GET", "v1/cards/me/templates", auth: .required)
        return page.items
    }
}
