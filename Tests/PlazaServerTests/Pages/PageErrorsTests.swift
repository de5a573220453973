import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// A page that cannot be shown answers with the HTML error page and the signed-in header, not a JSON document; an
/// action refused at the counter says so on the counter.
@Suite struct PageErrorsTests {
    @Test func aMissingPageIsAnHTMLPageWithTheSignedInHeader() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await AccountsDriver(client).signedIn("zoe")
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "zoe", "password": AccountsDriver.password])
            let missing = try await browser.get("/wallet/receipts/\(UUID())")
            #expect(missing.status == .notFound && missing.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(missing.text.contains("Log out") && missing.text.contains(#"<a href="/account""#))
            // The API reference is a page of the app like the others: the signed-in navigation, not the guest's.
            let reference = try await browser.get("/docs/api")
            #expect(reference.text.contains("Log out") && !reference.text.contains(#"href="/signup""#))
            // A client that says nothing of what it accepts (curl) gets the page too; one that asks for JSON gets JSON.
            let cookie = await browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let plain = try await client.execute(uri: "/wallet/receipts/\(UUID())", method: .get, headers: [.accept: "*/*", .cookie: cookie])
            #expect(plain.headers[.contentType]?.hasPrefix("text/html") == true)
            let json = try await client.execute(
                uri: "/wallet/receipts/\(UUID())", method: .get, headers: [.accept: "application/json", .cookie: cookie])
            #expect(json.problem?.code == .notFound)
        }
    }

    @Test func aRefundRefusedAtTheCounterSaysWhy() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let wallet = WalletDriver(client)
            let places = PlacesDriver(client)
            let point = Coordinate(latitude: 52.52, longitude: 13.405)
            let shop = try await places.shop(at: point)
            let anna = try await places.sharingCustomer("anna").accessToken
            try await places.move(to: point, token: anna)
            try await wallet.fund(1_000, token: anna)
            let charge = try await wallet.charge(business: shop.business.id, customer: "anna", 420, token: shop.tokens.accessToken).decode(
                Charge.self)
            #expect(try await wallet.approve(charge, token: anna).status == .ok)

            let bruno = PageSession(client)
            _ = try await bruno.submit("/login", to: "/login", ["login": "bruno", "password": AccountsDriver.password])
            let counter = "/wallet/counter/\(shop.business.id.uuidString.lowercased())"
            let refused = try await bruno.submit(
                counter, to: "\(counter)/charges/\(charge.id.uuidString.lowercased())/refund",
                ["amount": "99.00", "idempotencyKey": UUID().uuidString])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Refund refused:") && refused.text.contains(#"role="alert""#))
            #expect(refused.text.contains("Corner Cafe counter"))
        }
    }
}
