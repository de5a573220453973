import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Redeeming a full card at the counter, and a program that reaches its own end.
extension LoyaltyTests {
    @Test(arguments: TestEngine.enabled)
    func aFullCardIsRedeemedOnceAtTheCounterAndShowsInTheHistory(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await shop(client, punches: 2)
            let other = try await self.shop(client, owner: "dora")
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await accounts.signedIn("carla", role: .merchant)
            _ = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/members",
                json: AddMemberRequest(username: "carla", role: .staff),
                token: shop.owner
            )
            let carla = try await accounts.login("carla").decode(TokenResponse.self).accessToken
            let card = try await takeCard(client, shop.program, token: anna)
            let now = LoyaltyRules.window(Date())
            let scans = try [now - 100, now - 50].map {
                PunchSubmission(cardId: card.id, token: try token(shop, window: $0, services: services))
            }
            let synced = try await sync(client, scans, token: anna)
            let next = try #require(synced.cards.first { $0.id != card.id })
            #expect(synced.cards.first { $0.id == card.id }?.state == .completed)

            let early = try await client.send(.post, "/v1/me/loyalty-cards/\(next.id)/redeem-code", token: anna)
            #expect(
                early.status == .conflict && early.problem?.code == .stateConflict
                    && early.problem?.currentState == "active"
            )
            #expect(
                try await client.send(.post, "/v1/me/loyalty-cards/\(card.id)/redeem-code", token: carla).status
                    == .notFound
            )
            let shown = try await client.send(.post, "/v1/me/loyalty-cards/\(card.id)/redeem-code", token: anna).decode(
                RedeemCode.self
            )
            #expect(
                shown.code.count == 8 && shown.qrPayload.hasPrefix("plaza:redeem:\(shown.code).")
                    && shown.expiresAt > Date()
            )

            let path = "/v1/businesses/\(shop.business.id)/loyalty-redemptions"
            let unkeyed = try await client.send(
                .post,
                path,
                json: RedemptionRequest(code: shown.code, locationId: shop.location.id),
                token: carla
            )
            #expect(unkeyed.problem?.code == .idempotencyKeyRequired)
            let wrong = try await client.send(
                .post,
                path,
                json: RedemptionRequest(code: "12345678", locationId: shop.location.id),
                token: carla,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            #expect(wrong.status == .unprocessableContent && wrong.problem?.code == .invalidCode)
            let forged = try await client.send(
                .post,
                path,
                json: RedemptionRequest(
                    code: "plaza:redeem:\(shown.code).0000000000000000",
                    locationId: shop.location.id
                ),
                token: carla,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            #expect(forged.problem?.code == .invalidCode, "a QR not signed by Plaza")
            let elsewhere = try await client.send(
                .post,
                "/v1/businesses/\(other.business.id)/loyalty-redemptions",
                json: RedemptionRequest(code: shown.code, locationId: other.location.id),
                token: other.owner,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            #expect(elsewhere.problem?.code == .invalidCode, "another business's code")

            // Two staff confirm the same scanned code at once: one redemption.
            async let first = client.send(
                .post,
                path,
                json: RedemptionRequest(code: shown.qrPayload, locationId: shop.location.id),
                token: carla,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            async let second = client.send(
                .post,
                path,
                json: RedemptionRequest(code: shown.code, locationId: shop.location.id),
                token: shop.owner,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            let answers = try await [first, second]
            #expect(answers.map(\.status.code).sorted() == [201, 409])
            #expect(answers.first { $0.status == .conflict }?.problem?.currentState == "redeemed")
            let redemption = try #require(try answers.first { $0.status == .created }?.decode(LoyaltyRedemption.self))
            #expect(redemption.customer == "anna" && redemption.reward == "A coffee" && redemption.cardId == card.id)

            let detail = try await client.send(.get, "/v1/me/loyalty-cards/\(card.id)", token: anna).decode(
                LoyaltyCardDetail.self
            )
            #expect(detail.card.state == .redeemed && detail.redemption == redemption && detail.punches.count == 2)
            let inbox = try await client.send(.get, "/v1/inbox", token: anna).decode(InboxPage.self)
            let receipt = try #require(inbox.items.first)
            #expect(
                receipt.kind == .rewardRedeemed && receipt.title == "Bruno's Café gave you your reward: A coffee."
                    && receipt.unread
            )
            #expect(
                receipt.link == "/loyalty/cards/\(card.id.uuidString.lowercased())"
                    && receipt.counterpart.id == shop.business.id
            )
            let history = try await client.send(
                .get,
                "/v1/businesses/\(shop.business.id)/loyalty/history",
                token: carla
            )
            .decode(Page<LoyaltyHistoryEntry>.self)
            #expect(
                history.items.map(\.kind) == [.redeemed, .completed]
                    && history.items.allSatisfy { $0.customer == "anna" && $0.cardId == card.id }
            )
            #expect(history.items.map(\.locationId) == [shop.location.id, shop.location.id])
            #expect(
                try await client.send(.get, "/v1/businesses/\(shop.business.id)/loyalty/history", token: anna).status
                    == .forbidden
            )
            let csv = try await client.send(
                .get,
                "/v1/businesses/\(shop.business.id)/loyalty/history.csv",
                token: shop.owner
            ).text
            #expect(csv.split(whereSeparator: \.isNewline).count == 3 && csv.hasPrefix("occurred_at,kind,program_id"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aProgramEndsAtItsOwnEndAndItsCardsExpire(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await shop(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let end = Date().addingTimeInterval(3_600)
            let program = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/loyalty-programs",
                json: LoyaltyProgramRequest(
                    title: "Summer card",
                    punchesRequired: 5,
                    reward: "An ice cream",
                    expiresAt: end
                ),
                token: shop.owner
            ).decode(LoyaltyProgram.self)
            let card = try await takeCard(client, program, token: anna)
            #expect(try await services.loyalty.expireEndedPrograms(now: end.addingTimeInterval(-60)) == 0, "not yet")
            #expect(try await services.loyalty.expireEndedPrograms(now: end.addingTimeInterval(60)) == 1)
            #expect(
                try await client.send(.get, "/v1/loyalty-programs/\(program.id)").decode(LoyaltyProgram.self).state
                    == .expired
            )
            let history = try await client.send(.get, "/v1/me/loyalty-cards?view=history", token: anna).decode(
                Page<LoyaltyCard>.self
            )
            #expect(history.items.map(\.id) == [card.id] && history.items.first?.state == .expired)
            #expect(try await services.loyalty.expireEndedPrograms(now: end.addingTimeInterval(120)) == 0, "ended once")
        }
    }
}
