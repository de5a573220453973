import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// Money in from a card ("Add money") and out to a bank ("Withdraw", from the user's own balance or a business's),
/// with the bank account connected once on the processor's page.
extension WalletPages {
    func addFundingRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("add-money", use: addMoneyForm)
        signedIn.post("top-up", use: topUp)
        signedIn.get("top-ups/:id/cancel", use: cancelTopUp)
        signedIn.get("withdraw", use: withdrawForm)
        signedIn.post("withdraw", use: withdraw)
        signedIn.post("payout-account", use: connectBank)
        signedIn.get("payout-account/return", use: bankReturn)
        signedIn.get("payout-account/refresh", use: bankRefresh)
    }

    // MARK: Add money

    struct AddMoneyPage: Sendable {
        var shell: Shell
        var form: FormState
        var key: String
        var currency: String
        /// A card processor is connected (`PLAZA_PAYMENT_GATEWAY`); else the page says top-ups are not set up.
        var takesCards: Bool
        /// The sandbox or a processor's test keys: test cards, no real money.
        var testMode: Bool
        /// The processor's page takes the card (Stripe Checkout): the form asks for the amount only.
        var hostedCards: Bool
        var balance: String
    }

    var cardFields: [String] {
        wallet.gateway?.cardEntry == .hostedPage ? ["amount"] : ["amount", "number", "expiry", "cvc"]
    }

    @Sendable func addMoneyForm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderAddMoney(context: context, form: context.page.form("top-up") ?? FormState(names: cardFields))
    }

    func renderAddMoney(context: AuthenticatedContext, form: FormState) async throws -> Response {
        let balance = try await wallet.wallet(context.identity).balances.first
        let page = AddMoneyPage(
            shell: Shell(title: say("Add money"), context: context),
            form: form,
            key: UUID().uuidString,
            currency: currency,
            takesCards: wallet.gateway != nil,
            testMode: wallet.gateway?.isTestMode ?? false,
            hostedCards: wallet.gateway?.cardEntry == .hostedPage,
            balance: context.reader.money(balance?.available ?? 0, balance?.currency ?? currency)
        )
        return renderer.render("wallet/add-money", page)
    }

    /// Tops up from the card on the form (the sandbox) or sends the customer to the processor's payment page; then the
    /// top-up's own page follows it live until the card's bank answers.
    @Sendable func topUp(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let hosted = wallet.gateway?.cardEntry == .hostedPage
        var started: TopUp?
        do {
            let expiry = WalletRules.parseExpiry(form["expiry"])
            let card = CardDetails(
                number: form["number"],
                expMonth: expiry.month,
                expYear: expiry.year,
                cvc: form["cvc"]
            )
            let amount = try Self.amount(form["amount"], currency: currency)
            let ran = try await once(form, action: "top-up", context: context) { claim in
                started = try await wallet.topUp(
                    context.identity,
                    TopUpRequest(amount: amount, currency: currency, card: hosted ? nil : card),
                    claim: claim
                )
            }
            if !ran { return PageRenderer.seeOther("/wallet?notice=done") }
        } catch let error as PlazaError where error.status.code < 500 {
            var state = FormState(form, names: cardFields, error: error)
            let fields = [
                ("card", "number"), ("card.number", "number"), ("card.expMonth", "expiry"), ("card.expYear", "expiry"),
                ("card.cvc", "cvc"),
            ]
            for (api, field) in fields where !hosted {
                guard let english = error.errors?.first(where: { $0.field == api })?.message else { continue }
                let message = PageLanguage.say(english)
                let earlier = state.fields[field]?.error
                state.fields[field, default: Field()].error = earlier.map { "\($0) \(message)" } ?? message
            }
            state.fields["number"]?.value = ""
            state.fields["cvc"]?.value = ""
            return renderer.refused("top-up", state, returnTo: "/wallet/add-money")
        }
        guard let started else { return PageRenderer.seeOther("/wallet") }
        // To the processor's page; it sends the customer back to the top-up's page or to `cancelTopUp`.
        if let checkout = started.checkoutUrl { return Response(status: .seeOther, headers: [.location: checkout]) }
        return PageRenderer.seeOther("/wallet/activity/\(started.id.uuidString.lowercased())")
    }

    /// Back from the processor's page without paying: the top-up is called off.
    @Sendable func cancelTopUp(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "top-up")
        try await wallet.cancelTopUp(context.identity, id: id)
        return PageRenderer.seeOther("/wallet/activity/\(id.uuidString.lowercased())?notice=top-up-cancelled")
    }

    // MARK: Withdraw

    struct WithdrawPage: Sendable {
        struct Source: Sendable {
            var value: String
            var label: String
            var selected: Bool
        }

        var shell: Shell
        var form: FormState
        var key: String
        var currency: String
        var takesCards: Bool
        var testMode: Bool
        var hostedCards: Bool
        /// Withdrawals need a bank account connected with the processor first (`incomplete`: started, not finished).
        var connectBank: Bool
        /// The second step of connecting a bank account (a code from the authenticator app).
        var connectBankForm: FormState
        var bankIncomplete: Bool
        var sources: [Source]
        var severalSources: Bool
    }

    static let withdrawFields = ["amount", "from"]

    @Sendable func withdrawForm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderWithdraw(
            context: context,
            form: context.page.form("withdraw")
                ?? FormState(FormData(request.uri.query ?? ""), names: Self.withdrawFields),
            notice: notice(request)
        )
    }

    func renderWithdraw(context: AuthenticatedContext, form: FormState, notice: String? = nil) async throws -> Response
    {
        let reader = context.reader
        let bank = wallet.gateway == nil ? .notNeeded : try await wallet.payoutAccount(context.identity).status
        let own = try await wallet.wallet(context.identity).balances.first
        let chosen = form.fields["from"]?.value ?? ""
        var sources = [
            WithdrawPage.Source(
                value: "",
                label: say(
                    "Your wallet · {balance}",
                    ["balance": reader.money(own?.available ?? 0, own?.currency ?? currency)]
                ),
                selected: chosen.isEmpty
            )
        ]
        for (business, balance) in try await wallet.ownedBusinessBalances(context.identity) {
            let id = business.id.uuidString.lowercased()
            sources.append(
                WithdrawPage.Source(
                    value: id,
                    label: "\(business.name) · \(reader.money(balance.available, balance.currency))",
                    selected: chosen == id
                )
            )
        }
        let page = WithdrawPage(
            shell: Shell(title: say("Withdraw"), context: context, notice: notice),
            form: form,
            key: UUID().uuidString,
            currency: currency,
            takesCards: wallet.gateway != nil,
            testMode: wallet.gateway?.isTestMode ?? false,
            hostedCards: wallet.gateway?.cardEntry == .hostedPage,
            connectBank: bank == .none || bank == .incomplete,
            connectBankForm: context.page.form("connectBank") ?? FormState(),
            bankIncomplete: bank == .incomplete,
            sources: sources,
            severalSources: sources.count > 1
        )
        return renderer.render("wallet/withdraw", page)
    }

    /// Pays money out of the wallet (or a business's, for its owners) to the bank account on file.
    @Sendable func withdraw(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        var made: Withdrawal?
        let business = UUID(uuidString: form["from"])
        do {
            let amount = try Self.amount(form["amount"], currency: currency)
            let ran = try await SecondFactorAnswer.$current.withValue(form["secondFactor"]) {
                try await once(form, action: "withdraw", context: context) { claim in
                    made = try await wallet.withdraw(
                        context.identity,
                        WithdrawalRequest(amount: amount, currency: currency, businessId: business),
                        claim: claim
                    )
                }
            }
            if !ran { return PageRenderer.seeOther("/wallet?notice=done") }
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "withdraw",
                FormState(form, names: Self.withdrawFields, error: error),
                returnTo: "/wallet/withdraw"
            )
        }
        guard let made else { return PageRenderer.seeOther("/wallet") }
        let query = business.map { "?business=\($0.uuidString.lowercased())" } ?? ""
        return PageRenderer.seeOther("/wallet/activity/\(made.id.uuidString.lowercased())\(query)")
    }

    /// To the processor's page where the user connects the bank account their withdrawals go to.
    @Sendable func connectBank(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            let onboarding = try await SecondFactorAnswer.$current.withValue(form["secondFactor"]) {
                try await wallet.payoutOnboarding(context.identity)
            }
            return Response(status: .seeOther, headers: [.location: onboarding.url])
        } catch let error as PlazaError where error.asksAgain {
            return renderer.refused(
                "connectBank",
                FormState(form, names: [], error: error),
                returnTo: "/wallet/withdraw"
            )
        }
    }

    @Sendable func bankReturn(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let account = try await wallet.refreshPayoutAccount(context.identity)
        return PageRenderer.seeOther(
            account.status == .ready
                ? "/wallet/withdraw?notice=bank-connected" : "/wallet/withdraw?notice=bank-incomplete"
        )
    }

    /// The processor's link went stale (reloaded, or opened late): a fresh one.
    @Sendable func bankRefresh(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        do {
            let onboarding = try await wallet.payoutOnboarding(context.identity)
            return Response(status: .seeOther, headers: [.location: onboarding.url])
        } catch let error as PlazaError where error.asksAgain {
            // A link opens no bank form without a second factor: the withdraw page's button asks for one.
            return PageRenderer.seeOther("/wallet/withdraw")
        }
    }
}
