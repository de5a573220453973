import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// What a payment request refuses, and where it shows up.
@Suite struct PaymentRequestTests {
    @Test(arguments: TestEngine.enabled)
    func requestsNameSomeoneElseAndAreAnsweredInTheInbox(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let carla = try await accounts.signedIn("carla").accessToken
            func ask(_ to: String, _ amount: Int64, key: String = UUID().uuidString) async throws -> TestResponse {
                try await client.send(
                    .post,
                    "/v1/payment-requests",
                    json: CreatePaymentRequest(to: to, amount: amount, currency: "USD", note: "Tickets"),
                    token: carla,
                    headers: WalletDriver.keyed(key)
                )
            }
            #expect(try await ask("nobody", 500).problem?.errors?.first?.field == "to")
            #expect(try await ask("@carla", 500).problem?.errors?.first?.message == "You cannot ask yourself to pay.")
            #expect(try await ask("anna", 0).problem?.errors?.first?.field == "amount")
            let noKey = try await client.send(
                .post,
                "/v1/payment-requests",
                json: CreatePaymentRequest(to: "anna", amount: 500, currency: "USD"),
                token: carla
            )
            #expect(noKey.status == .badRequest)

            let created = try await ask("anna", 500, key: "same")
            #expect(created.status == .created)
            let again = try await ask("anna", 500, key: "same")
            let (first, second) = (try created.decode(Charge.self), try again.decode(Charge.self))
            #expect(again.status == .created && first.id == second.id)
            let inbox = try await client.send(.get, "/v1/inbox", token: anna).decode(InboxPage.self)
            #expect(
                inbox.items.map(\.title) == ["Carla asks you to pay 5.00 USD."] && inbox.items.first?.note == "Tickets"
            )
            let request = try created.decode(Charge.self)
            #expect(try await client.send(.post, "/v1/charges/\(request.id)/decline", token: anna).status == .ok)
            let told = try await client.send(.get, "/v1/inbox", token: carla).decode(InboxPage.self)
            #expect(told.items.map(\.title) == ["Anna declined your request for 5.00 USD."])
        }
    }
}

extension PaymentRequestTests {
    /// A friend's request lasts days: the page gives its day, not only a time that reads as tonight (issue 39).
    @Test func aRequestSaysWhichDayItAsksToBePaidUntil() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("anna")
            let carla = try await accounts.signedIn("carla").accessToken
            let asked = try await client.send(
                .post,
                "/v1/payment-requests",
                json: CreatePaymentRequest(to: "anna", amount: 500, currency: "USD", note: "Tickets"),
                token: carla,
                headers: WalletDriver.keyed(UUID().uuidString)
            ).decode(Charge.self)
            #expect(asked.expiresAt > Date().addingTimeInterval(86_400), "a request lasts days")
            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            let charges = try await page.get("/wallet/charges").text
            let day = asked.expiresAt.formatted(
                Date.FormatStyle(locale: Locale(identifier: "en_US"), timeZone: .gmt).day().month(.abbreviated)
            )
            #expect(charges.contains("Asks to be paid until <time"), "\(charges)")
            #expect(charges.contains(day), "the day it ends: \(day)")
        }
    }
}

extension PaymentRequestTests {
    /// Requests I sent show in my wallet beside the money that moved (issue 39: Venmo lists them as incomplete): each with
    /// the friend's name and its answer, and a waiting one can be called off from there.
    @Test(arguments: TestEngine.enabled)
    func theWalletShowsTheRequestsISentAndCallsOffAWaitingOne(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await accounts.signedIn("bruno")
            let carla = try await accounts.signedIn("carla").accessToken
            func ask(_ to: String, _ amount: Int64, _ note: String) async throws -> Charge {
                try await client.send(
                    .post,
                    "/v1/payment-requests",
                    json: CreatePaymentRequest(to: to, amount: amount, currency: "USD", note: note),
                    token: carla,
                    headers: WalletDriver.keyed(UUID().uuidString)
                ).decode(Charge.self)
            }
            let tickets = try await ask("anna", 500, "Tickets")
            let pizza = try await ask("bruno", 1_250, "Pizza")
            #expect(try await client.send(.post, "/v1/charges/\(tickets.id)/decline", token: anna).status == .ok)

            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "carla", "password": AccountsDriver.password])
            let wallet = try await page.get("/wallet").text
            #expect(wallet.contains("Requests you sent"), "\(wallet)")
            let rows = wallet.components(separatedBy: "data-request=").dropFirst()
            let annaRow = try #require(rows.first { $0.contains("Tickets") })
            let brunoRow = try #require(rows.first { $0.contains("Pizza") })
            #expect(annaRow.contains("Anna") && annaRow.contains("declined") && annaRow.contains("$5.00"))
            #expect(!annaRow.contains("Call off"), "an answered request cannot be called off")
            #expect(brunoRow.contains("Bruno") && brunoRow.contains("waiting") && brunoRow.contains("$12.50"))
            #expect(brunoRow.contains("/wallet/request/\(pizza.id.uuidString.lowercased())/cancel"))

            let cancelled = try await page.submit(
                "/wallet",
                to: "/wallet/request/\(pizza.id.uuidString.lowercased())/cancel",
                ["back": "/wallet"]
            )
            #expect(cancelled.status == .seeOther)
            #expect(cancelled.headers[.location]?.hasPrefix("/wallet?notice=request-cancelled") == true)
            let after = try await page.follow(cancelled).text
            #expect(after.contains("Request called off"))
            let pizzaRow = try #require(after.components(separatedBy: "data-request=").first { $0.contains("Pizza") })
            #expect(pizzaRow.contains("called off") && !pizzaRow.contains(">Call off<"))
            let asked = try await client.send(.get, "/v1/charges/\(pizza.id)", token: carla).decode(Charge.self)
            #expect(asked.status == .cancelled)
        }
    }
}
