import Foundation
import Hummingbird
import PlazaCore

/// The owner's counter set-up: the items the counter taps to build a charge, the tips it suggests, and the tax line
/// and registration its receipts print. Every action is the API's, through `BusinessesService`.
extension BusinessesPages {
    func addItemRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("businesses/:id/items", use: itemsPage)
        signedIn.post("businesses/:id/items", use: addItem)
        signedIn.post("businesses/:id/items/:itemId", use: saveItem)
        signedIn.post("businesses/:id/items/:itemId/delete", use: removeItem)
        signedIn.post("businesses/:id/counter-settings", use: saveCounterSettings)
    }

    struct ItemsPage: Sendable {
        struct Row: Sendable {
            var id: String
            var businessId: String
            var name: String
            var price: String
            var category: String?
            var form: FormState
        }

        var shell: Shell
        var id: String
        var name: String
        var currency: String
        var rows: [Row]
        var empty: Bool
        var form: FormState
        var settings: FormState
    }

    static let itemFields = ["name", "price", "category"]
    static let counterFields = ["tipPercents", "taxId", "taxRate"]
    static func itemsPath(_ id: UUID) -> String { "/places/businesses/\(id.uuidString.lowercased())/items" }
    var currency: String { configuration.wallet.currencies[0] }

    /// "3.50" for 350 cents: a price as the form takes it back.
    func plain(_ amount: Int64) -> String {
        let digits = Money.minorUnitDigits(currency)
        guard digits > 0 else { return String(amount) }
        let scale = Int64(pow(10, Double(digits)))
        let fraction = String(amount % scale)
        return "\(amount / scale).\(String(repeating: "0", count: max(0, digits - fraction.count)))\(fraction)"
    }

    @Sendable func itemsPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        _ = try await businesses.requireMember(context.identity, of: id, owner: true)
        let business = try await businesses.business(id, viewer: context.identity)
        let items = try await businesses.items(context.identity, business: id, limit: 200, cursor: nil).items
        let refused = context.page
        let rows = items.map { item in
            ItemsPage.Row(
                id: item.id.uuidString.lowercased(),
                businessId: id.uuidString.lowercased(),
                name: item.name,
                price: context.reader.money(item.price),
                category: item.category,
                form: refused.form("item-\(item.id.uuidString.lowercased())")
                    ?? FormState(names: Self.itemFields).with("name", item.name)
                    .with("price", plain(item.price.amount)).with("category", item.category ?? "")
            )
        }
        let settings =
            refused.form("counter")
            ?? FormState(names: Self.counterFields)
            .with("tipPercents", business.tipPercents.map(String.init).joined(separator: ", "))
            .with("taxId", business.taxId ?? "")
            .with("taxRate", business.taxRate.map { $0.formatted(.number.grouping(.never)) } ?? "")
        let page = ItemsPage(
            shell: Shell(title: say("Items, tips and receipts"), context: context, notice: notice(request)),
            id: id.uuidString.lowercased(),
            name: business.name,
            currency: currency,
            rows: rows,
            empty: rows.isEmpty,
            form: refused.form("item") ?? FormState(names: Self.itemFields),
            settings: settings
        )
        return renderer.render("businesses/items", page)
    }

    /// The item a form describes; the price typed as people write it ("3.50", "3,50 €").
    private func itemRequest(_ form: FormData) throws -> BusinessItemRequest {
        guard let price = WalletRules.parseAmount(form["price"], currency: currency) else {
            throw PlazaError.validation(field: "price", phrase("Type a price such as 3.50."))
        }
        return BusinessItemRequest(
            name: form["name"],
            price: Money(amount: price, currency: currency),
            category: form.optional("category")
        )
    }

    @Sendable func addItem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let form = try await request.decodeForm(limit: limit)
        do {
            _ = try await businesses.createItem(context.identity, business: id, try itemRequest(form))
        } catch let error as PlazaError where error.status.code < 500 {
            return refusedItem("item", form, error, back: "\(Self.itemsPath(id))#add-item")
        }
        return PageRenderer.seeOther("\(Self.itemsPath(id))?notice=item-added")
    }

    @Sendable func saveItem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let item = try Query.id(context.parameters, "itemId", "item")
        let form = try await request.decodeForm(limit: limit)
        do {
            let fields = try itemRequest(form)
            _ = try await businesses.changeItem(
                context.identity,
                business: id,
                item: item,
                BusinessItemChange(name: fields.name, price: fields.price, category: fields.category ?? "")
            )
        } catch let error as PlazaError where error.status.code < 500 {
            let name = "item-\(item.uuidString.lowercased())"
            return refusedItem(name, form, error, back: "\(Self.itemsPath(id))#\(name)")
        }
        return PageRenderer.seeOther("\(Self.itemsPath(id))?notice=item-saved")
    }

    @Sendable func removeItem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let item = try Query.id(context.parameters, "itemId", "item")
        try await businesses.deleteItem(context.identity, business: id, item: item)
        return PageRenderer.seeOther("\(Self.itemsPath(id))?notice=item-removed")
    }

    /// Suggested tips ("10, 15, 20"), the tax registration and the rate prices include.
    @Sendable func saveCounterSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let form = try await request.decodeForm(limit: limit)
        let back = "\(Self.itemsPath(id))#counter-settings"
        do {
            let tips = form["tipPercents"].split(whereSeparator: { !$0.isNumber }).map { Int($0) ?? 0 }
            let rateText = form["taxRate"].replacingOccurrences(of: ",", with: ".").filter { $0 != "%" && $0 != " " }
            guard rateText.isEmpty || Double(rateText) != nil else {
                throw PlazaError.validation(field: "taxRate", phrase("Type a rate such as 19 or 7.7."))
            }
            _ = try await businesses.updateBusiness(
                context.identity,
                id,
                UpdateBusinessRequest(
                    tipPercents: tips,
                    taxId: form["taxId"],
                    taxRate: Double(rateText) ?? 0
                )
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused("counter", FormState(form, names: Self.counterFields, error: error), returnTo: back)
        }
        return PageRenderer.seeOther("\(Self.itemsPath(id))?notice=counter-settings")
    }

    private func refusedItem(_ name: String, _ form: FormData, _ error: PlazaError, back: String) -> Response {
        var state = FormState(form, names: Self.itemFields, error: error)
        // The API names the price's parts; the form has one field for it.
        if let price = (error.errors ?? []).first(where: { $0.field.hasPrefix("price.") }) {
            state.fields["price", default: Field()].error = price.message
        }
        return renderer.refused(name, state, returnTo: back)
    }
}
