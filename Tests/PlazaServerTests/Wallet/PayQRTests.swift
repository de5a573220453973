import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaMedia
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Issue 39, trust at the till: a person's QR lets a friend pay them, and a shop's QR, printed at the counter, opens
/// the shop's pay page where the cashier's charge arrives to be paid. Each QR has its text twin.
@Suite struct PayQRTests {
    /// The text between `marker` and the next `<`.
    static func text(after marker: String, in html: String) -> String? {
        guard let range = html.range(of: marker) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "<" })
    }

    static func signedIn(_ client: any TestClientProtocol, _ login: String) async throws -> PageSession {
        let browser = PageSession(client)
        _ = try await browser.submit("/login", to: "/login", ["login": login, "password": AccountsDriver.password])
        return browser
    }

    @Test(arguments: TestEngine.enabled)
    func aFriendScansMyQRAndPaysMe(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("anna")
            _ = try await accounts.signedIn("carla")
            let anna = try await Self.signedIn(client, "anna")
            #expect(try await anna.get("/wallet").text.contains(#"href="/wallet/my-qr""#), "reachable from the wallet")

            let page = try await anna.get("/wallet/my-qr").text
            let link = try #require(Self.text(after: #"data-my-link translate="no">"#, in: page))
            #expect(link.hasPrefix("http") && link.hasSuffix("/wallet/send?to=anna"))
            let qr = try #require(QRCode(link)?.svg(scale: 5))
            #expect(page.contains(qr), "the QR holds the link shown")
            #expect(page.contains("@anna"), "the username to type is its text twin")

            // Carla's camera opens the link: the payment form with Anna filled in.
            let carla = try await Self.signedIn(client, "carla")
            let path = String(link[try #require(link.range(of: "/wallet/send")).lowerBound...])
            let form = try await carla.get(path)
            #expect(form.status == .ok && form.text.contains(#"value="anna""#))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theShopsQROpensItsPayPageWhereTheChargeArrives(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (business, bruno, _) = try await ChargeTests.counter(client)
            let id = business.id.uuidString.lowercased()
            let owner = try await Self.signedIn(client, "bruno")
            #expect(try await owner.get("/wallet/counter/\(id)").text.contains("/wallet/shop/\(id)/poster"))
            let poster = try await owner.get("/wallet/shop/\(id)/poster").text
            let link = try #require(Self.text(after: #"data-shop-link translate="no">"#, in: poster))
            let qr = try #require(QRCode(link)?.svg(scale: 8))
            #expect(link.hasSuffix("/wallet/shop/\(id)") && poster.contains(qr), "the QR holds the link shown")

            let anna = try await Self.signedIn(client, "anna")
            #expect(try await anna.get("/wallet/shop/\(id)/poster").status == .notFound, "only its team prints it")
            let path = String(link[try #require(link.range(of: "/wallet/shop")).lowerBound...])
            let shop = try await anna.get(path).text
            #expect(shop.contains("Pay Corner Cafe") && shop.contains("No charges are waiting for you."))
            let coded = try await anna.post("/wallet/shop/\(id)/pay-code", [:], csrf: PageSession.csrfToken(in: shop))
            let code = try #require(Self.text(after: "Your pay code: </span>", in: coded.text))
                .replacingOccurrences(of: " ", with: "")
            #expect(code.count == 8)

            #expect(try await wallet.charge(business: business.id, payCode: code, 450, token: bruno).status == .created)
            let waiting = try await anna.get(path).text
            #expect(waiting.contains("Pay $4.50") && !waiting.contains("No charges are waiting for you."))
        }
    }
}
