import Foundation
import Hummingbird
import PlazaCore

/// Paying for an order (wallet or card, and a card payment left on the processor's page), its page with where it
/// stands and a changed design's new proof, and the list of orders.
extension CardsPages {
    func addOrderRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("cart", use: cartPage)
        signedIn.post("cart/items/:id/delete", use: removeLine)
        signedIn.post("cart/items/:id/quantity", use: changeQuantity)
        signedIn.get("checkout", use: checkoutPage)
        signedIn.post("checkout", use: checkout)
        signedIn.get("orders", use: ordersPage)
        signedIn.get("orders/:id", use: orderPage)
        signedIn.get("orders/:id/live", use: orderLive)
        signedIn.post("orders/:id/pay", use: pay)
        signedIn.get("orders/:id/card-cancelled", use: cardCancelled)
        signedIn.post("orders/:id/cancel", use: cancel)
        signedIn.post("orders/:id/proofs", use: reapprove)
    }

    /// The shopper approves a changed design's new proof into their order (before it goes to the printer).
    @Sendable func reapprove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "order")
        let back = "/cards/orders/\(id.uuidString.lowercased())"
        do {
            guard let design = UUID(uuidString: form["designId"]) else { throw PlazaError.notFound("design") }
            _ = try await cards.idempotency.once(form, action: "cards-proof", user: context.identity.user.id) { claim in
                _ = try await cards.reapprove(
                    context.identity,
                    order: id,
                    CardProofApproval(designId: design, sha256: form["sha"]),
                    claim: claim
                )
            }
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(alert: error.summary, returnTo: back)
        }
        return PageRenderer.seeOther(back + "?notice=reapproved")
    }

    struct LineRow: Sendable {
        var id: String
        var design: String
        var designId: String
        var what: String
        var amount: String
        var svg: String
        /// Preflight's first error on the design as it is now (it changed since it went in the cart): fix it first.
        var problem: String? = nil
        /// A print line's quantity, which the cart lets the shopper change (a sample stays one card).
        var quantity: String = ""
        var changesQuantity = false
        /// The quantity refused for this line, beside its field.
        var quantityError: String? = nil
    }

    struct Sums: Sendable {
        var subtotal: String
        var credit: String?
        var shipping: String
        var tax: String?
        var total: String
    }

    static func sums(
        subtotal: Int64,
        credit: Int64,
        shipping: Int64,
        tax: Int64,
        total: Int64,
        currency: String,
        reader: Reader
    ) -> Sums {
        Sums(
            subtotal: reader.money(subtotal, currency),
            credit: credit > 0 ? "−" + reader.money(credit, currency) : nil,
            shipping: reader.money(shipping, currency),
            tax: tax > 0 ? reader.money(tax, currency) : nil,
            total: reader.money(total, currency)
        )
    }

    static func what(_ kind: CardItemKind, quantity: Int, paper: String, unit: String, reader: Reader) -> String {
        kind == .sample
            ? say("1 sample on {paper}", ["paper": paper])
            : reader.count(quantity, "count.cards_on_paper", ["paper": paper, "unit": unit])
    }

    /// "Golden Circle (50 cards)", "… and Olive Sprig (sample)", "… and 2 more lines" in the reader's words.
    static func describe(_ order: CardOrder, reader: Reader) -> String {
        CardsService.describe(order.items, words: reader.words, locale: reader.locale)
    }

    // MARK: Orders

    struct OrderRow: Sendable {
        var id: String
        var what: String
        var status: String
        var total: String
        var when: String
    }

    struct OrdersPage: Sendable {
        var shell: Shell
        var orders: [OrderRow]
        var next: String?
    }

    @Sendable func ordersPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let page = try await cards.orders(context.identity, limit: 20, cursor: paging.cursor)
        let rows = page.items.map { order in
            OrderRow(
                id: order.id.uuidString.lowercased(),
                what: Self.describe(order, reader: context.reader),
                status: Self.statusName(order.status),
                total: context.reader.money(order.total, order.currency),
                when: context.reader.day(order.createdAt)
            )
        }
        return renderer.render(
            "cards/orders",
            OrdersPage(
                shell: Shell(title: say("Your card orders"), context: context, notice: notice(request)),
                orders: rows,
                next: page.nextCursor.map { "/cards/orders?cursor=\($0)" }
            )
        )
    }

    /// A card's page as the reader names it ("Front").
    static func pageName(_ page: CardPage) -> String {
        switch page {
        case .front: say("Front")
        case .inside: say("Inside")
        case .back: say("Back")
        }
    }

    static func statusName(_ status: CardOrderStatus) -> String {
        switch status {
        case .pendingPayment: say("Waiting for payment")
        case .paid: say("Paid")
        case .inProduction: say("At the printer")
        case .shipped: say("Shipped")
        case .cancelled: say("Cancelled")
        }
    }

    struct OrderPage: Sendable {
        var shell: Shell
        var id: String
        var status: String
        /// The status as the API writes it (`pending_payment`), for the page's script and tests.
        var statusCode: String
        var headline: String
        var pending: Bool
        var paying: Bool
        var cancellable: Bool
        var lines: [LineRow]
        var sums: Sums
        var address: String
        var payForm: FormState
        /// "$12.50 available", and whether that is short of the total (then the form starts on the card).
        var walletAvailable: String
        var walletShort: Bool
        var payByCard: Bool
        var key: String
        var cancelReason: String?
        var steps: [Step]
        /// Designs changed since their proof was approved, while the order can still take a new one.
        var changed: [ChangedProof]
    }

    struct ChangedProof: Sendable {
        var designId: String
        var name: String
        var sha: String
        var svg: String
    }

    struct Step: Sendable {
        var label: String
        var done: Bool
        var current: Bool
    }

    @Sendable func orderPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render("cards/order", try await orderModel(request, context: context, full: true))
    }

    /// The order's status part, for the page's live reload while a card payment settles.
    @Sendable func orderLive(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render("cards/order-status", try await orderModel(request, context: context, full: false))
    }

    /// Back from the processor's page without paying: that payment is called off and the order can be paid again.
    @Sendable func cardCancelled(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "order")
        try await cards.abandonCardPayment(context.identity, order: id)
        return PageRenderer.seeOther("/cards/orders/\(id.uuidString.lowercased())?notice=card-cancelled")
    }

    /// The order's page; not `full` (the status region's reloads): without its lines' previews and proof checks.
    func orderModel(_ request: Request, context: AuthenticatedContext, full: Bool) async throws -> OrderPage {
        let id = try Query.id(context.parameters, "id", "order")
        let order = try await cards.order(context.identity, id)
        let reader = context.reader
        var lines: [LineRow] = []
        for item in order.items where full {
            // The proof as approved (orders from before proofs kept their preview: the design as it is).
            var svg = try await cards.proofPreview(item.proofSha256)
            if svg == nil {
                svg = try? await cards.designPreview(
                    context.identity,
                    item.designId,
                    page: .front,
                    guides: false,
                    inline: true
                )
            }
            lines.append(
                LineRow(
                    id: item.id.uuidString.lowercased(),
                    design: item.designName,
                    designId: item.designId.uuidString.lowercased(),
                    what: Self.what(
                        item.kind,
                        quantity: item.quantity,
                        paper: item.paperName,
                        unit: reader.money(item.unitAmount, order.currency),
                        reader: reader
                    ),
                    amount: reader.money(item.amount, order.currency),
                    svg: svg ?? ""
                )
            )
        }
        var changed: [ChangedProof] = []
        if full, [.pendingPayment, .paid].contains(order.status) {
            for item in order.items
            where !changed.contains(where: { $0.designId == item.designId.uuidString.lowercased() }) {
                guard let view = try? await cards.view(try await cards.own(context.identity, item.designId)) else {
                    continue
                }
                let sha = CardsService.sha256(try await cards.printPDF(view))
                guard sha != item.proofSha256 else { continue }
                changed.append(
                    ChangedProof(
                        designId: item.designId.uuidString.lowercased(),
                        name: item.designName,
                        sha: sha,
                        svg: try await cards.preview(view, page: .front, guides: false, inline: true)
                    )
                )
            }
        }
        let paying = order.status == .pendingPayment && order.paymentMethod == .card
        let total = reader.money(order.total, order.currency)
        let headline: String =
            switch order.status {
            case .pendingPayment:
                paying
                    ? say("Your card is being charged {total}…", ["total": total])
                    : say("Pay {total} to place your order", ["total": total])
            case .paid: say("Paid {total} ✓ Your cards go to the printer soon.", ["total": total])
            case .inProduction: say("Your cards are being printed.")
            case .shipped:
                say(
                    "Shipped to {name} · {day}",
                    ["name": order.shippingAddress.name, "day": order.shippedAt.map { reader.day($0) } ?? ""]
                )
            case .cancelled: say("Cancelled.")
            }
        let available =
            order.status == .pendingPayment
            ? try await cards.walletAvailable(context.identity, currency: order.currency) : nil
        let short = (available ?? 0) < order.total
        let refusedPay = context.page.form("pay")
        let progress = [CardOrderStatus.paid, .inProduction, .shipped]
        let reached = order.status == .cancelled ? -1 : progress.firstIndex(of: order.status).map { $0 + 1 } ?? 0
        return OrderPage(
            shell: Shell(title: say("Order"), context: context, notice: notice(request)),
            id: id.uuidString.lowercased(),
            status: Self.statusName(order.status),
            statusCode: order.status.rawValue,
            headline: headline,
            pending: order.status == .pendingPayment,
            paying: paying,
            cancellable: [.pendingPayment, .paid].contains(order.status),
            lines: lines,
            sums: Self.sums(
                subtotal: order.subtotal,
                credit: order.credit,
                shipping: order.shipping,
                tax: order.tax,
                total: order.total,
                currency: order.currency,
                reader: reader
            ),
            address: [
                order.shippingAddress.name, order.shippingAddress.line1,
                "\(order.shippingAddress.postalCode) \(order.shippingAddress.city)",
                order.shippingAddress.country,
            ].joined(separator: ", "),
            payForm: refusedPay ?? Self.payForm(problem: order.paymentProblem),
            walletAvailable: say("{amount} available", ["amount": reader.money(available ?? 0, order.currency)]),
            walletShort: short,
            payByCard: refusedPay.map { $0.fields["method"]?.value == "card" } ?? short,
            key: UUID().uuidString,
            cancelReason: order.cancelReason.map { say($0) },
            steps: [say("Ordered"), say("Paid"), say("Printing"), say("Shipped")].enumerated().map { index, label in
                Step(label: label, done: index <= reached, current: index == reached)
            },
            changed: changed
        )
    }

    /// The pay form as it opens: paying by wallet, or saying why the last card payment did not go through.
    static func payForm(problem: String?) -> FormState {
        var form = FormState(names: ["method", "number", "expiry", "cvc"]).with("method", "wallet")
        form.error = problem.map {
            say("Your card payment did not go through: {problem} Try again, or pay from your wallet.", ["problem": $0])
        }
        return form
    }

    @Sendable func pay(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "order")
        let back = "/cards/orders/\(id.uuidString.lowercased())"
        let order = try await cards.order(context.identity, id)
        let method: CardPaymentMethod = form["method"] == "card" ? .card : .wallet
        do {
            var card: CardDetails?
            if method == .card {
                let expiry = form["expiry"].split(whereSeparator: { $0 == "/" || $0 == " " }).compactMap { Int($0) }
                card = CardDetails(
                    number: form["number"],
                    expMonth: expiry.first ?? 0,
                    expYear: expiry.count > 1 ? (expiry[1] < 100 ? 2000 + expiry[1] : expiry[1]) : 0,
                    cvc: form["cvc"]
                )
            }
            let user = context.identity.user.id
            _ = try await SecondFactorAnswer.$current.withValue(form["secondFactor"]) {
                try await cards.idempotency.once(form, action: "cards-pay", user: user) { claim in
                    _ = try await cards.pay(
                        context.identity,
                        order: id,
                        CardPaymentRequest(method: method, card: card, amount: order.total, currency: order.currency),
                        claim: claim
                    )
                }
            }
        } catch let error as PlazaError where error.status.code < 500 {
            var error = error
            if error.code == .insufficientFunds {
                error.errors = [
                    FieldError(
                        field: "method",
                        message: phrase(
                            "Your wallet holds less than this order's total: add money to it, or pay with a card."
                        )
                    )
                ]
            }
            error.errors = error.errors?.map { fieldError in
                var fieldError = fieldError
                if fieldError.field.hasPrefix("card.exp") { fieldError.field = "expiry" }
                if fieldError.field == "card.number" { fieldError.field = "number" }
                if fieldError.field == "card.cvc" { fieldError.field = "cvc" }
                return fieldError
            }
            return renderer.refused(
                "pay",
                FormState(form, names: ["method", "number", "expiry", "cvc"], error: error),
                returnTo: back + "#pay"
            )
        }
        let paid = try await cards.order(context.identity, id)
        if let checkout = paid.checkoutUrl { return PageRenderer.seeOther(checkout) }
        return PageRenderer.seeOther(back + "?notice=\(paid.status == .paid ? "paid" : "card-paying")")
    }

    @Sendable func cancel(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "order")
        let back = "/cards/orders/\(id.uuidString.lowercased())"
        do {
            _ = try await cards.idempotency.once(form, action: "cards-cancel", user: context.identity.user.id) {
                claim in
                _ = try await cards.cancel(
                    context.identity,
                    order: id,
                    CardCancelRequest(reason: phrase("Cancelled by you.")),
                    claim: claim
                )
            }
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(alert: error.summary, returnTo: back)
        }
        return PageRenderer.seeOther(back + "?notice=cancelled")
    }
}
