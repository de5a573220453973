import Foundation
import PlazaCore

/// Payment disputes: the customer reports a problem with a paid charge, the business answers (or refunds), and the
/// customer may ask Plaza to decide.
extension PlazaClient {
    /// The customer of a paid charge reports what went wrong.
    public func openDispute(charge: UUID, _ request: DisputeRequest) async throws -> Dispute {
        try await send("POST", "v1/charges/\(charge.uuidString.lowercased())/disputes", body: request, auth: .required)
    }

    /// Your disputes as a customer, or (`business`) that business's, for its owners and staff; newest first.
    public func disputes(business: UUID? = nil, limit: Int? = nil, cursor: String? = nil) async throws -> Page<Dispute>
    {
        var query: [URLQueryItem] = []
        if let business { query.append(URLQueryItem(name: "businessId", value: business.uuidString.lowercased())) }
        if let limit { query.append(URLQueryItem(name: "limit", value: String(limit))) }
        if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
        return try await send("GET", "v1/disputes", query: query, auth: .required)
    }

    public func dispute(_ id: UUID) async throws -> Dispute {
        try await send("GET", "v1/disputes/\(id.uuidString.lowercased())", auth: .required)
    }

    /// The business answers; with `refund` the money goes back through the charge's refund (retried with one key).
    public func answerDispute(
        _ id: UUID,
        _ answer: DisputeAnswer,
        idempotencyKey: String? = nil
    ) async throws
        -> Dispute
    {
        try await sendMoney(
            "POST",
            "v1/disputes/\(id.uuidString.lowercased())/answer",
            body: answer,
            idempotencyKey: idempotencyKey
        )
    }

    /// The customer asks Plaza's admins to decide.
    public func escalateDispute(_ id: UUID) async throws -> Dispute {
        try await send("POST", "v1/disputes/\(id.uuidString.lowercased())/escalate", auth: .required)
    }
}
