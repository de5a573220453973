import Foundation
import PlazaCore
import PlazaServer

extension DemoData {
    /// What Bruno's Bakery sells at its counter, the tips it suggests and its receipts' tax line, so the counter
    /// builds a charge by tapping. Only for a bakery without items yet.
    static func seedCounter(_ services: PlazaServices) async throws {
        guard let bruno = try await AccountStore().user(login: "bruno", on: services.database.sql) else { return }
        let owner = Identity(user: bruno, sessionID: UUID())
        guard
            let bakery = try await services.businesses.myBusinesses(owner).first(where: { $0.name == "Bruno's Bakery" }
            ),
            try await services.businesses.items(owner, business: bakery.id, limit: 1, cursor: nil).items.isEmpty
        else { return }
        let currency = services.configuration.wallet.currencies[0]
        let items: [(String, Int64, String)] = [
            ("Pretzel", 120, "Bakery"), ("Sourdough loaf", 450, "Bakery"), ("Croissant", 180, "Bakery"),
            ("Apple strudel", 320, "Bakery"), ("Coffee", 250, "Drinks"), ("Cappuccino", 340, "Drinks"),
        ]
        for (name, price, category) in items {
            _ = try await services.businesses.createItem(
                owner,
                business: bakery.id,
                BusinessItemRequest(name: name, price: Money(amount: price, currency: currency), category: category)
            )
        }
        _ = try await services.businesses.updateBusiness(
            owner,
            bakery.id,
            UpdateBusinessRequest(tipPercents: [5, 10, 15], taxId: "VAT DE129273398", taxRate: 7)
        )
    }
}
