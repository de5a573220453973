import Foundation
import Hummingbird
import PlazaCore

/// `/v1/charges*`, `/v1/me/charges` and `/v1/businesses/{id}/charges|daily-totals|wallet`: charge requests of `openapi.yaml`.
struct ChargesAPI: Sendable {
    let wallet: WalletService
    let maxBody: Int

    func addRoutes(to signedIn: SignedInRoutes) {
        // Creating, approving and refunding record their answer in the transaction that moves the money.
        signedIn.money(.recordedWithWork).post("charges", use: create).post("charges/:id/approve", use: approve).post(
            "charges/:id/refunds",
            use: refund
        ).post("payment-requests", use: requestPayment)
        let authenticated = signedIn.plain
        authenticated.get("charges/:id", use: charge)
        authenticated.post("charges/:id/decline", use: decline)
        authenticated.post("charges/:id/cancel", use: cancel)
        // Moves no money: the charge's amount drops, paid later by the approval (which takes its key).
        authenticated.post("charges/:id/coupon", use: applyCoupon)
        authenticated.get("charges/:id/receipt", use: receipt)
        authenticated.get("me/charges", use: mine)
        authenticated.get("me/payment-requests", use: sentRequests)
        authenticated.get("businesses/:id/charges", use: businessCharges)
        authenticated.get("businesses/:id/daily-totals", use: dailyTotals)
        authenticated.get("businesses/:id/wallet", use: businessWallet)
    }

    /// Owners and staff: ask a present customer (or one who showed a pay code) to pay.
    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CreateChargeRequest.self, limit: maxBody)
        return try .json(
            try await wallet.createCharge(context.identity, body, claim: context.idempotencyClaim),
            status: .created
        )
    }

    @Sendable func charge(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await wallet.chargeView(context.identity, id: try id(context)))
    }

    /// The customer: pay it, confirming what was shown.
    @Sendable func approve(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ApproveChargeRequest.self, limit: maxBody)
        return try .json(
            try await wallet.approveCharge(context.identity, id: try id(context), body, claim: context.idempotencyClaim)
        )
    }

    @Sendable func decline(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await wallet.endCharge(context.identity, id: try id(context), as: .declined))
    }

    /// The customer: take one of their claimed coupons off a charge that waits for them.
    @Sendable func applyCoupon(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ApplyCouponRequest.self, limit: maxBody)
        return try .json(try await wallet.applyCoupon(context.identity, id: try id(context), body))
    }

    /// Owners and staff: withdraw a pending charge.
    @Sendable func cancel(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await wallet.endCharge(context.identity, id: try id(context), as: .cancelled))
    }

    /// Owners and staff: give money back.
    @Sendable func refund(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: RefundRequest.self, limit: maxBody)
        return try .json(
            try await wallet.refundCharge(context.identity, id: try id(context), body, claim: context.idempotencyClaim)
        )
    }

    /// JSON, or the PDF to download or share when the client asks for `application/pdf`.
    @Sendable func receipt(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let accept = request.headers[.accept] ?? ""
        if accept.contains("application/pdf") && !accept.contains("application/json") {
            return try await wallet.receiptPDF(context.identity, id: try id(context), reader: context.reader)
        }
        return try .json(try await wallet.receipt(context.identity, id: try id(context)))
    }

    /// The caller's charges as a customer, newest first; `?status=pending` for those waiting.
    @Sendable func mine(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await wallet.listCharges(
                context.identity,
                business: nil,
                statuses: try statuses(request),
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    /// Verified users: ask a person to pay; they answer it as a charge.
    @Sendable func requestPayment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CreatePaymentRequest.self, limit: maxBody)
        return try .json(
            try await wallet.requestPayment(context.identity, body, claim: context.idempotencyClaim),
            status: .created
        )
    }

    /// Signed in: the payment requests the caller sent, newest first.
    @Sendable func sentRequests(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await wallet.sentPaymentRequests(
                context.identity,
                statuses: try statuses(request),
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    @Sendable func businessCharges(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let business = try Query.id(context.parameters, "id", "business")
        return try .json(
            try await wallet.listCharges(
                context.identity,
                business: business,
                statuses: try statuses(request),
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    @Sendable func dailyTotals(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let business = try Query.id(context.parameters, "id", "business")
        var days = 30
        if let text = request.uri.queryParameters.get("days") {
            guard let value = Int(text), (1...366).contains(value) else {
                throw PlazaError.validation(field: "days", "Use 1 to 366.")
            }
            days = value
        }
        return try .json(
            Page(items: try await wallet.dailyTotals(context.identity, business: business, days: days), nextCursor: nil)
        )
    }

    @Sendable func businessWallet(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await wallet.businessWallet(
                context.identity,
                business: try Query.id(context.parameters, "id", "business")
            )
        )
    }

    private func id(_ context: AuthenticatedContext) throws -> UUID {
        try Query.id(context.parameters, "id", "charge")
    }

    private func statuses(_ request: Request) throws -> [ChargeStatus] {
        try (request.uri.queryParameters.get("status") ?? "").split(separator: ",").map { text in
            guard let status = ChargeStatus(rawValue: String(text)) else {
                throw PlazaError.validation(
                    field: "status",
                    say("Use {codes}.", ["codes": ChargeStatus.allCases.map(\.rawValue).joined(separator: ", ")])
                )
            }
            return status
        }
    }
}
