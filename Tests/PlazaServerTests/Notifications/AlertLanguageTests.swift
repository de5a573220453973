import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Synchronization
import Testing

@testable import PlazaServer

/// Issue 41: an alert reaches each person in their own language (the account's `language`), whoever caused it, and
/// the English of the publishing code reaches those who chose none.
@Suite struct AlertLanguageTests {
    @Test(arguments: TestEngine.enabled)
    func moneyReceivedArrivesInTheRecipientsLanguage(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let ben = try await accounts.signedIn("ben").accessToken
            let carla = try await accounts.signedIn("carla").accessToken
            let german = try await client.send(.patch, "/v1/me", json: ProfileUpdate(language: "de"), token: anna)
            #expect(german.status == .ok, "\(german.text)")
            let wallet = WalletDriver(client)
            try await wallet.fund(1_000, token: ben)

            let heard = try await ArrivalTests().arrivals(client, token: anna, count: 2) {
                let sent = try await wallet.transfer(to: "anna", 725, note: "Pizza", token: ben)
                #expect(sent.status == .created)
            }
            let written = try Self.money(725, "de")
            #expect(heard.map(\.title) == ["Ben hat dir \(written) geschickt."], "\(heard)")
            #expect(heard.map(\.body) == ["Pizza"])

            // Carla chose no language: the operator's default, English.
            let english = try await ArrivalTests().arrivals(client, token: carla, count: 2) {
                let sent = try await wallet.transfer(to: "carla", 100, token: ben)
                #expect(sent.status == .created)
            }
            #expect(english.map(\.title).first?.hasSuffix("sent you $1.00.") == true, "\(english)")
        }
    }

    /// A charge asks in the customer's language, and its answer reaches the merchant in theirs.
    @Test(arguments: TestEngine.enabled)
    func aChargeAsksInTheCustomersLanguageAndIsAnsweredInTheMerchants(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            for (token, language) in [(anna, "es"), (bruno, "de")] {
                let chosen = try await client.send(
                    .patch,
                    "/v1/me",
                    json: ProfileUpdate(language: language),
                    token: token
                )
                #expect(chosen.status == .ok, "\(chosen.text)")
            }
            let wallet = WalletDriver(client)
            let made = Mutex<Charge?>(nil)
            let asked = try await ArrivalTests().arrivals(client, token: anna, count: 2) {
                let created = try await wallet.charge(business: business.id, customer: "anna", 420, token: bruno)
                made.withLock { $0 = try? created.decode(Charge.self) }
            }
            let asking = try Self.money(420, "es")
            #expect(asked.map(\.title) == ["Corner Cafe te pide que pagues \(asking)."], "\(asked)")
            #expect(asked.map(\.body) == ["Toca para pagar o rechazar."])
            let charge = try #require(made.withLock { $0 })
            let answered = try await ArrivalTests().arrivals(client, token: bruno, count: 2) {
                let paid = try await wallet.approve(charge, token: anna)
                #expect(paid.status == .ok, "\(paid.text)")
            }
            let paidTitle = "hat Corner Cafe \(try Self.money(420, "de")) bezahlt."
            #expect(answered.map(\.title).contains { $0.hasSuffix(paidTitle) }, "\(answered)")
        }
    }

    /// Dollars as a reader of `language` writes them ("7,25 $" in German), as the alerts write them.
    static func money(_ cents: Int64, _ language: String) throws -> String {
        let locale = try Catalogue.load(pseudo: false).words(language).locale
        return Money(amount: cents, currency: "USD").formatted(locale: locale)
    }
}
