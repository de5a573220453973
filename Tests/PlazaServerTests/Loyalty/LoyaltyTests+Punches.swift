import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Punches: a scan counts once and a bad token says why, offline scans sync once, a rotated key's grace.
extension LoyaltyTests {
    @Test(arguments: TestEngine.enabled)
    func aScanCountsOnceAndEveryBadTokenSaysWhy(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await shop(client, punches: 10, velocity: 10)
            let other = try await self.shop(client, owner: "dora")
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await takeCard(client, shop.program, token: anna)

            let asked = Date()
            let shown = try await token(client, shop)
            #expect(
                shown.code.count == 6 && shown.expiresAt > asked && shown.keyId == shop.program.signingKeys[0].keyId
            )
            let scan = PunchSubmission(cardId: card.id, token: shown.token)
            var result = try await sync(client, [scan], token: anna)
            #expect(
                result.results == [PunchResult(id: scan.id, status: .counted)] && result.cards.map(\.punches) == [1]
            )
            result = try await sync(client, [scan], token: anna)
            #expect(
                result.results == [PunchResult(id: scan.id, status: .duplicate)] && result.cards.isEmpty,
                "a retried sync changes nothing"
            )

            let now = LoyaltyRules.window(Date())
            var forged = Array(try token(shop, window: now - 100, services: services).utf8)
            forged[forged.count - 5] =
                forged[forged.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let otherToken = try await token(client, other).token
            // Another program of the same business: its token is signed by the same key, and still not this card's.
            let tea = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/loyalty-programs",
                json: LoyaltyProgramRequest(title: "Tea card", punchesRequired: 5, reward: "A tea"),
                token: shop.owner
            ).decode(LoyaltyProgram.self)
            var teaShop = shop
            teaShop.program = tea
            let teaToken = try await token(client, teaShop).token
            let stranger = try await client.send(
                .get,
                "/v1/businesses/\(shop.business.id)/loyalty/punch-token?programId=\(tea.id)&locationId=\(shop.location.id)",
                token: anna
            )
            #expect(
                stranger.status == .forbidden && stranger.problem?.code == .forbidden,
                "only the business's team shows tokens"
            )
            let cases: [(PunchSubmission, PunchRefusal)] = [
                (PunchSubmission(cardId: UUID(), token: shown.token), .notFound),
                (PunchSubmission(cardId: card.id, token: "not a token"), .malformed),
                (PunchSubmission(cardId: card.id, token: otherToken), .wrongProgram),
                (PunchSubmission(cardId: card.id, token: teaToken), .wrongProgram),
                (PunchSubmission(cardId: card.id, token: String(decoding: forged, as: UTF8.self)), .invalidSignature),
                // The token's own fault comes before the reused id, as the contract orders the reasons.
                (
                    PunchSubmission(id: scan.id, cardId: card.id, token: String(decoding: forged, as: UTF8.self)),
                    .invalidSignature
                ),
                (
                    PunchSubmission(
                        cardId: card.id,
                        token: try token(shop, window: now - 8 * 2_880, services: services)
                    ), .expired
                ),
                (
                    PunchSubmission(cardId: card.id, token: try token(shop, window: now + 10, services: services)),
                    .expired
                ),
                (PunchSubmission(cardId: card.id, code: "000000"), .invalidCode),
                (
                    PunchSubmission(
                        id: scan.id,
                        cardId: card.id,
                        token: try token(shop, window: now - 5_000, services: services)
                    ), .idReused
                ),
                (PunchSubmission(cardId: card.id, token: shown.token), .replayed),
                (
                    PunchSubmission(cardId: card.id, token: try token(shop, window: now - 10, services: services)),
                    .tooSoon
                ),
            ]
            for (submission, reason) in cases {
                let answer = try await sync(client, [submission], token: anna)
                #expect(answer.results.first?.status == .refused && answer.results.first?.reason == reason, "\(reason)")
            }
            // A token from an hour ago (synced late) counts; so do typed digits.
            let late = PunchSubmission(cardId: card.id, token: try token(shop, window: now - 120, services: services))
            #expect(try await sync(client, [late], token: anna).cards.first?.punches == 2)
            let typedShop = try await self.shop(client, owner: "emil")
            let typedCard = try await takeCard(client, typedShop.program, token: anna)
            let typed = PunchSubmission(cardId: typedCard.id, code: try await token(client, typedShop).code)
            #expect(try await sync(client, [typed], token: anna).results.first?.status == .counted)
            #expect(try await sync(client, [typed], token: anna).results.first?.status == .duplicate)

            let detail = try await client.send(.get, "/v1/me/loyalty-cards/\(card.id)", token: anna).decode(
                LoyaltyCardDetail.self
            )
            #expect(
                detail.punches.map(\.id) == [scan.id, late.id]
                    && detail.punches.allSatisfy { $0.locationName == "Main street" }
            )
            #expect(
                try await client.send(.post, "/v1/me/loyalty-punches", json: PunchBatch(punches: []), token: anna)
                    .status == .unprocessableContent
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func offlineScansSyncedTwiceFromTwoDevicesCountOnceAndCompleteTheCard(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await shop(
                client,
                punches: 4,
                velocity: 10,
                levels: [LoyaltyLevel(punchesRequired: 2, reward: "A cake")]
            )
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await takeCard(client, shop.program, token: anna)
            let now = LoyaltyRules.window(Date())
            // Five scans a day apart, offline; sent out of order, with a repeat, from two devices at once.
            let scans = try (1...5).map {
                PunchSubmission(
                    cardId: card.id,
                    token: try token(shop, window: now - Int64($0) * 2_880 + 5, services: services)
                )
            }
            let batch = [scans[3], scans[1], scans[3], scans[0], scans[2]]
            async let first = sync(client, batch, token: anna)
            async let second = sync(client, batch.reversed(), token: anna)
            let results = try await [first, second].flatMap(\.results)
            #expect(results.filter { $0.status == .counted }.count == 4, "each scan once")
            #expect(Set(results.filter { $0.status == .counted }.map(\.id)) == Set(scans.prefix(4).map(\.id)))
            #expect(results.allSatisfy { $0.status != .refused })

            let cards = try await client.send(.get, "/v1/me/loyalty-cards", token: anna).decode(Page<LoyaltyCard>.self)
                .items
            let full = try #require(cards.first { $0.id == card.id })
            #expect(full.state == .completed && full.punches == 4 && full.completedAt != nil)
            let next = try #require(cards.first { $0.id != card.id })
            #expect(next.level == 2 && next.punchesRequired == 2 && next.reward == "A cake" && next.state == .active)
            // The fifth scan goes on the next level's card.
            let fifth = PunchSubmission(cardId: next.id, token: scans[4].token)
            #expect(try await sync(client, [fifth], token: anna).cards.map(\.punches) == [1])
            let stale = try await sync(
                client,
                [PunchSubmission(cardId: card.id, token: try token(shop, window: now - 6 * 2_880, services: services))],
                token: anna
            )
            #expect(stale.results.first?.reason == .cardNotActive)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aRotatedKeysTokensCountForTheGraceOnly(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await shop(client, punches: 10)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await takeCard(client, shop.program, token: anna)
            let old = shop.program.signingKeys[0].keyId
            let now = LoyaltyRules.window(Date())
            let before = try token(shop, window: now - 20, services: services)
            let keys = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/loyalty/keys",
                token: shop.owner
            ).decode(
                [LoyaltySigningKey].self
            )
            #expect(keys.count == 2 && keys[0].retiredAt == nil && keys[1].keyId == old && keys[1].retiredAt != nil)
            let fresh = try await token(client, shop)
            #expect(fresh.keyId == keys[0].keyId)
            let after = try token(shop, window: now + 1, services: services, keyId: old)
            let answer = try await sync(
                client,
                [
                    PunchSubmission(cardId: card.id, token: before),
                    PunchSubmission(cardId: card.id, token: fresh.token),
                    PunchSubmission(cardId: card.id, token: after),
                ],
                token: anna
            )
            #expect(
                answer.results.map(\.status) == [.counted, .counted, .refused]
                    && answer.results[2].reason == .invalidSignature
            )
        }
    }
}
