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
            let plain = try await client.execute(
                uri: "/wallet/receipts/\(UUID())",
                method: .get,
                headers: [.accept: "*/*", .cookie: cookie]
            )
            #expect(plain.headers[.contentType]?.hasPrefix("text/html") == true)
            let json = try await client.execute(
                uri: "/wallet/receipts/\(UUID())",
                method: .get,
                headers: [.accept: "application/json", .cookie: cookie]
            )
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
            let charge = try await wallet.charge(
                business: shop.business.id,
                customer: "anna",
                420,
                token: shop.tokens.accessToken
            ).decode(
                Charge.self
            )
            #expect(try await wallet.approve(charge, token: anna).status == .ok)

            let bruno = PageSession(client)
            _ = try await bruno.submit("/login", to: "/login", ["login": "bruno", "password": AccountsDriver.password])
            let counter = "/wallet/counter/\(shop.business.id.uuidString.lowercased())"
            let answer = try await bruno.submit(
                counter,
                to: "\(counter)/charges/\(charge.id.uuidString.lowercased())/refund",
                ["amount": "99.00", "idempotencyKey": UUID().uuidString]
            )
            #expect(answer.status == .seeOther && answer.headers[.location] == counter)
            let refused = try await bruno.follow(answer)
            #expect(refused.text.contains("Refund refused:") && refused.text.contains(#"role="alert""#))
            #expect(refused.text.contains("Corner Cafe counter"))
        }
    }

    /// A refused form goes back to its page (POST → redirect → GET) and shows there what was typed, each problem beside
    /// its field, once; a forged or another page's flash shows nothing.
    @Test func aRefusedFormReturnsToItsPageAsTyped() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let shop = try await PlacesDriver(client).shop(at: Coordinate(latitude: 52.52, longitude: 13.405))
            let bruno = PageSession(client)
            _ = try await bruno.submit("/login", to: "/login", ["login": "bruno", "password": AccountsDriver.password])
            let typed = [
                "name": "Kiosk am See", "category": "grocery", "radiusMeters": "40", "open-6": "on", "opens-6": "08:00",
                "closes-6": "",
            ]
            let answer = try await bruno.submit("/places/new", to: "/places/new", typed)
            #expect(answer.status == .seeOther && answer.headers[.location] == "/places/new")
            let wizard = try await bruno.follow(answer)
            #expect(
                wizard.text.contains(#"value="Kiosk am See""#)
                    && wizard.text.contains(#"<option value="grocery" selected"#)
            )
            #expect(
                wizard.text.contains("Tap the map where the entrance is")
                    && wizard.text.contains("Give both times for each open day.")
            )
            #expect(
                wizard.text.contains(#"name="open-6" checked"#) && !wizard.text.contains(#"name="open-0" checked"#),
                "the week as typed"
            )
            #expect(try await bruno.get("/places/new").text.contains(#"name="open-0" checked"#), "a reload starts over")

            // A refused change to a location shows on that location's row, open, not on the form that adds one.
            let edit = "/places/businesses/\(shop.business.id.uuidString.lowercased())/edit"
            let location = shop.location.id.uuidString.lowercased()
            let row = try await bruno.submit(
                edit,
                to: "/places/businesses/\(shop.business.id.uuidString.lowercased())/locations/\(location)",
                [
                    "name": "Corner Cafe", "address": "Main St 1", "latitude": "52.52", "longitude": "13.405",
                    "radiusMeters": "5", "openingHours": "",
                ]
            )
            #expect(row.headers[.location] == "\(edit)#location-\(location)")
            let page = try await bruno.follow(row).text
            #expect(
                page.contains("<details open>")
                    && page.contains(
                        #"id="radius-\#(location)" name="radiusMeters" type="number" min="10" max="500" value="5""#
                    )
            )

            // The flash is signed: a changed one shows nothing, the genuine one shows the row again.
            let cookie = try #require(row.headers[values: .setCookie].first { $0.hasPrefix("plaza_flash=") })
            let value = String(cookie.dropFirst("plaza_flash=".count).prefix { $0 != ";" })
            let session = await bruno.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            for (flash, shows) in [
                (String(value.dropLast()) + (value.hasSuffix("0") ? "1" : "0"), false), (value, true),
            ] {
                let shown = try await client.execute(
                    uri: edit,
                    method: .get,
                    headers: [.accept: "text/html", .cookie: "\(session); plaza_flash=\(flash)"]
                )
                #expect(shown.text.contains("<details open>") == shows)
            }
        }
    }
}
