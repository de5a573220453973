import Foundation
import Hummingbird
import PlazaCore

/// The designer's sales: orders, cards and revenue per template and in all (issue 39: designers saw no sales).
extension CardsPages {
    func addSalesRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("studio/sales", use: salesPage)
    }

    struct SalesRow: Sendable {
        var id: String
        var name: String
        var state: String
        var orders: String
        var units: String
        var revenue: String
    }

    struct SalesPage: Sendable {
        var shell: Shell
        var designer: Bool
        var rows: [SalesRow]
        var totals: [SalesRow]
        var sold: Bool
        var summary: String
    }

    @Sendable func salesPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let designer = [.designer, .admin].contains(context.identity.user.role)
        let sales = designer ? try await cards.sales(context.identity) : CardDesignerSales(templates: [], totals: [])
        let reader = context.reader
        let row = {
            (id: String, name: String, state: String, orders: Int, units: Int, revenue: Int64, currency: String) in
            SalesRow(
                id: id,
                name: name,
                state: state,
                // The columns name what is counted: the cells are the reader's digits alone (they fit a phone).
                orders: orders.formatted(.number.locale(reader.locale)),
                units: units.formatted(.number.locale(reader.locale)),
                revenue: reader.money(revenue, currency)
            )
        }
        let totals = sales.totals.map {
            row("", say("All templates"), "", $0.orders, $0.units, $0.revenue, $0.currency)
        }
        let summary =
            sales.totals.isEmpty
            ? say("No sales yet: once a shopper pays for an order of one of your cards, it shows here.")
            : say(
                "In all: {totals}.",
                [
                    "totals": sales.totals.map {
                        reader.count(
                            $0.orders,
                            "count.revenue_from_orders",
                            [
                                "revenue": reader.money($0.revenue, $0.currency)
                            ]
                        )
                    }
                    .joined(separator: ", ")
                ]
            )
        return renderer.render(
            "cards/sales",
            SalesPage(
                shell: Shell(title: say("Sales"), context: context, notice: notice(request)),
                designer: designer,
                rows: sales.templates.map {
                    row(
                        $0.templateId.uuidString.lowercased(),
                        $0.name,
                        Self.stateName($0.state),
                        $0.orders,
                        $0.units,
                        $0.revenue,
                        $0.currency
                    )
                },
                totals: totals,
                sold: !sales.totals.isEmpty,
                summary: summary
            )
        )
    }
}
