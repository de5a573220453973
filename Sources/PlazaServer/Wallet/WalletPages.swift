import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore
import PlazaMedia

/// The wallet pages: balance, actions, pay code and history (`/wallet`); paying and requesting (`+Send`), adding and
/// withdrawing money (`+Funding`), one movement's page (`+Activity`), pending charges and receipts (`+Charges`) and
/// the merchant's counter (`+Counter`).
struct WalletPages: Sendable {
    let wallet: WalletService
    /// Who a handle names, for a payment's confirmation.
    let accounts: AccountService
    /// The customer's claimed coupons, offered on a charge that waits for them.
    let offers: OffersService
    let renderer: PageRenderer
    let configuration: PlazaConfiguration

    /// Confirmations by `?notice=`; the activity page words those that name an amount and a person itself.
    static let notices: [String: String] = [
        "done": phrase("This was sent already; nothing was charged or sent twice."),
        "declined": phrase("Charge declined: nothing was paid."),
        "coupon": phrase("Coupon applied: the charge now asks the amount shown below."),
        "charged": phrase("Charge sent to the customer: it appears below until they answer."),
        "cancelled": phrase("Charge cancelled."),
        "refunded": phrase("Refund sent."),
        "top-up-cancelled": phrase("Top-up cancelled: nothing was charged."),
        "top-up-paid":
            phrase(
                "Payment done: the money shows in your balance as soon as the card processor confirms it, usually within seconds."
            ),
        "bank-connected": phrase("Bank account connected: your withdrawals go there now."),
        "bank-incomplete":
            phrase(
                "Your bank account is not connected yet: finish the processor's form, or check back in a few minutes."
            ),
        "blocked": phrase("Blocked: this business cannot ask you to pay any more."),
        "request-cancelled": phrase("Request called off: they will not be asked to pay it."),
        "unblocked": phrase("Unblocked: this business can ask you to pay again."),
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("wallet", context: AuthenticatedContext.self)
        signedIn.get("", use: page)
        signedIn.post("pay-code", use: payCode)
        signedIn.get("activity.csv", use: csv)
        addSendRoutes(to: signedIn)
        addRequestRoutes(to: signedIn)
        addFundingRoutes(to: signedIn)
        addActivityRoutes(to: signedIn)
        addChargeRoutes(to: signedIn)
        addCounterRoutes(to: signedIn)
        addPayQRRoutes(to: signedIn)
        addDisputeRoutes(to: signedIn)
    }

    var limit: Int { configuration.limits.maxRequestBody }
    var currency: String { configuration.wallet.currencies[0] }

    func notice(_ request: Request) -> String? {
        request.uri.queryParameters.get("notice").flatMap { Self.notices[$0] }.map { say($0) }
    }

    // MARK: Wallet

    struct WalletPage: Sendable {
        var shell: Shell
        var balance: String
        var pending: String?
        var history: [ActivityRow]
        var olderLink: String?
        var newerLink: String?
        var empty: Bool
        var waitingTitle: String?
        var payCode: String?
        var payCodeExpires: String?
        var payCodeTime: String?
        /// Markup made by `QRCode` from the code's digits alone (never user text): the one unescaped value.
        var payCodeQR: String?
        /// Claimed coupons waiting for the counter, each linking to its code's QR.
        var coupons: [CouponRow]
        var hasCoupons: Bool
        /// The newest requests the reader sent to friends, whatever became of them.
        var sentRequests: [RequestPage.Sent] = []
        var hasSentRequests = false
    }

    struct CouponRow: Sendable {
        var link: String
        var title: String
        var business: String
        var deal: String?
        var code: String
        var ends: String
    }

    struct ActivityRow: Sendable {
        var link: String
        var when: String
        var time: String
        var title: String
        var detail: String?
        var amount: String
        var incoming: Bool
        var failed: Bool
        var status: String?
    }

    /// The coupons the customer claimed and has not used: they wait in the wallet for the counter.
    func coupons(_ context: AuthenticatedContext) async throws -> [CouponRow] {
        let current = try await offers.offers(context.identity, history: false, limit: 50, cursor: nil)
        return current.items.compactMap { offer in
            guard let claim = offer.claim, claim.status == .claimed else { return nil }
            return CouponRow(
                link: "/offers/\(offer.id.uuidString.lowercased())",
                title: offer.title,
                business: offer.business.name,
                deal: OffersPages.deal(offer, reader: context.reader),
                code: claim.code,
                ends: say("until {day}", ["day": context.reader.day(claim.expiresAt)])
            )
        }
    }

    @Sendable func page(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await render(request, context: context, notice: notice(request))
    }

    func render(
        _ request: Request,
        context: AuthenticatedContext,
        notice: String? = nil,
        payCode: PayCode? = nil
    ) async throws -> Response {
        let reader = context.reader
        let owner = context.identity.user.id
        let query = request.uri.queryParameters
        let balances = try await wallet.wallet(context.identity)
        // Paging both ways: `older` (and the API's cursor) reads further back, `newer` comes forward again.
        var items: [ActivityEntry]
        var older: String?
        var newer: String?
        if let cursor = query.get("newer").flatMap({ $0.isEmpty ? nil : $0 }) {
            let page = try await wallet.newerActivity(owner: owner, cursor: cursor, limit: 20)
            items = page.items
            newer = page.more ? items.first.map { RowCursor(id: $0.id).encoded } : nil
            older = items.last.map { RowCursor(id: $0.id).encoded }
        } else {
            let cursor = query.get("older").flatMap { $0.isEmpty ? nil : $0 }
            let page = try await wallet.activity(
                owner: owner,
                filter: ActivityFilter(),
                limit: cursor == nil ? nil : 20,
                cursor: cursor
            )
            items = page.items
            older = page.nextCursor
            newer = cursor == nil ? nil : items.first.map { RowCursor(id: $0.id).encoded }
        }
        let waiting = context.page.badges?.charges ?? 0
        let first = balances.balances.first
        let coupons = try await coupons(context)
        let sent = try await sentRequests(context, limit: 5)
        var page = WalletPage(
            shell: Shell(title: say("Wallet"), context: context, notice: notice),
            balance: reader.money(first?.available ?? 0, first?.currency ?? currency),
            pending: first.flatMap { $0.pending > 0 ? reader.money($0.pending, $0.currency) : nil },
            history: items.map { Self.row($0, reader: reader) },
            olderLink: older.map { "/wallet?older=\(Self.escape($0))#history" },
            newerLink: newer.map { "/wallet?newer=\(Self.escape($0))#history" },
            empty: items.isEmpty,
            waitingTitle: waiting == 0
                ? nil : say("{payments} to answer", ["payments": reader.count(waiting, "count.payment")]),
            payCode: payCode.map { String($0.code.prefix(4)) + " " + String($0.code.suffix(4)) },
            payCodeExpires: payCode.map { reader.machine($0.expiresAt) },
            payCodeTime: payCode.map { reader.time($0.expiresAt) },
            payCodeQR: payCode.flatMap { QRCode($0.qrPayload)?.svg(scale: 5) },
            coupons: coupons,
            hasCoupons: !coupons.isEmpty
        )
        (page.sentRequests, page.hasSentRequests) = (sent, !sent.isEmpty)
        return renderer.render("wallet/wallet", page)
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    /// A history line: who, when and how much; it opens the movement's page.
    static func row(_ entry: ActivityEntry, reader: Reader, business: UUID? = nil) -> ActivityRow {
        // A failed top-up or withdrawal moved nothing: no sign, no green, and the processor's reason.
        let failed = entry.status == .failed
        let amount = reader.money(entry.amount, entry.currency, signed: !failed && entry.amount > 0)
        let query = business.map { "?business=\($0.uuidString.lowercased())" } ?? ""
        return ActivityRow(
            link: "/wallet/activity/\(entry.referenceId.uuidString.lowercased())\(query)",
            when: reader.when(entry.createdAt),
            time: reader.machine(entry.createdAt),
            title: failed ? say("{title} · failed", ["title": title(entry)]) : title(entry),
            detail: failed ? failureReason(entry.failureCode) : entry.note,
            amount: amount,
            incoming: entry.amount > 0 && !failed,
            failed: failed,
            status: entry.status == .pending ? say("pending") : nil
        )
    }

    /// "To Carla Kim", "Paid Bruno's Bakery", "Added money": what a movement was, in a few words.
    static func title(_ entry: ActivityEntry) -> String {
        let who = ["who": entry.counterpart.name]
        return switch entry.kind {
        case .topUp: say("Added money · {who}", who)
        case .withdrawal: say("Withdrawal · {who}", who)
        case .transferIn: say("From {who}", who)
        case .transferOut: say("To {who}", who)
        case .charge: entry.amount < 0 ? say("Paid {who}", who) : say("Charged {who}", who)
        case .refund: entry.amount > 0 ? say("Refund from {who}", who) : say("Refund to {who}", who)
        case .marketHold: say("Held for {who}'s item", who)
        case .marketRefund: say("Returned · deal with {who}", who)
        case .marketSale: say("Sold to {who}", who)
        case .cardOrder: say("Cards · {who}", who)
        case .cardRefund: say("Refund · {who}", who)
        }
    }

    /// `WalletRules.failureReason` in the reader's words: why the card processor refused a top-up or withdrawal.
    static func failureReason(_ code: String?) -> String {
        switch code {
        case "card_declined", "generic_decline", "do_not_honor": say("Your card was declined.")
        case "insufficient_funds": say("Your card has insufficient funds.")
        case "expired_card": say("Your card has expired.")
        case "incorrect_cvc": say("The card's security code was wrong.")
        case "processing_error": say("The card processor did not confirm it; nothing was charged.")
        case "cancelled": say("You cancelled on the payment page.")
        case "expired": say("The payment page was left before paying; nothing was charged.")
        case "balance_insufficient":
            say("The card processor could not pay it out yet; the money is back in your wallet.")
        case .some(let code):
            say("The card processor refused it ({code}).", ["code": code.replacingOccurrences(of: "_", with: " ")])
        case nil: say("The card processor refused it.")
        }
    }

    /// Shows a fresh pay code on the wallet page (never in a URL).
    @Sendable func payCode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await render(request, context: context, payCode: try await wallet.newPayCode(context.identity))
    }

    @Sendable func csv(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let csv = try await wallet.activityCSV(owner: context.identity.user.id, filter: ActivityFilter())
        return .csv(csv, filename: "plaza-activity.csv")
    }

    /// An amount typed in major units (`12.50`), or the `amount` field's problem.
    static func amount(_ text: String, currency: String) throws -> Int64 {
        guard let amount = WalletRules.parseAmount(text, currency: currency), amount > 0 else {
            throw PlazaError.validation(field: "amount", phrase("Type an amount such as 12.50."))
        }
        return amount
    }

    /// Each money form acts once (`IdempotencyStore.once`): false when the same form was already sent and answered.
    func once(
        _ form: FormData,
        action: String,
        context: AuthenticatedContext,
        _ body: (IdempotencyClaim) async throws -> Void
    ) async throws -> Bool {
        try await wallet.idempotency.once(form, action: action, user: context.identity.user.id, body)
    }
}
