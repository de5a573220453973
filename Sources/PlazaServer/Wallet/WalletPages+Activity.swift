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
            shell: Shell(
                title: Self.title(main),
                context: context,
                notice: notice.flatMap { Self.notices[$0] }.map { say($0) }
            ),
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
        case .topUp: say("Money added from a card")
        case .withdrawal: say("Withdrawal to a bank account")
        case .transferIn: say("Payment received")
        case .transferOut: say("Payment sent")
        case .charge: entry.amount < 0 ? say("Paid in a shop") : say("Charge paid by a customer")
        case .refund: say("Refund")
        case .marketHold: say("Held by Plaza until the handshake")
        case .marketRefund: say("Held money returned")
        case .marketSale: say("Marketplace sale")
        case .cardOrder: say("Card shop order")
        case .cardRefund: say("Card shop refund")
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
        let values = ["money": money, "name": name, "who": entry.counterpart.name]
        let done = [
            "money": money, "name": name, "who": entry.counterpart.name, "what": entry.note ?? say("your cards"),
        ]
        switch (entry.kind, entry.status) {
        case (.topUp, .pending):
            status.headline = say("Waiting for your card's bank…")
            status.detail = say(
                "This usually takes a few seconds. You can leave this page: the money shows in your balance when it arrives."
            )
        case (.topUp, .succeeded): status.headline = say("Added {money} to your balance ✓", values)
        case (.topUp, .failed):
            status.headline = say("Not added: {reason}", ["reason": failureReason(entry.failureCode)])
            status.detail = say("Nothing was charged. Try another card, or a smaller amount.")
            status.retry = "/wallet/add-money"
        case (.withdrawal, .pending):
            status.headline = say("Withdrawal of {money} on its way", values)
            status.detail = say("It has left your balance and reaches your bank account in 1 to 3 working days.")
        case (.withdrawal, .succeeded): status.headline = say("Withdrew {money} to your bank account ✓", values)
        case (.withdrawal, .failed):
            status.headline = say("Withdrawal failed: {reason}", ["reason": failureReason(entry.failureCode)])
            status.detail = say("The money is back in your balance.")
            status.retry = "/wallet/withdraw"
        case (.transferOut, _):
            status.headline =
                notice == "sent"
                ? say("You sent {money} to {name} ✓", values) : say("You sent {money} to {name}", values)
        case (.transferIn, _): status.headline = say("{name} sent you {money}", values)
        case (.charge, _):
            status.headline =
                entry.amount >= 0
                ? say("{name} paid {money}", values)
                : notice == "paid"
                    ? say("You paid {money} to {who} ✓", values) : say("You paid {money} to {who}", values)
        case (.refund, _):
            status.headline =
                entry.amount > 0
                ? say("{who} refunded {money}", values) : say("You refunded {money} to {name}", values)
        case (.marketHold, _):
            status.headline = say("Plaza holds {money} for {name}", values)
            status.detail = say(
                "It goes to them when you confirm the handshake at your meetup, and back to you if the deal falls through."
            )
        case (.marketRefund, _): status.headline = say("{money} held for {name} came back to you", values)
        case (.marketSale, _): status.headline = say("{name} paid {money} at your meetup", values)
        case (.cardOrder, _): status.headline = say("You paid {money} for {what}", done)
        case (.cardRefund, _): status.headline = say("{money} for {what} came back to you", done)
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
