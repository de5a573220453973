import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import PlazaCore
import PlazaTestSupport
import Testing
import WSClient

@testable import PlazaServer

/// Arrivals tell the person where they are (issue 39): every notification is also a `notification.arrived` event for
/// the pages and apps they have open, worded by the server, and a punch staff gave them is one too.
@Suite struct ArrivalTests {
    func arrivals(
        _ client: any TestClientProtocol,
        token: String,
        count: Int,
        while action: @escaping @Sendable () async throws -> Void
    ) async throws -> [NotificationContent] {
        let events = EventBox()
        _ = try await client.ws(
            "/v1/events",
            configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"])
        ) { inbound, _, _ in
            events.set(try await EventsTests.collect(inbound, count: count, afterReady: action))
        }
        return try events.value.filter { $0.type == ArrivalEventType.arrived }
            .map { try $0.payload(as: NotificationContent.self) }
    }

    @Test(arguments: TestEngine.enabled)
    func aChargeAndAStaffPunchArriveWhereTheCustomerIs(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let shop = try await LoyaltyTests().shop(client, punches: 3)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await LoyaltyTests().takeCard(client, shop.program, token: anna)
            let shown = try await client.send(.post, "/v1/me/loyalty-cards/\(card.id)/punch-code", token: anna)
                .decode(CustomerCode.self)
            // The punch: `loyalty.punched` and the arrival's words.
            let punched = try await arrivals(client, token: anna, count: 2) {
                let answer = try await client.send(
                    .post,
                    "/v1/businesses/\(shop.business.id)/loyalty/punches",
                    json: CounterPunchRequest(code: shown.code, locationId: shop.location.id, count: 2),
                    token: shop.owner,
                    headers: WalletDriver.keyed(UUID().uuidString)
                )
                #expect(answer.status == .ok, "\(answer.text)")
            }
            #expect(
                punched.map(\.title) == ["Punched: Coffee card, 2 of 3"]
                    && punched.map(\.body) == ["Bruno's Café gave you 2 punches."]
                    && punched.map(\.link) == ["/loyalty/cards/\(card.id.uuidString.lowercased())"]
            )
        }
    }

    /// Issue 41: the punch's banner is in the holder's language, its count in the language's plural.
    @Test(arguments: TestEngine.enabled)
    func aStaffPunchArrivesInTheHoldersLanguage(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let shop = try await LoyaltyTests().shop(client, punches: 3)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let german = try await client.send(.patch, "/v1/me", json: ProfileUpdate(language: "de"), token: anna)
            #expect(german.status == .ok, "\(german.text)")
            let card = try await LoyaltyTests().takeCard(client, shop.program, token: anna)
            let shown = try await client.send(.post, "/v1/me/loyalty-cards/\(card.id)/punch-code", token: anna)
                .decode(CustomerCode.self)
            let punched = try await arrivals(client, token: anna, count: 2) {
                let answer = try await client.send(
                    .post,
                    "/v1/businesses/\(shop.business.id)/loyalty/punches",
                    json: CounterPunchRequest(code: shown.code, locationId: shop.location.id, count: 2),
                    token: shop.owner,
                    headers: WalletDriver.keyed(UUID().uuidString)
                )
                #expect(answer.status == .ok, "\(answer.text)")
            }
            let words = try Catalogue.load(pseudo: false).words("de")
            let values = ["card": "Coffee card", "punches": "2", "required": "3", "business": "Bruno's Café"]
            #expect(punched.map(\.title) == [words("alert.loyalty.punched.title", values)])
            #expect(punched.map(\.body) == [words.count(2, "alert.loyalty.punched.body", values)])
            #expect(punched.first?.body.contains("Stempel") == true, "\(punched)")
        }
    }

    /// A report upheld with a warning: the warned student hears of it where they are, and it links to the decision.
    @Test func aWarningFromAReportArrivesWhereTheStudentIs() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            let admin = try await AdminTests.admin(client, services)
            let asked = ReportRequest(username: "ana", reason: .harassment, details: "Rude messages.")
            #expect(
                try await client.send(.post, "/v1/market/reports", json: asked, token: market.cal).status == .created
            )
            let item = try #require(try await TrustTests.queue(client, admin, .report).first)
            let heard = try await arrivals(client, token: market.ana, count: 1) {
                let decided = try await TrustTests.approve(
                    client,
                    admin,
                    item,
                    ReviewApproval(reason: "Be kind to other students.", action: .warn)
                )
                #expect(decided.status == .ok, "\(decided.text)")
            }
            #expect(heard.map(\.link) == ["/market/decisions"], "\(heard)")
            #expect(heard.first?.body.contains("Be kind to other students.") == true)
        }
    }
}
