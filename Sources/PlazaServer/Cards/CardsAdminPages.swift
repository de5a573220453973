import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore

/// The admin console's card shop (`/admin/cards`): categories and subcategories, papers and their prices, and the
/// orders (send to production, mark shipped, cancel with the reason the shopper reads). Every action is the API's.
struct CardsAdminPages: Sendable {
    let cards: CardsService
    let renderer: PageRenderer
    let maxBody: Int

    static let notices = [
        "category": phrase("Category added: designers can file templates under it."),
        "category-saved": phrase("Category saved: the catalogue shows it so."),
        "paper": phrase("Paper saved: templates may offer it."),
        "paper-saved": phrase("Paper saved: its new prices apply to carts from now on."),
        "production": phrase("Sent to the printer: the shopper's designs are locked."),
        "shipped": phrase("Marked shipped: the shopper was told."),
        "cancelled": phrase("Cancelled: the shopper was told why, and anything they paid is back in their wallet."),
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let console = pages.group("admin/cards", context: AuthenticatedContext.self).add(middleware: AdminOnly())
        console.get("", use: overview)
        console.post("categories", use: addCategory)
        console.post("categories/:id", use: updateCategory)
        console.post("papers", use: addPaper)
        console.post("papers/:id", use: savePaper)
        console.post("orders/:id/:action", use: act)
        console.get("orders/:id/items/:item/print.pdf", use: printFile)
    }

    /// The stored print file of an order's line, for production (the API's, by the console's session).
    @Sendable func printFile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let pdf = try await cards.productionFile(
            order: try Query.id(context.parameters, "id", "order"),
            item: try Query.id(context.parameters, "item", "order item")
        )
        var headers = HTTPFields()
        headers[.contentType] = "application/pdf"
        headers[HTTPField.Name("Content-Disposition")!] = "attachment; filename=\"print.pdf\""
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: pdf)))
    }

    struct OrderRow: Sendable {
        var id: String
        var what: String
        var who: String
        /// Where it ships, on one line.
        var address: String
        var status: String
        var total: String
        var when: String
        var canProduce: Bool
        var canShip: Bool
        var canCancel: Bool
        var files: [File]
    }

    struct File: Sendable {
        var label: String
        var href: String
    }

    /// A category or subcategory in the list, with its rename form and its moves.
    struct CategoryRow: Sendable {
        var id: String
        var name: String
        var subcategory: Bool
        var up: Int?
        var down: Int?
        var form: FormState
        var open: Bool
    }

    struct PaperRow: Sendable {
        var id: String
        var name: String
        var prices: String
        var form: FormState
        var open: Bool
    }

    struct Page: Sendable {
        var shell: Shell
        var tabs: AdminPages.Tabs
        var categories: [CategoryRow]
        var categoryOptions: [CardsPages.Preset]
        var categoryForm: FormState
        var papers: [PaperRow]
        var paperForm: FormState
        var orders: [OrderRow]
        var filters: [CardsPages.Chip]
        /// A category's or paper's change is confirmed in its own section (the page opens there, far below the top).
        var categoryNotice: String?
        var paperNotice: String?
        var more: String?
    }

    @Sendable func overview(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let reader = context.reader
        let noticeKey = request.uri.queryParameters.get("notice").map { String($0) }
        let status = request.uri.queryParameters.get("status").flatMap { CardOrderStatus(rawValue: String($0)) }
        let categories = try await cards.categories()
        let cursor = request.uri.queryParameters.get("cursor").map { String($0) }
        let orders: PlazaCore.Page<CardOrder>
        do {
            orders = try await cards.adminOrders(status: status, limit: 50, cursor: cursor)
        } catch let error as PlazaError where error.code == .validationFailed {
            return PageRenderer.seeOther("/admin/cards")
        }
        let page = Page(
            shell: Shell(
                title: say("Card shop"),
                context: context,
                notice: noticeKey.flatMap {
                    $0.hasPrefix("category") || $0.hasPrefix("paper") ? nil : Self.notices[$0].map { say($0) }
                }
            ),
            tabs: AdminPages.Tabs(cards: true),
            categories: Self.rows(categories, page: context.page),
            categoryOptions: [CardsPages.Preset(value: "", label: say("— a new category —"), selected: true)]
                + categories.map {
                    CardsPages.Preset(
                        value: $0.id.uuidString.lowercased(),
                        label: say("Under {category}", ["category": $0.name]),
                        selected: false
                    )
                },
            categoryForm: context.page.form("category") ?? FormState(names: ["name", "parentId"]),
            papers: try await cards.papers().map { paper in
                let id = paper.id.uuidString.lowercased()
                let refused = context.page.form("paper-\(id)")
                return PaperRow(
                    id: id,
                    name: paper.name,
                    prices: say(
                        "sample {price}; {tiers}",
                        [
                            "price": reader.money(paper.sampleAmount, paper.currency),
                            "tiers": paper.tiers.map {
                                say(
                                    "{quantity}+ at {price}",
                                    [
                                        "quantity": "\($0.minQuantity)",
                                        "price": reader.money($0.unitAmount, paper.currency),
                                    ]
                                )
                            }
                            .joined(separator: ", "),
                        ]
                    ),
                    form: refused
                        ?? FormState(names: Self.paperFields).with("name", paper.name).with(
                            "description",
                            paper.description ?? ""
                        )
                        .with("sampleAmount", Reader.typed(Money(amount: paper.sampleAmount, currency: paper.currency)))
                        .with("tiers", Self.tiersText(paper.tiers, currency: paper.currency)),
                    open: refused != nil
                )
            },
            paperForm: context.page.form("paper") ?? FormState(names: Self.paperFields),
            orders: orders.items.map { order in
                OrderRow(
                    id: order.id.uuidString.lowercased(),
                    what: CardsPages.describe(order, reader: reader),
                    who: order.shippingAddress.name,
                    address: [
                        order.shippingAddress.line1,
                        "\(order.shippingAddress.postalCode) \(order.shippingAddress.city)",
                        order.shippingAddress.country,
                    ].joined(separator: ", "),
                    status: CardsPages.statusName(order.status),
                    total: reader.money(order.total, order.currency),
                    when: reader.day(order.createdAt),
                    canProduce: order.status == .paid,
                    canShip: order.status == .inProduction,
                    canCancel: [.pendingPayment, .paid, .inProduction].contains(order.status),
                    files: order.items.map { item in
                        File(
                            label:
                                item.kind == .sample
                                ? say(
                                    "{design}: 1 sample on {paper}",
                                    ["design": item.designName, "paper": item.paperName]
                                )
                                : say(
                                    "{design}: {quantity} cards on {paper}",
                                    [
                                        "design": item.designName, "quantity": "\(item.quantity)",
                                        "paper": item.paperName,
                                    ]
                                ),
                            href:
                                "/admin/cards/orders/\(order.id.uuidString.lowercased())/items/\(item.id.uuidString.lowercased())/print.pdf"
                        )
                    }
                )
            },
            filters: [CardsPages.Chip(label: say("All"), href: "/admin/cards", current: status == nil)]
                + CardOrderStatus.allCases.map {
                    CardsPages.Chip(
                        label: CardsPages.statusName($0),
                        href: "/admin/cards?status=\($0.rawValue)",
                        current: $0 == status
                    )
                },
            categoryNotice: noticeKey.flatMap { $0.hasPrefix("category") ? Self.notices[$0].map { say($0) } : nil },
            paperNotice: noticeKey.flatMap { $0.hasPrefix("paper") ? Self.notices[$0].map { say($0) } : nil },
            more: orders.nextCursor.map { Self.olderOrders(status: status, cursor: $0) }
        )
        return renderer.render("cards/admin", page)
    }

    @Sendable func addCategory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        do {
            _ = try await cards.addCategory(
                CardCategoryRequest(name: form["name"], parentId: UUID(uuidString: form["parentId"]))
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "category",
                FormState(form, names: ["name", "parentId"], error: error),
                returnTo: "/admin/cards#categories"
            )
        }
        return PageRenderer.seeOther("/admin/cards?notice=category#categories")
    }

    static func olderOrders(status: CardOrderStatus?, cursor: String) -> String {
        let query: [(String, String)] = (status.map { [("status", $0.rawValue)] } ?? []) + [("cursor", cursor)]
        return "/admin/cards?" + FormData.encoded(query) + "#orders"
    }

    static let paperFields = ["name", "description", "sampleAmount", "tiers"]

    /// The list as the console shows it: each category, then its subcategories, each with its moves up and down.
    static func rows(_ categories: [CardCategory], page: PageInfo) -> [CategoryRow] {
        func row(_ id: UUID, _ name: String, index: Int, count: Int, subcategory: Bool) -> CategoryRow {
            let key = id.uuidString.lowercased()
            let refused = page.form("category-\(key)")
            return CategoryRow(
                id: key,
                name: name,
                subcategory: subcategory,
                up: index > 0 ? index : nil,
                down: index + 1 < count ? index + 2 : nil,
                form: refused ?? FormState(names: ["name"]).with("name", name),
                open: refused != nil
            )
        }
        return categories.enumerated().flatMap { index, category in
            [row(category.id, category.name, index: index, count: categories.count, subcategory: false)]
                + category.subcategories.enumerated().map {
                    row($1.id, $1.name, index: $0, count: category.subcategories.count, subcategory: true)
                }
        }
    }

    /// "1: 3.50, 25: 2.50": the tiers as the form takes them.
    static func tiersText(_ tiers: [CardPriceTier], currency: String) -> String {
        tiers.map { "\($0.minQuantity): \(Reader.typed(Money(amount: $0.unitAmount, currency: currency)))" }.joined(
            separator: ", "
        )
    }

    /// Renames a category (`name`) or moves it (`position`, from its up and down buttons).
    @Sendable func updateCategory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "category")
        do {
            _ = try await cards.updateCategory(
                id,
                CardCategoryUpdate(name: form.values["name"], position: form.optional("position").flatMap { Int($0) })
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "category-\(id.uuidString.lowercased())",
                FormState(form, names: ["name"], error: error),
                returnTo: "/admin/cards#categories"
            )
        }
        return PageRenderer.seeOther("/admin/cards?notice=category-saved#categories")
    }

    @Sendable func addPaper(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await savePaper(request, context: context)
    }

    /// A paper from the form, new or changed: prices as "12.50", tiers one per line or comma, "1: 3.50, 25: 2.50".
    @Sendable func savePaper(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = context.parameters.get("id").flatMap(UUID.init(uuidString:))
        do {
            guard
                let sample = WalletRules.parseAmount(
                    form["sampleAmount"].trimmingCharacters(in: .whitespaces),
                    currency: cards.currency
                )
            else {
                throw PlazaError.validation(field: "sampleAmount", phrase("Type the sample's price, such as 2.00."))
            }
            var tiers: [CardPriceTier] = []
            for part in form["tiers"].split(whereSeparator: { $0 == "," || $0 == "\n" }) {
                let pieces = part.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                guard pieces.count == 2, let quantity = Int(pieces[0]),
                    let amount = WalletRules.parseAmount(pieces[1], currency: cards.currency)
                else {
                    throw PlazaError.validation(
                        field: "tiers",
                        phrase("Write each tier as quantity: price per card, such as 1: 3.50, 25: 2.50.")
                    )
                }
                tiers.append(CardPriceTier(minQuantity: quantity, unitAmount: amount))
            }
            _ = try await cards.savePaper(
                id,
                CardPaperRequest(
                    name: form["name"],
                    description: form.optional("description"),
                    sampleAmount: sample,
                    tiers: tiers
                )
            )
        } catch var error as PlazaError where error.status.code < 500 {
            // The form has one field for every tier: `tiers.2.unitAmount` is said beside it.
            error.errors = error.errors?.map {
                $0.field.hasPrefix("tiers.") ? FieldError(field: "tiers", message: $0.message) : $0
            }
            return renderer.refused(
                id.map { "paper-\($0.uuidString.lowercased())" } ?? "paper",
                FormState(form, names: Self.paperFields, error: error),
                returnTo: "/admin/cards#papers"
            )
        }
        return PageRenderer.seeOther("/admin/cards?notice=\(id == nil ? "paper" : "paper-saved")#papers")
    }

    @Sendable func act(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "order")
        let notice: String
        do {
            switch context.parameters.get("action") {
            case "production":
                _ = try await cards.sendToProduction(id)
                notice = "production"
            case "ship":
                _ = try await cards.ship(id)
                notice = "shipped"
            case "cancel":
                _ = try await cards.adminCancel(id, reason: form["reason"])
                notice = "cancelled"
            default: throw PlazaError.notFound("action")
            }
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                alert:
                    "\(say(error.title)) \(error.errors?.map { say($0.message) }.joined(separator: " ") ?? error.detail.map { say($0) } ?? "")",
                returnTo: "/admin/cards"
            )
        }
        return PageRenderer.seeOther("/admin/cards?notice=\(notice)")
    }
}
