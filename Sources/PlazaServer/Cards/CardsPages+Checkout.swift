import Foundation
import Hummingbird
import PlazaCore

/// The cart (each line with its design's front, flagged when the design no longer prints well) and checkout: the
/// shipping address, then each design's proof beside its print file, approved one by one.
extension CardsPages {
    // MARK: Cart

    struct CartPage: Sendable {
        var shell: Shell
        var lines: [LineRow]
        var empty: Bool
        var blocked: Bool
        var sums: Sums
        /// A sample beside prints of its card: its price comes off them here (issue 39).
        var creditNote: String?
    }

    /// Preflight's first error on a design as it is now, if any.
    func problem(_ identity: Identity, design: UUID) async throws -> String? {
        try await cards.design(identity, design).findings.first { $0.severity == .error }?.message
    }

    @Sendable func cartPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let cart = try await cards.cart(context.identity)
        let reader = context.reader
        let refused = context.page.form("quantity")
        var lines: [LineRow] = []
        for item in cart.items {
            let id = item.id.uuidString.lowercased()
            let mine = refused?.fields["line"]?.value == id ? refused : nil
            lines.append(
                LineRow(
                    id: item.id.uuidString.lowercased(),
                    design: item.designName,
                    designId: item.designId.uuidString.lowercased(),
                    what: Self.what(
                        item.kind,
                        quantity: item.quantity,
                        paper: item.paperName,
                        unit: reader.money(item.unitAmount, cart.currency),
                        reader: reader
                    ),
                    amount: reader.money(item.amount, cart.currency),
                    svg: try await cards.designPreview(
                        context.identity,
                        item.designId,
                        page: .front,
                        guides: false,
                        inline: true
                    ),
                    problem: try await problem(context.identity, design: item.designId),
                    quantity: mine?.fields["quantity"]?.value ?? String(item.quantity),
                    changesQuantity: item.kind == .print,
                    quantityError: mine?.fields["quantity"]?.error ?? mine?.error
                )
            )
        }
        var templates: [UUID: UUID] = [:]
        for design in Set(cart.items.map(\.designId)) {
            templates[design] = try await cards.design(context.identity, design).templateId
        }
        let credited = cart.items.filter { sample in
            sample.kind == .sample
                && cart.items.contains { $0.kind == .print && templates[$0.designId] == templates[sample.designId] }
        }
        let creditNote =
            credited.isEmpty || cart.credit == 0
            ? nil
            : say(
                "Your sample of {designs} comes with prints of the same card: "
                    + "its price comes off this order (Sample credit below).",
                ["designs": credited.map(\.designName).joined(separator: ", ")]
            )
        // "Added to your cart: Olive Sprig, 50 cards on Linen, $2.50 each." / "Changed: Olive Sprig, now 100 cards …"
        let query = request.uri.queryParameters
        let line = lines.first { $0.id == query.get("line").map { String($0) } }
        let said: String? =
            switch query.get("notice") {
            case "added":
                line.map { say("Added to your cart: {design}, {what}.", ["design": $0.design, "what": $0.what]) }
            case "quantity":
                line.map {
                    say(
                        "Changed: {design} is now {what}, {amount}.",
                        [
                            "design": $0.design, "what": $0.what, "amount": $0.amount,
                        ]
                    )
                }
            default: nil
            }
        return renderer.render(
            "cards/cart",
            CartPage(
                shell: Shell(title: say("Your cart"), context: context, notice: said ?? notice(request)),
                lines: lines,
                empty: lines.isEmpty,
                blocked: lines.contains { $0.problem != nil },
                sums: Self.sums(
                    subtotal: cart.subtotal,
                    credit: cart.credit,
                    shipping: cart.shipping,
                    tax: cart.tax,
                    total: cart.total,
                    currency: cart.currency,
                    reader: reader
                ),
                creditNote: creditNote
            )
        )
    }

    /// A print line's new quantity: back to the cart, which says the line's new price (or why not, beside the field).
    @Sendable func changeQuantity(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "cart item")
        let line = id.uuidString.lowercased()
        do {
            guard let quantity = Int(form["quantity"].trimmingCharacters(in: .whitespaces)) else {
                throw PlazaError.validation(field: "quantity", phrase("Give a whole number of cards."))
            }
            _ = try await cards.changeQuantity(context.identity, id, CardCartItemChange(quantity: quantity))
        } catch let error as PlazaError where error.status.code < 500 && error.status != .notFound {
            var state = FormState(form, names: ["quantity"], error: error)
            state.fields["line"] = Field(value: line)
            return renderer.refused("quantity", state, returnTo: "/cards/cart")
        }
        return PageRenderer.seeOther("/cards/cart?notice=quantity&line=\(line)")
    }

    @Sendable func removeLine(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await cards.removeFromCart(context.identity, try Query.id(context.parameters, "id", "cart item"))
        return PageRenderer.seeOther("/cards/cart?notice=removed")
    }

    // MARK: Checkout

    struct ProofRow: Sendable {
        var designId: String
        var name: String
        var sha: String
        var pdf: String
        var pages: [PageTab]
        var approved: Bool
        var error: String?
        /// Preflight's first error: the design cannot print as it is (fix it in the editor).
        var problem: String?
    }

    struct CheckoutPage: Sendable {
        var shell: Shell
        var form: FormState
        var proofs: [ProofRow]
        var sums: Sums
        var key: String
    }

    static let addressFields = ["name", "line1", "city", "postalCode", "country"]

    @Sendable func checkoutPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let cart = try await cards.cart(context.identity)
        guard !cart.items.isEmpty else { return PageRenderer.seeOther("/cards/cart") }
        let refused = context.page.form("checkout")
        var proofs: [ProofRow] = []
        for design in Self.unique(cart.items.map(\.designId)) {
            let view = try await cards.view(try await cards.own(context.identity, design))
            let pdf = try await cards.printPDF(view)
            var tabs: [PageTab] = []
            for page in view.spec.pages {
                tabs.append(
                    PageTab(
                        label: Self.pageName(page),
                        svg: try await cards.preview(view, page: page, guides: false, inline: true)
                    )
                )
            }
            let id = design.uuidString.lowercased()
            proofs.append(
                ProofRow(
                    designId: id,
                    name: view.record.name,
                    sha: CardsService.sha256(pdf),
                    pdf: "/cards/designs/\(id)/print.pdf",
                    pages: tabs,
                    approved: refused?.fields["approve-\(id)"]?.value == "on",
                    error: refused?.fields["approve-\(id)"]?.error,
                    problem: view.findings.first { $0.severity == .error }?.message
                )
            )
        }
        let defaults = FormState(names: Self.addressFields).with("name", context.identity.user.displayName).with(
            "country",
            "US"
        )
        let model = CheckoutPage(
            shell: Shell(title: say("Checkout"), context: context, notice: notice(request)),
            form: refused ?? defaults,
            proofs: proofs,
            sums: Self.sums(
                subtotal: cart.subtotal,
                credit: cart.credit,
                shipping: cart.shipping,
                tax: cart.tax,
                total: cart.total,
                currency: cart.currency,
                reader: context.reader
            ),
            key: UUID().uuidString
        )
        return renderer.render("cards/checkout", model)
    }

    @Sendable func checkout(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let designs = form.values.keys.filter { $0.hasPrefix("sha-") }.map { String($0.dropFirst(4)) }.sorted()
        let names = Self.addressFields + designs.flatMap { ["sha-\($0)", "approve-\($0)"] }
        do {
            let unapproved = designs.filter { form["approve-\($0)"] != "on" }
            guard unapproved.isEmpty else {
                throw PlazaError.validation(
                    unapproved.map {
                        FieldError(
                            field: "approve-\($0)",
                            message: phrase("Look at this proof and tick that you approve it.")
                        )
                    }
                )
            }
            let address = CardShippingAddress(
                name: form["name"],
                line1: form["line1"],
                city: form["city"],
                postalCode: form["postalCode"],
                country: form["country"]
            )
            let proofs = designs.compactMap { id in
                UUID(uuidString: id).map { CardProofApproval(designId: $0, sha256: form["sha-\(id)"]) }
            }
            var created: CardOrder?
            let acted = try await cards.idempotency.once(form, action: "cards-order", user: context.identity.user.id) {
                claim in
                created = try await cards.createOrder(
                    context.identity,
                    CardOrderRequest(shippingAddress: address, proofs: proofs),
                    claim: claim
                )
            }
            guard acted, let order = created else { return PageRenderer.seeOther("/cards/orders") }
            return PageRenderer.seeOther("/cards/orders/\(order.id.uuidString.lowercased())?notice=ordered")
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "checkout",
                FormState(form, names: names, error: Self.addressed(error)),
                returnTo: "/cards/checkout"
            )
        }
    }

    /// `shippingAddress.city` of the API is the page's `city` field; a stale proof's error sits at its design.
    static func addressed(_ error: PlazaError) -> PlazaError {
        var error = error
        error.errors = error.errors?.map { fieldError in
            var fieldError = fieldError
            fieldError.field = fieldError.field.replacingOccurrences(of: "shippingAddress.", with: "")
            return fieldError
        }
        return error
    }

    static func unique(_ ids: [UUID]) -> [UUID] {
        var seen = Set<UUID>()
        return ids.filter { seen.insert($0).inserted }
    }
}
