import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore

/// The wallet pages: balance, top-up, send, history and pay code (`/wallet`), pending charges, receipts, and the
/// merchant's counter (`WalletPages+Charges.swift`, `WalletPages+Counter.swift`).
struct WalletPages: Sendable {
    let wallet: WalletService
    let renderer: PageRenderer
    let configuration: PlazaConfiguration

    static let notices: [String: String] = [
        "top-up": "Top-up started: the money shows once your card's bank confirms it, usually within seconds.",
        "sent": "Money sent.",
        "done": "That was done already.",
        "approved": "Paid. The receipt is in your history.",
        "declined": "Charge declined.",
        "charged": "Charge sent to the customer: it appears below until they answer.",
        "cancelled": "Charge cancelled.",
        "refunded": "Refund sent.",
        "withdrawn": "Withdrawal started: the money has left the balance and reaches the bank account on file in 1 to 3 working days.",
        "top-up-paid": "Payment done: the money shows in your balance as soon as the card processor confirms it, usually within seconds.",
        "top-up-cancelled": "Top-up cancelled: nothing was charged.",
        "bank-connected": "Bank account connected: your withdrawals go there now.",
        "bank-incomplete": "Your bank account is not connected yet: finish the processor's form, or check back in a few minutes.",
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("wallet", context: AuthenticatedContext.self)
        signedIn.get("", use: page)
        signedIn.post("top-up", use: topUp)
        signedIn.post("send", use: send)
        signedIn.post("withdraw", use: withdraw)
        signedIn.get("top-ups/:id/cancel", use: cancelTopUp)
        signedIn.post("payout-account", use: connectBank)
        signedIn.get("payout-account/return", use: bankReturn)
        signedIn.get("payout-account/refresh", use: bankRefresh)
        signedIn.post("pay-code", use: payCode)
        signedIn.get("activity.csv", use: csv)
        addChargeRoutes(to: signedIn)
        addCounterRoutes(to: signedIn)
    }

    var limit: Int { configuration.limits.maxRequestBody }
    var currency: String { configuration.wallet.currencies[0] }

    func notice(_ request: Request) -> String? {
        request.uri.queryParameters.get("notice").flatMap { Self.notices[$0] }
    }

    // MARK: Wallet

    struct WalletPage: Sendable {
        struct BalanceRow: Sendable {
            var available: String
            var pending: String?
        }

        var shell: Shell
        var balances: [BalanceRow]
        var currency: String
        var topUpForm: FormState
        var topUpKey: String
        /// A card processor is connected (`PLAZA_PAYMENT_GATEWAY`); else the page says top-ups are not set up.
        var takesCards: Bool
        /// The sandbox or a processor's test keys: test cards, no real money.
        var testMode: Bool
        /// The processor's page takes the card (Stripe Checkout): the form asks for the amount only.
        var hostedCards: Bool
        /// Withdrawals need a bank account connected with the processor first (`incomplete`: started, not finished).
        var connectBank: Bool
        var bankIncomplete: Bool
        var sendForm: FormState
        var sendKey: String
        var withdrawForm: FormState
        var withdrawKey: String
        var history: [ActivityRow]
        var olderCursor: String?
        var empty: Bool
        var pendingCharges: Int
        var hasPending: Bool
        var payCode: String?
        var payCodeExpires: String?
        /// Markup made by `QRCode` from the code's digits alone (never user text): the one unescaped value.
        var payCodeQR: String?
    }

    struct ActivityRow: Sendable {
        var date: String
        var time: String
        var title: String
        var detail: String?
        var amount: String
        var incoming: Bool
        var failed: Bool
        var status: String?
        var receipt: String?
    }

    @Sendable func page(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await render(context: context, cursor: request.uri.queryParameters.get("before"), notice: notice(request))
    }

    func render(
        context: AuthenticatedContext, cursor: String? = nil, notice: String? = nil, topUpForm: FormState? = nil, sendForm: FormState? = nil,
        withdrawForm: FormState? = nil, payCode: PayCode? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let balances = try await wallet.wallet(context.identity)
        let history = try await wallet.activity(
            owner: context.identity.user.id, filter: ActivityFilter(), limit: cursor == nil ? nil : 20, cursor: cursor)
        let pending = try await wallet.listCharges(context.identity, business: nil, statuses: [.pending], limit: 10, cursor: nil)
        let bank = wallet.gateway == nil ? .notNeeded : try await wallet.payoutAccount(context.identity).status
        let hosted = wallet.gateway?.cardEntry == .hostedPage
        let page = WalletPage(
            shell: Shell(title: "Wallet", context: context, notice: notice),
            balances: balances.balances.map {
                WalletPage.BalanceRow(
                    available: Money(amount: $0.available, currency: $0.currency).description,
                    pending: $0.pending > 0 ? Money(amount: $0.pending, currency: $0.currency).description : nil)
            },
            currency: currency, topUpForm: topUpForm ?? FormState(names: hosted ? ["amount"] : ["amount", "number", "expiry", "cvc"]),
            topUpKey: UUID().uuidString, takesCards: wallet.gateway != nil, testMode: wallet.gateway?.isTestMode ?? false, hostedCards: hosted,
            connectBank: bank == .none || bank == .incomplete, bankIncomplete: bank == .incomplete,
            sendForm: sendForm ?? FormState(names: ["to", "amount", "note"]), sendKey: UUID().uuidString,
            withdrawForm: withdrawForm ?? FormState(names: ["amount"]), withdrawKey: UUID().uuidString, history: history.items.map(Self.row),
            olderCursor: history.nextCursor, empty: history.items.isEmpty, pendingCharges: pending.items.count, hasPending: !pending.items.isEmpty,
            payCode: payCode.map { String($0.code.prefix(4)) + " " + String($0.code.suffix(4)) },
            payCodeExpires: payCode.map { RFC3339.format($0.expiresAt) },
            payCodeQR: payCode.flatMap { QRCode($0.qrPayload)?.svg(scale: 5) })
        return renderer.render("wallet/wallet", page, status: status)
    }

    static func row(_ entry: ActivityEntry) -> ActivityRow {
        let titles: [ActivityKind: String] = [
            .topUp: "Top-up", .withdrawal: "Withdrawal", .transferIn: "From", .transferOut: "To", .charge: entry.amount < 0 ? "Paid" : "Charged",
            .refund: "Refund",
        ]
        let who = entry.counterpart.username.map { "\(entry.counterpart.name) (@\($0))" } ?? entry.counterpart.name
        let amount = Money(amount: entry.amount, currency: entry.currency).description
        // A failed top-up or withdrawal moved nothing: no sign, no green, and the processor's reason.
        let failed = entry.status == .failed
        return ActivityRow(
            date: entry.createdAt.formatted(.dateTime.year().month(.abbreviated).day()), time: RFC3339.format(entry.createdAt),
            title: "\(titles[entry.kind] ?? "")\(failed ? " failed" : "") \(entry.kind == .topUp || entry.kind == .withdrawal ? "· " : "")\(who)",
            detail: failed ? WalletRules.failureReason(entry.failureCode) : entry.note,
            amount: failed || entry.amount <= 0 ? amount : "+" + amount, incoming: entry.amount > 0 && !failed, failed: failed,
            status: entry.status == .succeeded ? nil : entry.status.rawValue,
            receipt: entry.kind == .charge && entry.amount < 0 ? "/wallet/receipts/\(entry.referenceId.uuidString.lowercased())" : nil)
    }

    /// Tops up from the card on the form (the sandbox) or sends the customer to the processor's payment page.
    @Sendable func topUp(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let hosted = wallet.gateway?.cardEntry == .hostedPage
        let names = hosted ? ["amount"] : ["amount", "number", "expiry", "cvc"]
        var checkout: String?
        do {
            let expiry = form["expiry"].split(whereSeparator: { $0 == "/" || $0 == " " })
            let card = CardDetails(
                number: form["number"], expMonth: expiry.first.flatMap { Int($0) } ?? 0,
                expYear: expiry.count > 1 ? (Int(expiry[1]).map { $0 < 100 ? 2000 + $0 : $0 } ?? 0) : 0, cvc: form["cvc"])
            let amount = try Self.amount(form["amount"], currency: currency)
            let ran = try await once(form, action: "top-up", context: context) { claim in
                let request = TopUpRequest(amount: amount, currency: currency, card: hosted ? nil : card)
                checkout = try await wallet.topUp(context.identity, request, claim: claim).checkoutUrl
            }
            if !ran { return PageRenderer.seeOther("/wallet?notice=done") }
        } catch let error as PlazaError where error.status.code < 500 {
            var state = FormState(form, names: names, error: error)
            let fields = [
                ("card", "number"), ("card.number", "number"), ("card.expMonth", "expiry"), ("card.expYear", "expiry"), ("card.cvc", "cvc"),
            ]
            for (api, field) in fields where !hosted {
                guard let message = error.errors?.first(where: { $0.field == api })?.message else { continue }
                let earlier = state.fields[field]?.error
                state.fields[field, default: Field()].error = earlier.map { "\($0) \(message)" } ?? message
            }
            state.fields["number"]?.value = ""
            state.fields["cvc"]?.value = ""
            return try await render(context: context, topUpForm: state, status: error.status)
        }
        // To the processor's page; it sends the customer back to `/wallet?notice=top-up-paid` or to `cancelTopUp`.
        if let checkout { return Response(status: .seeOther, headers: [.location: checkout]) }
        return PageRenderer.seeOther("/wallet?notice=top-up")
    }

    /// Back from the processor's page without paying: the top-up is called off.
    @Sendable func cancelTopUp(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await wallet.cancelTopUp(context.identity, id: try Query.id(context.parameters, "id", "top-up"))
        return PageRenderer.seeOther("/wallet?notice=top-up-cancelled")
    }

    /// To the processor's page where the user connects the bank account their withdrawals go to.
    @Sendable func connectBank(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: limit)
        let onboarding = try await wallet.payoutOnboarding(context.identity)
        return Response(status: .seeOther, headers: [.location: onboarding.url])
    }

    @Sendable func bankReturn(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let account = try await wallet.refreshPayoutAccount(context.identity)
        return PageRenderer.seeOther(account.status == .ready ? "/wallet?notice=bank-connected#withdraw" : "/wallet?notice=bank-incomplete#withdraw")
    }

    /// The processor's link went stale (reloaded, or opened late): a fresh one.
    @Sendable func bankRefresh(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let onboarding = try await wallet.payoutOnboarding(context.identity)
        return Response(status: .seeOther, headers: [.location: onboarding.url])
    }

    @Sendable func send(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            let amount = try Self.amount(form["amount"], currency: currency)
            let ran = try await once(form, action: "send", context: context) { claim in
                _ = try await wallet.transfer(
                    context.identity, TransferRequest(to: form["to"], amount: amount, currency: currency, note: form.optional("note")), claim: claim)
            }
            if !ran { return PageRenderer.seeOther("/wallet?notice=done") }
        } catch let error as PlazaError where error.status.code < 500 {
            return try await render(context: context, sendForm: FormState(form, names: ["to", "amount", "note"], error: error), status: error.status)
        }
        return PageRenderer.seeOther("/wallet?notice=sent")
    }

    /// Pays money out of the wallet to the bank account on file.
    @Sendable func withdraw(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            let amount = try Self.amount(form["amount"], currency: currency)
            let ran = try await once(form, action: "withdraw", context: context) { claim in
                _ = try await wallet.withdraw(context.identity, WithdrawalRequest(amount: amount, currency: currency), claim: claim)
            }
            if !ran { return PageRenderer.seeOther("/wallet?notice=done") }
        } catch let error as PlazaError where error.status.code < 500 {
            return try await render(context: context, withdrawForm: FormState(form, names: ["amount"], error: error), status: error.status)
        }
        return PageRenderer.seeOther("/wallet?notice=withdrawn")
    }

    /// Shows a fresh pay code on the wallet page (never in a URL).
    @Sendable func payCode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await render(context: context, payCode: try await wallet.newPayCode(context.identity))
    }

    @Sendable func csv(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let csv = try await wallet.activityCSV(owner: context.identity.user.id, filter: ActivityFilter())
        return .csv(csv, filename: "plaza-activity.csv")
    }

    /// An amount typed in major units (`12.50`), or the `amount` field's problem.
    static func amount(_ text: String, currency: String) throws -> Int64 {
        guard let amount = WalletRules.parseAmount(text, currency: currency), amount > 0 else {
            throw PlazaError.validation(field: "amount", "Type an amount such as 12.50.")
        }
        return amount
    }

    /// Each money form carries a key made when it was rendered, so a double click or a resubmitted page acts once.
    /// Runs `body` with the form's claim; false when the same form was already sent and answered (the caller shows
    /// "done"). The same key with other values is refused, as is one whose first submission is still running. A
    /// failed attempt gives its key back, so the corrected form can be sent again.
    func once(
        _ form: FormData, action: String, context: AuthenticatedContext, _ body: (IdempotencyClaim) async throws -> Void
    ) async throws -> Bool {
        guard let claim = try await claim(form, action: action, context: context) else { return false }
        do {
            try await body(claim)
        } catch {
            try? await wallet.idempotency.abandon(claim)
            throw error
        }
        return true
    }

    private func claim(_ form: FormData, action: String, context: AuthenticatedContext) async throws -> IdempotencyClaim? {
        // A form without its key (an old page, a hand-made post) still acts, once per submission.
        let key = UUID(uuidString: form["idempotencyKey"]) != nil ? form["idempotencyKey"] : UUID().uuidString
        let fields = form.values.sorted { $0.key < $1.key }.filter { $0.key != "_csrf" }.map { "\($0.key)=\($0.value)\n" }.joined()
        let store = wallet.idempotency
        switch try await store.start(
            scope: "page:\(context.identity.user.id.uuidString)", key: "\(action):\(key)", requestHash: store.requestHash(Data(fields.utf8)),
            lease: store.lease)
        {
        case .started(let claim): return claim
        case .replay: return nil
        case .mismatch:
            throw PlazaError(
                .unprocessableContent, .idempotencyKeyReused, "This form was sent before with other values.", detail: "Reload the page and try again."
            )
        case .inProgress:
            throw PlazaError(.conflict, .conflict, "This form is still being processed.", detail: "Wait a moment, then reload the page.")
        }
    }
}
