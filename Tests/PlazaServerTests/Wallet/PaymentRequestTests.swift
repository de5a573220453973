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
