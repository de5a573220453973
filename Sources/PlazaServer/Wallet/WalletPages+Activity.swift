import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// One movement's own page: what it was, with whom, when, its status and reference, what followed (refunds), and
/// what to do next (the receipt, paying the person again, blocking a business that charged). A top-up or withdrawal
/// still under way follows its processor live. Success screens are this page with their sentence on top.
extension WalletPages {
    func addActivityRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("activity/:id", use: movement)
        signedIn.get("activity/:id/live", use: movementFragment)
        signedIn.post("blocks/:businessId", use: block)
        signedIn.post("blocks/:businessId/delete", use: unblock)
    }

    struct MovementPage: Sendable {
        var shell: Shell
        var status: MovementStatus
        var id: String
        var title: String
        var counterpart: String
        var kind: String
        var when: String
        var time: String
        var note: String?
        var reference: String
        var person: Contact?
        var refunds: [Refund]
        var hasRefunds: Bool
        var receipt: String?
        /// What paying a shop earned on loyalty cards.
        var loyalty: [String] = []
        var payAgain: String?
        var block: BlockForm?
    }

    /// The part of the page that changes while a processor works: followed live while pending.
    struct MovementStatus: Sendable {
        var amount: String
        var incoming: Bool
        var failed: Bool
        var headline: String
        var detail: String?
        var succeeded: Bool
        var retry: String?
        var live: String?
    }

    struct Refund: Sendable {
        var when: String
        var amount: String
        /// The business's reason, when it gave one.
        var reason: String?
    }

    struct BlockForm: Sendable {
        var businessId: String
        var name: String
        var blocked: Bool
    }

    func loadMovement(
        _ request: Request,
        _ context: AuthenticatedContext
    ) async throws -> (entries: [ActivityEntry], business: UUID?) {
        let id = try Query.id(context.parameters, "id", "payment")
        let business = request.uri.queryParameters.get("business").flatMap(UUID.init(uuidString:))
        return (try await wallet.movement(context.identity, reference: id, business: business), business)
    }

    @Sendable func movement(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (entries, business) = try await loadMovement(request, context)
        let reader = context.reader
        let main = entries[0]
        let refunds = entries.dropFirst().filter { $0.kind == .refund }
        let notice = request.uri.queryParameters.get("notice")
        var block: BlockForm?
        if main.kind == .charge, main.amount < 0, business == nil, let shop = main.counterpart.id {
            let blocked = try await wallet.blocks(context.identity).contains { $0.business.id == shop }
            block = BlockForm(businessId: shop.uuidString.lowercased(), name: main.counterpart.name, blocked: blocked)
        }
        let person = main.counterpart.username.map {
            Self.contact(Person(username: $0, displayName: main.counterpart.name))
        }
        var page = MovementPage(
            shell: Shell(title: Self.title(main), context: context, notice: notice.flatMap { Self.notices[$0] }),
            status: Self.status(main, request: request, reader: reader, notice: notice),
            id: main.referenceId.uuidString.lowercased(),
            title: Self.title(main),
            counterpart: main.counterpart.name,
            kind: Self.kindName(main),
            when: reader.full(main.createdAt),
            time: reader.machine(main.createdAt),
            // A charge's note is its receipt number (PZ-…): the reference people quote.
            note: main.kind == .charge || main.kind == .refund ? nil : main.note,
            reference: main.kind == .charge || main.kind == .refund
                ? main.note ?? main.referenceId.uuidString.lowercased()
                : main.referenceId.uuidString.lowercased(),
            person: person,
            refunds: refunds.map {
                Refund(
                    when: reader.when($0.createdAt),
                    amount: reader.money($0.amount, $0.currency, signed: $0.amount > 0),
                    // A refund's line carries the business's reason, else the receipt number the charge has too.
                    reason: $0.note == main.note ? nil : $0.note
                )
            },
            hasRefunds: !refunds.isEmpty,
            receipt: main.kind == .charge && main.amount < 0
                ? "/wallet/receipts/\(main.referenceId.uuidString.lowercased())" : nil,
            payAgain: main.kind == .transferOut || main.kind == .transferIn
                ? person.map { "/wallet/send?to=\($0.username)" } : nil,
            block: block
        )
        if main.kind == .charge, main.amount < 0, business == nil {
            // A shop's charge; a marketplace hold or a card order has none of its own to show.
            let charge = try? await wallet.chargeView(context.identity, id: main.referenceId)
            page.loyalty = ChargeRow.loyalty(charge?.loyalty ?? [], reader: reader)
        }
        return renderer.render("wallet/activity", page)
    }

    @Sendable func movementFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (entries, _) = try await loadMovement(request, context)
        return renderer.render(
            "wallet/activity-status",
            Self.status(entries[0], request: request, reader: context.reader, notice: nil)
        )
    }

    static func kindName(_ entry: ActivityEntry) -> String {
        switch entry.kind {
        case .topUp: "Money added from a card"
        case .withdrawal: "Withdrawal to a bank account"
        case .transferIn: "Payment received"
        case .transferOut: "Payment sent"
        case .charge: entry.amount < 0 ? "Paid in a shop" : "Charge paid by a customer"
        case .refund: "Refund"
        case .marketHold: "Held by Plaza until the handshake"
        case .marketRefund: "Held money returned"
        case .marketSale: "Marketplace sale"
        case .cardOrder: "Card shop order"
        case .cardRefund: "Card shop refund"
        }
    }

    /// The sentence at the top: what happened ("You sent $7.25 to Carla K."), or where it stands.
    static func status(_ entry: ActivityEntry, request: Request, reader: Reader, notice: String?) -> MovementStatus {
        let money = reader.money(entry.amount.magnitude > 0 ? Int64(entry.amount.magnitude) : 0, entry.currency)
        let name = Person(username: entry.counterpart.username ?? "", displayName: entry.counterpart.name).shortName
        var status = MovementStatus(
            amount: reader.money(entry.amount, entry.currency, signed: entry.status != .failed && entry.amount > 0),
            incoming: entry.amount > 0 && entry.status != .failed,
            failed: entry.status == .failed,
            headline: "",
            succeeded: entry.status == .succeeded
        )
        switch (entry.kind, entry.status) {
        case (.topUp, .pending):
            status.headline = "Waiting for your card's bank…"
            status.detail =
                "This usually takes a few seconds. You can leave this page: the money shows in your balance when it arrives."
        case (.topUp, .succeeded): status.headline = "Added \(money) to your balance ✓"
        case (.topUp, .failed):
            status.headline = "Not added: \(WalletRules.failureReason(entry.failureCode))"
            status.detail = "Nothing was charged. Try another card, or a smaller amount."
            status.retry = "/wallet/add-money"
        case (.withdrawal, .pending):
            status.headline = "Withdrawal of \(money) on its way"
            status.detail = "It has left your balance and reaches your bank account in 1 to 3 working days."
        case (.withdrawal, .succeeded): status.headline = "Withdrew \(money) to your bank account ✓"
        case (.withdrawal, .failed):
            status.headline = "Withdrawal failed: \(WalletRules.failureReason(entry.failureCode))"
            status.detail = "The money is back in your balance."
            status.retry = "/wallet/withdraw"
        case (.transferOut, _):
            status.headline = notice == "sent" ? "You sent \(money) to \(name) ✓" : "You sent \(money) to \(name)"
        case (.transferIn, _): status.headline = "\(name) sent you \(money)"
        case (.charge, _):
            status.headline =
                entry.amount < 0
                ? "You paid \(money) to \(entry.counterpart.name)\(notice == "paid" ? " ✓" : "")"
                : "\(name) paid \(money)"
        case (.refund, _):
            status.headline =
                entry.amount > 0 ? "\(entry.counterpart.name) refunded \(money)" : "You refunded \(money) to \(name)"
        case (.marketHold, _):
            status.headline = "Plaza holds \(money) for \(name)"
            status.detail =
                "It goes to them when you confirm the handshake at your meetup, and back to you if the deal falls through."
        case (.marketRefund, _): status.headline = "\(money) held for \(name) came back to you"
        case (.marketSale, _): status.headline = "\(name) paid \(money) at your meetup"
        case (.cardOrder, _): status.headline = "You paid \(money) for \(entry.note ?? "your cards")"
        case (.cardRefund, _): status.headline = "\(money) for \(entry.note ?? "your cards") came back to you"
        }
        if entry.status == .pending {
            status.live = request.uri.path + "/live" + (request.uri.query.map { "?\($0)" } ?? "")
        }
        return status
    }

    @Sendable func block(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await setBlocked(request, context: context, blocked: true)
    }

    @Sendable func unblock(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await setBlocked(request, context: context, blocked: false)
    }

    /// Blocks (or unblocks) a business from asking the caller to pay, then back to the page the form was on.
    func setBlocked(_ request: Request, context: AuthenticatedContext, blocked: Bool) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let business = try Query.id(context.parameters, "businessId", "business")
        try await wallet.setBlocked(context.identity, business: business, blocked: blocked)
        let back = form["back"].hasPrefix("/wallet/") && !form["back"].hasPrefix("//") ? form["back"] : "/wallet"
        return PageRenderer.seeOther("\(back)?notice=\(blocked ? "blocked" : "unblocked")")
    }
}
