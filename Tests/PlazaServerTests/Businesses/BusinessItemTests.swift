import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The items a business sells at its counter (issue 39): owners keep them, staff read them, nobody else sees them.
@Suite struct BusinessItemTests {
    @Test(arguments: TestEngine.enabled)
    func ownersKeepTheItemsStaffReadThemAndOthersAreRefused(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let accounts = AccountsDriver(client)
            let (owner, business, _) = try await places.shop(at: Coordinate(latitude: 48.1, longitude: 11.5))
            let bruno = owner.accessToken
            let path = "/v1/businesses/\(business.id)/items"
            func add(_ name: String, _ cents: Int64, _ category: String? = nil) async throws -> TestResponse {
                try await client.send(
                    .post,
                    path,
                    json: BusinessItemRequest(
                        name: name,
                        price: Money(amount: cents, currency: "USD"),
                        category: category
                    ),
                    token: bruno
                )
            }
            let rye = try await add("  Rye loaf ", 420, "Bread")
            #expect(rye.status == .created, "\(rye.text)")
            let loaf = try rye.decode(BusinessItem.self)
            #expect(loaf.name == "Rye loaf" && loaf.price.amount == 420 && loaf.category == "Bread")
            _ = try await add("Pretzel", 180, "Bread")
            let coffee = try await add("Coffee", 250, "Drinks").decode(BusinessItem.self)
            let water = try await add("Tap water", 0)
            #expect(water.status == .created && water.text.contains(#""category":null"#), "free, no category")

            let twice = try await add("rye LOAF", 400)
            #expect(twice.status == .conflict && twice.problem?.errors?.map(\.field) == ["name"], "\(twice.text)")
            let bad = try await add("", -5, String(repeating: "x", count: 41))
            #expect(
                Set(bad.problem?.errors?.map(\.field) ?? []) == ["name", "price.amount", "category"],
                "\(bad.text)"
            )
            let euro = try await client.send(
                .post,
                path,
                json: BusinessItemRequest(name: "Croissant", price: Money(amount: 200, currency: "EUR")),
                token: bruno
            )
            #expect(euro.problem?.errors?.map(\.field) == ["price.currency"], "\(euro.text)")

            // By category (none first), then name; a page at a time.
            let first = try await client.send(.get, "\(path)?limit=3", token: bruno).decode(Page<BusinessItem>.self)
            #expect(first.items.map(\.name) == ["Tap water", "Pretzel", "Rye loaf"])
            let cursor = try #require(first.nextCursor)
            let rest = try await client.send(.get, "\(path)?limit=3&cursor=\(cursor)", token: bruno)
                .decode(Page<BusinessItem>.self)
            #expect(rest.items.map(\.name) == ["Coffee"] && rest.nextCursor == nil)

            // A change names only what changes; a name taken by another item is refused.
            let itemPath = "\(path)/\(coffee.id)"
            let dearer = try await client.send(
                .patch,
                itemPath,
                json: BusinessItemChange(price: Money(amount: 270, currency: "USD")),
                token: bruno
            ).decode(BusinessItem.self)
            #expect(dearer.price.amount == 270 && dearer.name == "Coffee" && dearer.category == "Drinks")
            let clash = try await client.send(.patch, itemPath, json: BusinessItemChange(name: "pretzel"), token: bruno)
            #expect(clash.status == .conflict)
            let uncategorized = try await client.send(
                .patch,
                itemPath,
                json: BusinessItemChange(category: ""),
                token: bruno
            ).decode(BusinessItem.self)
            #expect(uncategorized.category == nil)

            // Staff read the list; a customer and another merchant are refused; unknown is 404.
            let staff = try await accounts.signedIn("sam", role: .merchant).accessToken
            let added = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/members",
                json: AddMemberRequest(username: "sam", role: .staff),
                token: bruno
            )
            #expect(added.status.code < 300, "\(added.text)")
            #expect(try await client.send(.get, path, token: staff).status == .ok)
            #expect(try await add("Rolls", 90).status == .created)
            #expect(
                try await client.send(
                    .post,
                    path,
                    json: BusinessItemRequest(name: "Buns", price: Money(amount: 90, currency: "USD")),
                    token: staff
                ).status == .forbidden,
                "staff do not change the list"
            )
            let anna = try await accounts.signedIn("anna").accessToken
            #expect(try await client.send(.get, path, token: anna).status == .forbidden)
            #expect(try await client.send(.delete, itemPath, token: anna).status == .forbidden)
            #expect(try await client.send(.get, "/v1/businesses/\(UUID())/items", token: bruno).status == .notFound)
            #expect(
                try await client.send(.patch, "\(path)/\(UUID())", json: BusinessItemChange(), token: bruno).status
                    == .notFound
            )

            #expect(try await client.send(.delete, itemPath, token: bruno).status == .noContent)
            #expect(try await client.send(.delete, itemPath, token: bruno).status == .notFound)
            let left = try await client.send(.get, path, token: bruno).decode(Page<BusinessItem>.self)
            #expect(!left.items.contains { $0.id == coffee.id } && left.items.first?.id != loaf.id)
        }
    }
}
