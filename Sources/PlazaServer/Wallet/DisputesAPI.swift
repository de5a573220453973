import Foundation
import Hummingbird
import PlazaCore

/// `/v1/charges/{id}/disputes` and `/v1/disputes*` of `openapi.yaml`: a customer reports a problem with a paid charge,
/// the business answers (or refunds), the customer may ask Plaza to decide (the admins' review queue decides).
struct DisputesAPI: Sendable {
    let wallet: WalletService
    let maxBody: Int

    func addRoutes(to signedIn: SignedInRoutes) {
        // An answer may refund: it records its response in the transaction that moves the money.
        signedIn.money(.recordedWithWork).post("disputes/:id/answer", use: answer)
        let authenticated = signedIn.plain
        authenticated.post("charges/:id/disputes", use: open)
        authenticated.get("disputes", use: list)
        authenticated.get("disputes/:id", use: dispute)
        authenticated.post("disputes/:id/escalate", use: escalate)
    }

    @Sendable func open(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: DisputeRequest.self, limit: maxBody)
        let id = try Query.id(context.parameters, "id", "charge")
        return try .json(try await wallet.openDispute(context.identity, charge: id, body), status: .created)
    }

    /// The caller's disputes; `?businessId=` a business's, for its owners and staff.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let business = try request.uri.queryParameters.get("businessId").map { raw in
            guard let id = UUID(uuidString: raw) else {
                throw PlazaError.validation(field: "businessId", "Use a business's id.")
            }
            return id
        }
        return try .json(
            try await wallet.disputes(context.identity, business: business, limit: paging.limit, cursor: paging.cursor)
        )
    }

    @Sendable func dispute(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await wallet.dispute(context.identity, id: try Query.id(context.parameters, "id", "dispute")))
    }

    @Sendable func answer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: DisputeAnswer.self, limit: maxBody)
        return try .json(
            try await wallet.answerDispute(
                context.identity,
                id: try Query.id(context.parameters, "id", "dispute"),
                body,
                claim: context.idempotencyClaim
            )
        )
    }

    @Sendable func escalate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await wallet.escalateDispute(context.identity, id: try Query.id(context.parameters, "id", "dispute"))
        )
    }
}
