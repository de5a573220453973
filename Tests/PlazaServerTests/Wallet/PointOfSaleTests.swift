import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// A counter that works like a point of sale (issue 39): charges built from the business's items, a tip that comes
/// last (never discounted, not counted for loyalty), and receipts with the shop's address and tax line.
@Suite struct PointOfSaleTests {
    /// Adds an item to the business's list.
    static func item(
        _ client: any TestClientProtocol,
        _ name: String,
        _ cents: Int64,
        business: UUID,
        token: String
    ) async throws -> BusinessItem {
        let created = try await client.send(
            .post,
            "/v1/businesses/\(business)/items",
            json: BusinessItemRequest(name: name, price: Money(amount: cents, currency: "USD")),
            token: token
        )
        #expect(created.status == .created, "\(created.text)")
        return try created.decode(BusinessItem.self)
    }

    @Test(arguments: TestEngine.enabled)
    func aChargeFromItemsWithATipIsPaidAndItsReceiptPrintsTheShop(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            let latte = try await Self.item(client, "Latte", 350, business: business.id, token: bruno)
            let croissant = try await Self.item(client, "Croissant", 250, business: business.id, token: bruno)
            let settings = try await client.send(
                .patch,
                "/v1/businesses/\(business.id)",
                json: UpdateBusinessRequest(tipPercents: [20, 10, 15], taxId: " VAT DE129273398 ", taxRate: 19),
                token: bruno
            )
            #expect(settings.status == .ok, "\(settings.text)")
            let shop = try settings.decode(Business.self)
            #expect(shop.tipPercents == [10, 15, 20] && shop.taxId == "VAT DE129273398" && shop.taxRate == 19)

            // No amount: the lines' sum plus the tip. Each line keeps the item's name, price and id.
            let lines = [ChargeLine(itemId: latte.id, quantity: 2), ChargeLine(itemId: croissant.id)]
            let created = try await wallet.charge(
                business: business.id,
                customer: "anna",
                nil,
                lines: lines,
                tip: 150,
                token: bruno
            )
            #expect(created.status == .created, "\(created.text)")
            let charge = try created.decode(Charge.self)
            #expect(charge.amount == 1_100 && charge.tip == 150 && charge.goods.amount == 950)
            #expect(
                charge.items == [
                    ChargeItem(description: "Latte", quantity: 2, unitAmount: 350, itemId: latte.id),
                    ChargeItem(description: "Croissant", quantity: 1, unitAmount: 250, itemId: croissant.id),
                ]
            )

            // A price changed or an item removed later leaves the charge as it was made.
            let removed = try await client.send(
                .delete,
                "/v1/businesses/\(business.id)/items/\(croissant.id)",
                token: bruno
            )
            #expect(removed.status == .noContent)
            #expect(try await wallet.approve(charge, token: anna).status == .ok)
            #expect(try await wallet.balance(token: anna) == 5_000 - 1_100)

            let receipt = try await client.send(.get, "/v1/charges/\(charge.id)/receipt", token: anna).decode(
                Receipt.self
            )
            #expect(receipt.tip == 150 && receipt.amount == 1_100 && receipt.items == charge.items)
            #expect(receipt.address == "1 Main Street", "\(String(describing: receipt.address))")
            #expect(receipt.taxId == "VAT DE129273398")
            // 19 % included in the 9.50 bought (the tip carries none): 1.52.
            #expect(receipt.tax == ReceiptTax(rate: 19, amount: 152))

            // The removed item, another business's item and an unknown one are named by their line.
            let other = try await PlacesDriver(client).shop(
                owner: "olga",
                at: Coordinate(latitude: 48.2, longitude: 11.6)
            )
            let foreign = try await Self.item(
                client,
                "Bagel",
                300,
                business: other.business.id,
                token: other.tokens.accessToken
            )
            let refused = try await wallet.charge(
                business: business.id,
                customer: "anna",
                nil,
                lines: [
                    ChargeLine(itemId: latte.id), ChargeLine(itemId: croissant.id), ChargeLine(itemId: foreign.id),
                    ChargeLine(itemId: UUID()),
                ],
                token: bruno
            )
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.problem?.errors?.map(\.field) == ["items.1.itemId", "items.2.itemId", "items.3.itemId"],
                "\(refused.text)"
            )
            // Sent, the amount must be the lines' sum plus the tip.
            let wrong = try await wallet.charge(
                business: business.id,
                customer: "anna",
                700,
                lines: [ChargeLine(itemId: latte.id, quantity: 2)],
                tip: 100,
                token: bruno
            )
            #expect(wrong.problem?.errors?.map(\.field) == ["amount"], "\(wrong.text)")
            let nothing = try await wallet.charge(business: business.id, customer: "anna", nil, token: bruno)
            #expect(nothing.problem?.errors?.map(\.field) == ["amount"], "\(nothing.text)")
            let badTip = try await wallet.charge(business: business.id, customer: "anna", 500, tip: 600, token: bruno)
            #expect(badTip.problem?.errors?.map(\.field) == ["tip"], "\(badTip.text)")
            let badSettings = try await client.send(
                .patch,
                "/v1/businesses/\(business.id)",
                json: UpdateBusinessRequest(tipPercents: [10, 10, 80], taxRate: 7.125),
                token: bruno
            )
            #expect(Set(badSettings.problem?.errors?.map(\.field) ?? []) == ["tipPercents", "taxRate"])
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aCouponNeverTakesOffTheTipAndLoyaltyDoesNotCountIt(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (shop, _, _, claim) = try await CouponChargeTests().claimed(client, services)
            let wallet = WalletDriver(client)
            // 10 % off 12.00 is 1.20; the 3.00 tip is added after it, whole.
            let created = try await wallet.charge(
                business: shop.business,
                customer: "anna",
                nil,
                lines: [ChargeLine(description: "Sourdough", quantity: 2, unitAmount: 600)],
                tip: 300,
                coupon: claim.code,
                token: shop.owner
            )
            #expect(created.status == .created, "\(created.text)")
            let charge = try created.decode(Charge.self)
            #expect(charge.discount?.amount == 120 && charge.subtotal == 1_200)
            #expect(charge.amount == 1_380 && charge.tip == 300)
        }
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let (business, bruno, anna, _) = try await LoyaltyPaymentTests.bakery(client)
            _ = try await client.send(
                .put,
                "/v1/me/loyalty-settings",
                json: LoyaltySettings(cardOnPayment: true),
                token: anna
            )
            // 9.00 of bread and a 2.00 tip: one punch per 5.00 counts the 9.00 only.
            let wallet = WalletDriver(client)
            let charge = try await wallet.charge(
                business: business.id,
                customer: "anna",
                1_100,
                lines: [ChargeLine(description: "Bread", quantity: 3, unitAmount: 300)],
                tip: 200,
                token: bruno
            ).decode(Charge.self)
            let paid = try await wallet.approve(charge, token: anna).decode(Charge.self)
            #expect(paid.loyalty?.first?.punchesAdded == 1, "\(String(describing: paid.loyalty))")
        }
    }
}
