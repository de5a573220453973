import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Holders hear before their punches expire (issue 39): once per card and expiry date, a few days ahead.
@Suite struct LoyaltyReminderTests {
    @Test(arguments: TestEngine.enabled)
    func aHolderHearsOnceBeforeTheirPunchesExpire(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let loyalty = LoyaltyTests()
            let (tokens, business, location) = try await PlacesDriver(client).shop(
                owner: "bruno",
                name: "Bruno's Café",
                at: loyalty.square
            )
            let program = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/loyalty-programs",
                json: LoyaltyProgramRequest(
                    title: "Coffee card",
                    punchesRequired: 5,
                    reward: "A coffee",
                    cardValidDays: 30
                ),
                token: tokens.accessToken
            ).decode(LoyaltyProgram.self)
            let shop = LoyaltyTests.Shop(
                owner: tokens.accessToken,
                business: business,
                location: location,
                program: program
            )
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            // Anna reads loyalty news by e-mail, so what she is told can be read back.
            let mailed = [KindPreference(kind: .loyalty, push: true, email: true)]
            _ = try await client.send(
                .put,
                "/v1/me/notifications",
                json: NotificationPreferences(kinds: mailed, quietHours: nil),
                token: anna
            )
            let card = try await loyalty.takeCard(client, program, token: anna)
            let punched = try await loyalty.sync(
                client,
                [PunchSubmission(cardId: card.id, token: try await loyalty.token(client, shop).token)],
                token: anna
            )
            let end = try #require(punched.cards.first?.expiresAt)

            // A week ahead: too early. Three days ahead: told, once, however often the work runs.
            let reminders = services.loyalty
            #expect(try await reminders.remindExpiringPunches(now: end.addingTimeInterval(-7 * 86_400)) == 0)
            #expect(try await reminders.remindExpiringPunches(now: end.addingTimeInterval(-3 * 86_400 + 60)) == 1)
            #expect(try await reminders.remindExpiringPunches(now: end.addingTimeInterval(-86_400)) == 0, "once")
            // No day in the words (the card's page shows it); the count of punches is in the body's plural.
            let subject = "Your punches at Bruno's Café expire soon"
            let subjects = try await AccountsDriver(client).subjects(
                to: "anna@example.com",
                until: { $0.contains(subject) }
            )
            #expect(subjects.filter { $0 == subject }.count == 1, "\(subjects)")
            // Once it has expired nobody is reminded of it.
            #expect(try await services.loyalty.expireLapsedCards(now: end.addingTimeInterval(60)) == 1)
            #expect(try await reminders.remindExpiringPunches(now: end.addingTimeInterval(60)) == 0)
        }
    }
}
