import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore

/// `/v1/wallet*`, `/v1/transfers`, `/v1/activity*`, `/v1/me/pay-codes`, `/v1/me/charge-blocks*` and the processor's
/// `/v1/webhooks/gateway`: the wallet API of `openapi.yaml` (charges are in `ChargesAPI`).
struct WalletAPI: Sendable {
    let wallet: WalletService
    let maxBody: Int

    func addRoutes(to v1: RouterGroup<AppRequestContext>, signedIn: SignedInRoutes) {
        v1.post("webhooks/gateway", use: webhook)
        v1.post("webhooks/stripe", use: webhook)
        // Transfers are batched: each writes its key with its batch, so a new key costs no statement of its own.
        signedIn.money(.deferred).post("transfers", use: transfer)
        signedIn.money(.recordedWithWork).post("wallet/top-ups", use: topUp).post("wallet/withdrawals", use: withdraw)
        let authenticated = signedIn.plain
        authenticated.get("wallet", use: balances)
        authenticated.get("wallet/top-ups/:id", use: topUpStatus)
        authenticated.get("wallet/withdrawals/:id", use: withdrawalStatus)
        authenticated.get("me/payout-account", use: payoutAccount)
        authenticated.post("me/payout-account/onboarding", use: payoutOnboarding)
        authenticated.get("activity", use: activity)
        authenticated.get("activity.csv", use: activityCSV)
        authenticated.post("me/pay-codes", use: payCode)
        authenticated.get("me/charge-blocks", use: blocks)
        authenticated.put("me/charge-blocks/:businessId", use: block)
        authenticated.delete("me/charge-blocks/:businessId", use: unblock)
        authenticated.get("me/contacts", use: contacts)
        authenticated.get("people/suggest", use: suggestPeople)
    }

    /// Signed in: people a payment could go to for the typed text (`?q=car`), for a pay form's type-ahead.
    @Sendable func suggestPeople(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let typed = request.uri.queryParameters.get("q") ?? ""
        return try .json(Page(items: try await wallet.suggestPeople(context.identity, typed: typed), nextCursor: nil))
    }

    /// Signed in: the people the caller last paid or was paid by, most recent first (a payment's "recent" list).
    @Sendable func contacts(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await wallet.contacts(context.identity), nextCursor: nil))
    }

    /// Signed in: balances per currency.
    @Sendable func balances(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await wallet.wallet(context.identity))
    }

    /// Verified users: money in from a card; pending until the processor's webhook.
    @Sendable func topUp(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: TopUpRequest.self, limit: maxBody)
        return try .json(
            try await wallet.topUp(context.identity, body, claim: context.idempotencyClaim),
            status: .created
        )
    }

    @Sendable func topUpStatus(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await wallet.funding(context.identity, id: try Query.id(context.parameters, "id", "top-up"), .topUp)
                .topUp
        )
    }

    /// Verified users: money out to the bank, leaving the balance at once.
    @Sendable func withdraw(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: WithdrawalRequest.self, limit: maxBody)
        return try .json(
            try await wallet.withdraw(context.identity, body, claim: context.idempotencyClaim),
            status: .created
        )
    }

    /// Where withdrawals go: `ready`, or what is missing.
    @Sendable func payoutAccount(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await wallet.payoutAccount(context.identity))
    }

    /// Verified users: the processor's page where they connect a bank account.
    @Sendable func payoutOnboarding(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await wallet.payoutOnboarding(context.identity), status: .created)
    }

    @Sendable func withdrawalStatus(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await wallet.funding(
                context.identity,
                id: try Query.id(context.parameters, "id", "withdrawal"),
                .withdrawal
            ).withdrawal
        )
    }

    /// Verified users: money to another user, at once.
    @Sendable func transfer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: TransferRequest.self, limit: maxBody)
        return .json(
            encoded: try await wallet.transfer(context.identity, body, claim: context.idempotencyClaim).json,
            status: .created
        )
    }

    /// Signed in: the caller's history (or a business's, `?businessId=`, for its people).
    @Sendable func activity(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (owner, filter) = try await scope(request, context)
        let limit = request.uri.queryParameters.get("limit") == nil ? nil : try Paging(request.uri).limit
        return try .json(
            try await wallet.activity(
                owner: owner,
                filter: filter,
                limit: limit,
                cursor: try Paging(request.uri).cursor
            )
        )
    }

    @Sendable func activityCSV(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (owner, filter) = try await scope(request, context)
        let csv = try await wallet.activityCSV(owner: owner, filter: filter)
        return .csv(csv, filename: "plaza-activity.csv")
    }

    private func scope(_ request: Request, _ context: AuthenticatedContext) async throws -> (UUID, ActivityFilter) {
        let query = request.uri.queryParameters
        var business: UUID?
        if let text = query.get("businessId") {
            guard let id = UUID(uuidString: text) else {
                throw PlazaError.validation(field: "businessId", "Use a business id.")
            }
            business = id
        }
        let owner = try await wallet.historyOwner(context.identity, business: business)
        return (
            owner,
            try await wallet.activityFilter(
                query.get("kind"),
                counterpart: query.get("counterpart"),
                from: query.get("from"),
                until: query.get("until")
            )
        )
    }

    /// Verified users: a two-minute, single-use code to show at the counter.
    @Sendable func payCode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await wallet.newPayCode(context.identity), status: .created)
    }

    @Sendable func blocks(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await wallet.blocks(context.identity), nextCursor: nil))
    }

    /// The caller refuses charges from this business from now on.
    @Sendable func block(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await wallet.setBlocked(
            context.identity,
            business: try Query.id(context.parameters, "businessId", "business"),
            blocked: true
        )
        return .noContent
    }

    @Sendable func unblock(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await wallet.setBlocked(
            context.identity,
            business: try Query.id(context.parameters, "businessId", "business"),
            blocked: false
        )
        return .noContent
    }

    /// The processor: a signed event about a top-up, withdrawal or payout account (`/v1/webhooks/gateway` for the
    /// sandbox, `/v1/webhooks/stripe` for Stripe; the other one answers 404).
    @Sendable func webhook(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.body(upTo: 64 * 1024)
        let name = String(request.uri.path.split(separator: "/").last ?? "")
        try await wallet.webhook(name, body: Data(body.readableBytesView), headers: request.headers)
        return try .json(Acknowledgement(status: "ok"))
    }
}
