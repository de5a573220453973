import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// The wallet as a payment app: a handle, a confirmation with the recipient's name before money moves, a success
/// screen that says what happened; history rows that open their own page, paged both ways.
@Suite struct WalletPagesTests {
    static func field(_ name: String, in html: String) -> String {
        guard let range = html.range(of: #"name="\#(name)" value=""#) else { return "" }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test(arguments: TestEngine.enabled)
    func payingAHandleIsConfirmedThenSaidOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let carla = try await accounts.signedIn("carla").accessToken
            #expect(
                try await client.send(.patch, "/v1/me", json: ProfileUpdate(displayName: "Carla Kim"), token: carla)
                    .status == .ok
            )
            _ = try await wallet.fund(2_000, token: anna)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )

            let unknown = try await browser.follow(
                try await browser.get("/wallet/send/review?to=%40nobody&amount=7.25")
            )
            #expect(unknown.status == .ok && unknown.text.contains("No one has the username @nobody"))
            #expect(unknown.text.contains(#"value="@nobody""#), "what was typed stays in the form")

            let review = try await browser.get("/wallet/send/review?to=%24carla&amount=7.25&note=Lunch").text
            #expect(review.contains("Carla Kim") && review.contains("@carla") && review.contains("Send $7.25"))
            #expect(try await wallet.balance(token: anna) == 2_000, "nothing moves before the confirmation")
            let fields = [
                "to": Self.field("to", in: review), "amount": "7.25", "note": "Lunch",
                "idempotencyKey": Self.field("idempotencyKey", in: review),
            ]
            let sent = try await browser.post("/wallet/send", fields, csrf: PageSession.csrfToken(in: review))
            let location = try #require(sent.headers[.location])
            #expect(
                sent.status == .seeOther && location.hasPrefix("/wallet/activity/")
                    && location.hasSuffix("?notice=sent")
            )
            let success = try await browser.get(location).text
            #expect(
                success.contains("You sent $7.25 to Carla K. ✓") && success.contains("Lunch")
                    && success.contains("Pay again")
            )

            // The same confirmation sent twice (a double tap, a reload) pays once.
            let again = try await browser.post("/wallet/send", fields, csrf: PageSession.csrfToken(in: review))
            #expect(again.headers[.location] == "/wallet?notice=done")
            #expect(try await browser.get("/wallet?notice=done").text.contains("nothing was charged or sent twice"))
            #expect(try await wallet.balance(token: anna) == 1_275)

            // Recent payees, for the app and the page.
            let contacts = try await client.send(.get, "/v1/me/contacts", token: anna).decode(Page<Person>.self)
            #expect(contacts.items == [Person(username: "carla", displayName: "Carla Kim")])
            #expect(try await browser.get("/wallet/send").text.contains(#"data-contact="carla""#))
            let person = try await client.send(.get, "/v1/people/%40carla", token: anna).decode(Person.self)
            #expect(person.displayName == "Carla Kim")
            #expect(try await client.send(.get, "/v1/people/nobody", token: anna).status == .notFound)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func historyPagesGoOlderAndNewerAgain(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            _ = try await AccountsDriver(client).signedIn("carla")
            _ = try await wallet.fund(10_000, token: anna)
            for number in 1...24 {
                #expect(
                    try await wallet.transfer(to: "carla", 10, note: "note \(number)", token: anna).status == .created
                )
            }
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let first = try await browser.get("/wallet").text
            #expect(first.contains("note 24") && !first.contains("note 14") && !first.contains("← Newer"))
            let olderLink = try #require(Self.link("Older →", in: first))
            let older = try await browser.get(olderLink).text
            #expect(older.contains("note 14") && !older.contains("note 15") && older.contains("← Newer"))
            let newer = try await browser.get(try #require(Self.link("← Newer", in: older))).text
            #expect(
                newer.contains("note 24") && newer.contains("note 15") && !newer.contains("note 14")
                    && !newer.contains("← Newer")
            )
            // Each row opens its movement.
            let row = try #require(
                newer.range(of: #"href="/wallet/activity/"#).map {
                    String(newer[$0.lowerBound...].dropFirst(6).prefix { $0 != "\"" })
                }
            )
            #expect(try await browser.get(row).text.contains("Payment sent"))
        }
    }

    /// The `href` of the link whose text is `text`.
    static func link(_ text: String, in html: String) -> String? {
        guard let end = html.range(of: "\">\(text)</a>") else { return nil }
        guard let start = html[..<end.lowerBound].range(of: "href=\"", options: .backwards) else { return nil }
        let href = html[start.upperBound..<end.lowerBound].prefix { $0 != "\"" && $0 != "#" }
        return String(href).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// A customer blocks a shop from the charge it sent, on the page where they answer it.
    @Test func aShopIsBlockedFromItsCharge() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let (business, bruno, _) = try await ChargeTests.counter(client)
            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 250, token: bruno)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let page = try await browser.get("/wallet/charges").text
            #expect(page.contains("data-block") && page.contains("Pay $2.50"))
            let blocked = try await browser.post(
                "/wallet/blocks/\(business.id.uuidString.lowercased())",
                ["back": "/wallet/charges"],
                csrf: PageSession.csrfToken(in: page)
            )
            #expect(blocked.headers[.location] == "/wallet/charges?notice=blocked")
            #expect(
                try await browser.get("/wallet/charges?notice=blocked").text.contains("cannot ask you to pay any more")
            )
            let refused = try await WalletDriver(client).charge(
                business: business.id,
                customer: "anna",
                100,
                token: bruno
            )
            #expect(refused.status == .forbidden && refused.problem?.code == .chargingBlocked)
        }
    }

    /// The navigation counts what waits for the reader on each page they load, not on every fetch of its scripts.
    @Test func badgesCountWhatWaitsOnPageLoadsOnly() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let (business, bruno, _) = try await ChargeTests.counter(client)
            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 250, token: bruno)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let page = try await browser.get("/wallet").text
            #expect(page.contains(#"data-badge="charges" aria-label="1 waiting">1</b>"#))
            let cookie = await browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let dest = HTTPField.Name("Sec-Fetch-Dest")!
            // A navigation that the service worker passed on: `empty`, but it asks for HTML.
            let forwarded = try await client.execute(
                uri: "/wallet",
                method: .get,
                headers: [.cookie: cookie, dest: "empty", .accept: "text/html"]
            )
            #expect(forwarded.text.contains(#"data-badge="charges""#))
            let fragment = try await client.execute(
                uri: "/wallet",
                method: .get,
                headers: [
                    .cookie: cookie, dest: "empty", .accept: "text/html", HTTPField.Name("X-Plaza-Fragment")!: "1",
                ]
            )
            #expect(fragment.status == .ok && !fragment.text.contains("data-badge"))
            let badges = try await client.execute(
                uri: "/home/badges.json",
                method: .get,
                headers: [.cookie: cookie, dest: "empty"]
            )
            #expect(badges.text == #"{"charges":1,"chats":0,"inbox":1}"#)
        }
    }

    /// Money in the reader's own convention: the browser's first language decides grouping, decimal mark and symbol.
    @Test func amountsAreWrittenForTheReadersLanguage() async throws {
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.wallet.limits.newAccountDays = 0 }) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            _ = try await WalletDriver(client).fund(100_000, token: anna)
            _ = try await WalletDriver(client).fund(23_456, token: anna)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let cookie = await browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let english = try await client.execute(
                uri: "/wallet",
                method: .get,
                headers: [.cookie: cookie, .acceptLanguage: "en-US,en;q=0.9"]
            )
            #expect(english.text.contains("$1,234.56"))
            let german = try await client.execute(
                uri: "/wallet",
                method: .get,
                headers: [.cookie: cookie, .acceptLanguage: "de-DE,de;q=0.9"]
            )
            #expect(german.text.contains("1.234,56\u{a0}$"))
        }
    }

    /// An owner pays a business's balance out from the same Withdraw page, choosing the business.
    @Test func anOwnerWithdrawsFromTheBusinessBalance() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            let charge = try await wallet.charge(business: business.id, customer: "anna", 250, token: bruno).decode(
                Charge.self
            )
            #expect(try await wallet.approve(charge, token: anna).status == .ok)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "bruno", "password": AccountsDriver.password]
            )
            let page = try await browser.get("/wallet/withdraw").text
            let id = business.id.uuidString.lowercased()
            #expect(page.contains(#"<option value="\#(id)">"#) && page.contains("$2.50"))
            let withdrawn = try await browser.post(
                "/wallet/withdraw",
                ["from": id, "amount": "1.00", "idempotencyKey": UUID().uuidString],
                csrf: PageSession.csrfToken(in: page)
            )
            let location = try #require(withdrawn.headers[.location])
            #expect(location.hasPrefix("/wallet/activity/") && location.hasSuffix("?business=\(id)"))
            #expect(try await browser.get(location).text.contains("$1.00"))
            let left = try await client.send(.get, "/v1/businesses/\(business.id)/wallet", token: bruno).decode(
                Wallet.self
            )
            #expect(left.balances.first?.available == 150)
        }
    }
}
