import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The loyalty counter says why it shows no code, and shows one once the merchant may trade.
@Suite struct LoyaltyPagesTests {
    @Test func theCounterOfAWaitingMerchantSaysWhyItShowsNoCode() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            let places = PlacesDriver(client)
            let dora = try await accounts.signedIn("dora", role: .merchant, approved: false).accessToken
            let business = try await places.createBusiness(name: "Dora's Flowers", token: dora)
            _ = try await places.addLocation(
                business: business.id,
                at: Coordinate(latitude: 48.1374, longitude: 11.5755),
                token: dora
            )
            let created = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/loyalty-programs",
                json: LoyaltyProgramRequest(title: "Bouquet card", punchesRequired: 5, reward: "A rose"),
                token: dora
            )
            #expect(created.status == .created)

            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "dora", "password": AccountsDriver.password]
            )
            let counter = "/loyalty/counter/\(business.id.uuidString.lowercased())"
            let waiting = try await browser.get(counter).text
            #expect(
                waiting.contains("data-counter-waiting") && waiting.contains("once an admin approves your business")
            )
            #expect(!waiting.contains("data-punch-code"))

            let me = try await client.send(.get, "/v1/me", token: dora).decode(User.self)
            try await accounts.approveMerchant(me.id)
            let running = try await browser.get(counter).text
            #expect(running.contains("data-punch-code") && !running.contains("data-counter-waiting"))
        }
    }

    /// One field at the counter takes what the customer's phone shows: their card's code punches it (a second within the
    /// velocity window is refused beside the field), a full card's redeem code gives the reward, anything else says why.
    @Test func theCountersCodeFieldPunchesRedeemsAndSaysWhatIsWrong() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            let places = PlacesDriver(client)
            let (owner, business, location) = try await places.shop(
                owner: "bruno",
                name: "Bruno's Bakery",
                at: Coordinate(latitude: 48.1, longitude: 11.5)
            )
            let program = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/loyalty-programs",
                json: LoyaltyProgramRequest(title: "Bread card", punchesRequired: 1, reward: "A loaf"),
                token: owner.accessToken
            ).decode(LoyaltyProgram.self)
            let anna = try await accounts.signedIn("anna").accessToken
            let card = try await client.send(.post, "/v1/loyalty-programs/\(program.id)/cards", token: anna).decode(
                LoyaltyCard.self
            )

            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "bruno", "password": AccountsDriver.password]
            )
            let counter = "/loyalty/counter/\(business.id.uuidString.lowercased())"
            let fields = ["locationId": location.id.uuidString, "program": program.id.uuidString]
            func confirm(_ code: String) async throws -> String {
                try await browser.follow(
                    try await browser.submit(counter, to: "\(counter)/code", fields.merging(["code": code]) { $1 })
                ).text
            }
            let wrong = try await confirm("12345678")
            #expect(
                wrong.contains("customer-code-error") && wrong.contains("Ask the customer to open their card again"),
                "the error sits by the field"
            )

            let shown = try await client.send(.post, "/v1/me/loyalty-cards/\(card.id)/punch-code", token: anna).decode(
                CustomerCode.self
            )
            let punched = try await confirm(shown.code)
            #expect(
                punched.contains("Punched @anna&#39;s Bread card: +1, now 1 of 1.")
                    || punched.contains("Punched @anna's Bread card: +1, now 1 of 1.")
            )
            #expect(punched.contains("data-counter-activity") && punched.contains("+1 punch on Bread card, now 1 of 1"))

            let next = try await client.send(.get, "/v1/me/loyalty-cards", token: anna).decode(Page<LoyaltyCard>.self)
                .items
            let level2 = try #require(next.first { $0.state == .active })
            let soon = try await client.send(.post, "/v1/me/loyalty-cards/\(level2.id)/punch-code", token: anna).decode(
                CustomerCode.self
            )
            let refused = try await confirm(soon.qrPayload)
            #expect(refused.contains("customer-code-error") && refused.contains("@anna: got a punch a moment ago"))

            let reward = try await client.send(.post, "/v1/me/loyalty-cards/\(card.id)/redeem-code", token: anna)
                .decode(RedeemCode.self)
            #expect(try await confirm(reward.code).contains("Redeemed: A loaf for @anna."))
        }
    }

    /// The owner's editor: a program with a second level, an end and a minimum spend; a day that is none is refused
    /// beside its field; once customers hold cards, the wording changes and the rules stay.
    @Test func anOwnerStartsAProgramWithLevelsAndEditsItsWording() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let (owner, business, _) = try await PlacesDriver(client).shop(
                owner: "bruno",
                name: "Bruno's Bakery",
                at: Coordinate(latitude: 48.1, longitude: 11.5)
            )
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "bruno", "password": AccountsDriver.password]
            )
            let counter = "/loyalty/counter/\(business.id.uuidString.lowercased())"
            var fields = [
                "title": "Bread card", "punchesRequired": "6", "reward": "A loaf", "velocityWindowMinutes": "10",
                "levelPunches": "4",
                "levelReward": "A loaf and a cake", "cardValidDays": "90", "expiresAt": "2026-02-30",
                "minimumSpend": "4.50", "oneCardAtATime": "1",
            ]
            let refused = try await browser.follow(try await browser.submit(counter, to: "\(counter)/programs", fields))
                .text
            #expect(
                refused.contains("Pick a day such as 2026-12-31") && refused.contains("value=\"A loaf and a cake\""),
                "typed values stay"
            )
            fields["expiresAt"] = "2030-12-31"
            fields["levelReward"] = ""
            let noReward = try await browser.follow(
                try await browser.submit(counter, to: "\(counter)/programs", fields)
            ).text
            #expect(noReward.contains("Give the reward."), "the next level's reward is asked for beside its field")
            fields["levelReward"] = "A loaf and a cake"
            let started = try await browser.follow(try await browser.submit(counter, to: "\(counter)/programs", fields))
                .text
            #expect(started.contains("The program is running"))
            let program = try #require(
                try await client.send(.get, "/v1/businesses/\(business.id)/loyalty-programs").decode(
                    Page<LoyaltyProgram>.self
                ).items.first
            )
            #expect(
                program.levels == [LoyaltyLevel(punchesRequired: 4, reward: "A loaf and a cake")]
                    && program.cardValidDays == 90
            )
            #expect(
                program.minimumSpend == Money(amount: 450, currency: "USD") && program.oneCardAtATime
                    && program.expiresAt != nil
            )

            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            _ = try await client.send(.post, "/v1/loyalty-programs/\(program.id)/cards", token: anna)
            let edit = "/loyalty/programs/\(program.id.uuidString.lowercased())/edit"
            let page = try await browser.get(edit).text
            #expect(
                page.contains("Customers hold cards of this program") && page.contains("value=\"Bread card\"")
                    && page.contains("value=\"2030-12-31\"")
            )
            var changed = fields
            changed["title"] = "Bread & cake card"
            changed.removeValue(forKey: "minimumSpend")
            let saved = try await browser.follow(
                try await browser.submit(edit, to: "/loyalty/programs/\(program.id.uuidString.lowercased())", changed)
            ).text
            #expect(
                saved.contains("The program&#39;s changes are saved.")
                    || saved.contains("The program's changes are saved.")
            )
            changed["punchesRequired"] = "5"
            let held = try await browser.follow(
                try await browser.submit(edit, to: "/loyalty/programs/\(program.id.uuidString.lowercased())", changed)
            ).text
            #expect(held.contains("only its wording can change now"))
            let now = try await client.send(.get, "/v1/loyalty-programs/\(program.id)").decode(LoyaltyProgram.self)
            #expect(now.title == "Bread & cake card" && now.punchesRequired == 6)
            #expect(try await browser.get(edit).status == .ok)

            // A lost tablet: the owner signs with a new key; the program lists both, the new one first.
            let rotated = try await browser.follow(try await browser.submit(counter, to: "\(counter)/keys", [:])).text
            #expect(rotated.contains("New codes are signed with a new key"))
            let keys = try await client.send(.get, "/v1/loyalty-programs/\(program.id)").decode(LoyaltyProgram.self)
                .signingKeys
            #expect(
                keys.count == 2 && keys[0].retiredAt == nil && keys[1].retiredAt != nil
                    && rotated.contains(keys[0].keyId)
            )
            _ = owner
        }
    }

    /// The figures page: charts and months that say "fewer than 5", the history with its CSV, and regulars only once a
    /// customer shares from their card.
    @Test func theFiguresPageShowsMonthsHistoryAndOnlyRegularsWhoShare() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let (business, program, anna, card, token) = try await Self.breadCard(client, punches: 1)
            _ = try await client.send(
                .post,
                "/v1/me/loyalty-punches",
                json: PunchBatch(punches: [PunchSubmission(cardId: card.id, token: token.token)]),
                token: anna
            )

            let merchant = PageSession(client)
            _ = try await merchant.submit(
                "/login",
                to: "/login",
                ["login": "bruno", "password": AccountsDriver.password]
            )
            let figures = "/loyalty/counter/\(business.id.uuidString.lowercased())/figures"
            let page = try await merchant.get(figures).text
            #expect(
                page.contains("data-chart=\"punches\"") && page.contains("fewer than 5")
                    && page.contains("@anna</strong> filled a card")
            )
            #expect(page.contains("No one yet."), "no regulars before anyone shares")
            let csv = try await merchant.get(
                "\(figures.replacingOccurrences(of: "/figures", with: "/history.csv"))?program=\(program.id)"
            )
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true && csv.text.contains(",completed,"))
            // The history's filters: the location is offered and named; days before today show nothing, and the CSV link
            // carries the same filters.
            #expect(page.contains("All locations") && page.contains("filled a card <span class=\"muted\">"))
            let earlier = try await merchant.get("\(figures)?program=\(program.id)&from=2020-01-01&to=2020-12-31").text
            #expect(earlier.contains("Nothing here") && !earlier.contains("@anna</strong> filled a card"))
            #expect(
                earlier.contains(
                    "history.csv?program=\(program.id.uuidString.lowercased())&amp;location=&amp;from=2020-01-01&amp;to=2020-12-31"
                )
            )
            let lastYear = try await merchant.get(
                "\(figures.replacingOccurrences(of: "/figures", with: "/history.csv"))?from=2020-01-01&to=2020-12-31"
            )
            #expect(lastYear.text.split(whereSeparator: \.isNewline).count == 1, "only the header")
            #expect(try await merchant.get("\(figures)?from=yesterday").status == .unprocessableContent)

            let customer = PageSession(client)
            _ = try await customer.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            #expect(try await customer.get(figures).status == .forbidden)
            let cardPage = "/loyalty/cards/\(card.id.uuidString.lowercased())"
            let shared = try await customer.follow(
                try await customer.submit(cardPage, to: "\(cardPage)/sharing", ["share": "1"])
            ).text
            #expect(shared.contains("The shop can now see your visits") && shared.contains("Stop sharing my visits"))
            #expect(try await merchant.get(figures).text.contains("@anna</span>"))
        }
    }

    /// The card page's camera fills the counter's QR token into its form: counted like a typed code; a token that is
    /// none is refused beside the field.
    @Test func aScannedCounterCodePunchesTheCardFromItsPage() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let (_, _, _, card, token) = try await Self.breadCard(client, punches: 3)
            let customer = PageSession(client)
            _ = try await customer.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let page = "/loyalty/cards/\(card.id.uuidString.lowercased())"
            #expect(try await customer.get(page).text.contains("data-scan-into=\"token\""))
            let wrong = try await customer.follow(
                try await customer.submit(page, to: "\(page)/punch", ["code": "", "token": "not-a-token"])
            ).text
            // The sentence beside the field (the page also carries every reason for its offline punches' results).
            let beside = wrong.range(of: #"id="code-error">"#).map {
                String(wrong[$0.upperBound...].prefix { $0 != "<" })
            }
            #expect(beside?.contains("type the six digits") == true, "the error sits by the field")
            let punched = try await customer.follow(
                try await customer.submit(page, to: "\(page)/punch", ["code": "", "token": token.token])
            ).text
            #expect(punched.contains("Punch counted: 1 of 3."))
        }
    }

    /// Bruno's bakery with a bread card of `punches`, Anna holding one, and a counter token to punch it.
    static func breadCard(
        _ client: any TestClientProtocol,
        punches: Int
    ) async throws -> (business: Business, program: LoyaltyProgram, anna: String, card: LoyaltyCard, token: PunchToken)
    {
        let (owner, business, location) = try await PlacesDriver(client).shop(
            owner: "bruno",
            name: "Bruno's Bakery",
            at: Coordinate(latitude: 48.1, longitude: 11.5)
        )
        let program = try await client.send(
            .post,
            "/v1/businesses/\(business.id)/loyalty-programs",
            json: LoyaltyProgramRequest(title: "Bread card", punchesRequired: punches, reward: "A loaf"),
            token: owner.accessToken
        ).decode(LoyaltyProgram.self)
        let anna = try await AccountsDriver(client).signedIn("anna").accessToken
        let card = try await client.send(.post, "/v1/loyalty-programs/\(program.id)/cards", token: anna).decode(
            LoyaltyCard.self
        )
        let token = try await client.send(
            .get,
            "/v1/businesses/\(business.id)/loyalty/punch-token?programId=\(program.id)&locationId=\(location.id)",
            token: owner.accessToken
        ).decode(PunchToken.self)
        return (business, program, anna, card, token)
    }
}
