import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Refunds say why (issue 39): each refund keeps its amount and the reason the business gave; the charge, its receipt,
/// the customer's payment page and her inbox show it.
@Suite struct RefundReasonTests {
    @Test(arguments: TestEngine.enabled)
    func eachRefundKeepsItsReasonAndTheCustomerReadsIt(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (business, bruno, anna) = try await ChargeTests.counter(client, funds: 5_000)
            let wallet = WalletDriver(client)
            let charge = try await wallet.charge(business: business.id, customer: "anna", 1_000, token: bruno)
                .decode(Charge.self)
            let paid = try await wallet.approve(charge, token: anna).decode(Charge.self)
            #expect(paid.refunds == [], "paid, nothing refunded yet")
            #expect(charge.refunds == nil, "absent before it is paid")

            let long = try await wallet.refund(paid, 100, reason: String(repeating: "x", count: 201), token: bruno)
            #expect(long.problem?.errors?.map(\.field) == ["reason"], "\(long.text)")
            let first = try await wallet.refund(paid, 150, reason: "  The crust was burnt. ", token: bruno)
            #expect(first.status == .ok, "\(first.text)")
            let second = try await wallet.refund(paid, 50, token: bruno)
            let refunded = try second.decode(Charge.self)
            #expect(refunded.refunds?.map(\.amount) == [150, 50])
            #expect(refunded.refunds?.map(\.reason) == ["The crust was burnt.", nil])
            #expect(second.text.contains(#""reason":null"#))
            let seen = try await client.send(.get, "/v1/charges/\(charge.id)", token: anna).decode(Charge.self)
            #expect(seen.refunds == refunded.refunds)
            let receipt = try await client.send(.get, "/v1/charges/\(charge.id)/receipt", token: anna)
                .decode(Receipt.self)
            #expect(receipt.refunds == refunded.refunds)
            #expect(try await services.verifyLedger().problems.isEmpty)

            // Her inbox and her payment's page say why; the receipt lists each refund.
            let inbox = try await client.send(.get, "/v1/inbox", token: anna).text
            #expect(inbox.contains("The crust was burnt."), "\(inbox)")
            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            let movement = try await page.get("/wallet/activity/\(charge.id.uuidString.lowercased())").text
            #expect(movement.contains(#"<span data-refund-reason translate="no">The crust was burnt.</span>"#))
            let shown = try await page.get("/wallet/receipts/\(charge.id.uuidString.lowercased())").text
            #expect(shown.contains("The crust was burnt.") && shown.contains("data-refund-line"))
        }
    }
}
