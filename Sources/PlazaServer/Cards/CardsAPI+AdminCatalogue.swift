import Hummingbird
import PlazaCore

/// The admins' `/v1/admin/cards/categories*` and `/v1/admin/cards/papers*`: the catalogue's shelves and papers.
extension CardsAPI {
    @Sendable func addCategory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardCategoryRequest.self, limit: maxBody)
        return try .json(try await cards.addCategory(body), status: .created)
    }

    @Sendable func updateCategory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardCategoryUpdate.self, limit: maxBody)
        return try .json(try await cards.updateCategory(try Query.id(context.parameters, "id", "category"), body))
    }

    @Sendable func addPaper(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardPaperRequest.self, limit: maxBody)
        return try .json(try await cards.savePaper(nil, body), status: .created)
    }

    @Sendable func savePaper(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardPaperRequest.self, limit: maxBody)
        return try .json(try await cards.savePaper(try Query.id(context.parameters, "id", "paper"), body))
    }
}
