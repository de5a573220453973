import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Issue 41: an order's mails go out in the shopper's language, amounts and counts written their way.
@Suite struct CardOrderMailLanguageTests {
    @Test(arguments: TestEngine.enabled)
    func aPaidOrdersMailIsInTheShoppersLanguage(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await CardOrderTests.shopper(client, services)
            let german = try await client.send(.patch, "/v1/me", json: ProfileUpdate(language: "de"), token: s.token)
            #expect(german.status == .ok, "\(german.text)")
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .print, quantity: 24)
            )
            let proof = try await CardOrderTests.proof(client, s.token, s.design.id)
            let order = try await CardOrderTests.order(client, s.token, proofs: [proof]).decode(CardOrder.self)
            #expect(try await CardOrderTests.pay(client, s.token, order).decode(CardOrder.self).status == .paid)

            let words = try Catalogue.load(pseudo: false).words("de")
            let subject = words("mail.card_paid.subject")
            #expect(subject != "Your card order is paid")
            _ = try await AccountsDriver(client).subjects(to: "sam@example.com") { $0.contains(subject) }
            let mail = try #require(
                try await AccountsDriver(client).mails(to: "sam@example.com").first { $0.subject == subject }
            )
            // "Gesamt: 88,99 $" (or however German writes it), never "$88.99"; the count's German plural.
            let total = Money(amount: order.total, currency: order.currency).formatted(locale: words.locale)
            #expect(mail.text.contains(words("mail.card_paid.total", ["amount": total])), "\(mail.text)")
            #expect(
                mail.text.contains(
                    words.plural(
                        "mail.card_paid.cards",
                        count: 24,
                        shown: "24",
                        [
                            "design": order.items[0].designName, "paper": order.items[0].paperName,
                            "amount": Money(amount: order.items[0].amount, currency: order.currency).formatted(
                                locale: words.locale
                            ),
                        ]
                    )
                ),
                "\(mail.text)"
            )
            #expect(!mail.text.contains("Thank you"))
        }
    }
}
