import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Loyalty programs and cards through the API: owners run programs, staff show tokens, customers take cards and
/// collect punches that count exactly once, online or synced later.
@Suite struct LoyaltyTests {
    let square = Coordinate(latitude: 48.1374, longitude: 11.5755)

    struct Shop {
        var owner: String
        var business: Business
        var location: BusinessLocation
        var program: LoyaltyProgram
    }

    /// An approved merchant's café with a program (velocity off unless given), and a customer holding its card.
    func shop(
        _ client: any TestClientProtocol,
        owner: String = "bruno",
        punches: Int = 3,
        velocity: Int = 0,
        levels: [LoyaltyLevel]? = nil
    ) async throws -> Shop {
        let places = PlacesDriver(client)
        let (tokens, business, location) = try await places.shop(
            owner: owner,
            name: "\(owner.capitalized)'s Café",
            at: square
        )
        let created = try await client.send(
            .post,
            "/v1/businesses/\(business.id)/loyalty-programs",
            json: LoyaltyProgramRequest(
                title: "Coffee card",
                description: "Buy \(punches - 1), get one free",
                punchesRequired: punches,
                reward: "A coffee",
                levels: levels,
                velocityWindowMinutes: velocity
            ),
            token: tokens.accessToken
        )
        #expect(created.status == .created, "\(created.text)")
        return Shop(
            owner: tokens.accessToken,
            business: business,
            location: location,
            program: try created.decode(LoyaltyProgram.self)
        )
    }

    func token(_ client: any TestClientProtocol, _ shop: Shop) async throws -> PunchToken {
        try await client.send(
            .get,
            "/v1/businesses/\(shop.business.id)/loyalty/punch-token?programId=\(shop.program.id)&locationId=\(shop.location.id)",
            token: shop.owner
        ).decode(PunchToken.self)
    }

    /// A token as the counter would have signed it in another window (the key is derived from the secret key).
    func token(
        _ shop: Shop,
        window: Int64,
        services: PlazaServices,
        keyId: String? = nil,
        counter: Int64 = 1_000
    ) throws -> String {
        let keyId = keyId ?? shop.program.signingKeys[0].keyId
        let payload = PunchTokenPayload(
            businessId: shop.business.id,
            programId: shop.program.id,
            locationId: shop.location.id,
            window: window,
            counter: counter,
            keyId: keyId
        )
        let bytes = try JSONEncoder().encode(payload)
        let key = LoyaltyService.privateKey(
            business: shop.business.id,
            keyId: keyId,
            secretKey: services.configuration.secretKey ?? ""
        )
        return SignedPunchToken.text(payloadBytes: bytes, signature: try key.signature(for: bytes))
    }

    func sync(
        _ client: any TestClientProtocol,
        _ punches: [PunchSubmission],
        token: String
    ) async throws -> PunchBatchResult {
        let response = try await client.send(
            .post,
            "/v1/me/loyalty-punches",
            json: PunchBatch(punches: punches),
            token: token
        )
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(PunchBatchResult.self)
    }

    func takeCard(
        _ client: any TestClientProtocol,
        _ program: LoyaltyProgram,
        token: String
    ) async throws -> LoyaltyCard {
        try await client.send(.post, "/v1/loyalty-programs/\(program.id)/cards", token: token).decode(LoyaltyCard.self)
    }

    @Test(arguments: TestEngine.enabled)
    func ownersRunProgramsAndCustomersTakeTheirCards(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let shop = try await shop(client)
            #expect(
                shop.program.state == .active && shop.program.signingKeys.count == 1
                    && shop.program.businessName == "Bruno's Café"
            )
            #expect(Data(base64URL: shop.program.signingKeys[0].publicKey)?.count == 32)
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let mailed = [KindPreference(kind: .loyalty, push: true, email: true)]
            _ = try await client.send(
                .put,
                "/v1/me/notifications",
                json: NotificationPreferences(kinds: mailed, quietHours: nil),
                token: anna
            )
            let carla = try await accounts.signedIn("carla", role: .merchant).accessToken
            _ = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/members",
                json: AddMemberRequest(username: "carla", role: .staff),
                token: shop.owner
            )
            let request = LoyaltyProgramRequest(title: "Tea card", punchesRequired: 5, reward: "A tea")
            let path = "/v1/businesses/\(shop.business.id)/loyalty-programs"
            #expect(
                try await client.send(.post, path, json: request, token: carla).status == .forbidden,
                "staff do not change programs"
            )
            #expect(try await client.send(.post, path, json: request, token: anna).status == .forbidden)
            let taken = try await client.send(
                .post,
                path,
                json: LoyaltyProgramRequest(title: "COFFEE card", punchesRequired: 5, reward: "x"),
                token: shop.owner
            )
            #expect(taken.status == .conflict && taken.problem?.errors?.first?.field == "title")
            let bad = try await client.send(
                .post,
                path,
                json: LoyaltyProgramRequest(title: " ", punchesRequired: 0, reward: "", velocityWindowMinutes: 2_000),
                token: shop.owner
            )
            #expect(
                Set(bad.problem?.errors?.map(\.field) ?? []) == [
                    "title", "punchesRequired", "reward", "velocityWindowMinutes",
                ]
            )
            let listed = try await client.send(.get, path).decode(Page<LoyaltyProgram>.self)
            #expect(listed.items.map(\.title) == ["Coffee card"] && listed.nextCursor == nil)

            let card = try await takeCard(client, shop.program, token: anna)
            #expect(
                card.state == .active && card.punches == 0 && card.punchesRequired == 3 && card.level == 1
                    && card.businessName == "Bruno's Café"
            )
            let again = try await client.send(.post, "/v1/loyalty-programs/\(shop.program.id)/cards", token: anna)
            #expect(again.status == .conflict, "one card at a time")
            #expect(
                try await client.send(.get, "/v1/me/loyalty-cards", token: anna).decode(Page<LoyaltyCard>.self).items
                    .map(\.id) == [card.id]
            )
            #expect(
                try await client.send(.get, "/v1/me/loyalty-cards/\(card.id)", token: carla).status == .notFound,
                "only its holder"
            )

            let rules = try await client.send(
                .patch,
                "/v1/loyalty-programs/\(shop.program.id)",
                json: LoyaltyProgramChange(punchesRequired: 5),
                token: shop.owner
            )
            #expect(rules.status == .conflict, "customers hold cards: rules stay")
            let worded = try await client.send(
                .patch,
                "/v1/loyalty-programs/\(shop.program.id)",
                json: LoyaltyProgramChange(description: "Every tenth coffee is on us"),
                token: shop.owner
            )
            #expect(try worded.decode(LoyaltyProgram.self).description == "Every tenth coffee is on us")
            let paused = try await client.send(
                .patch,
                "/v1/loyalty-programs/\(shop.program.id)",
                json: LoyaltyProgramChange(state: .paused),
                token: shop.owner
            )
            #expect(try paused.decode(LoyaltyProgram.self).state == .paused)
            let late = try await client.send(.post, "/v1/loyalty-programs/\(shop.program.id)/cards", token: carla)
            #expect(late.status == .conflict && late.problem?.code == .stateConflict)
            let staffToken = try await client.send(
                .get,
                "/v1/businesses/\(shop.business.id)/loyalty/punch-token?programId=\(shop.program.id)&locationId=\(shop.location.id)",
                token: carla
            )
            #expect(staffToken.problem?.code == .stateConflict, "no tokens while paused")

            let ended = try await client.send(
                .patch,
                "/v1/loyalty-programs/\(shop.program.id)",
                json: LoyaltyProgramChange(state: .expired),
                token: shop.owner
            )
            #expect(try ended.decode(LoyaltyProgram.self).state == .expired)
            #expect(
                try await client.send(.get, "/v1/me/loyalty-cards?view=history", token: anna).decode(
                    Page<LoyaltyCard>.self
                ).items.map(\.state) == [
                    .expired
                ]
            )
            let next = try await client.send(
                .post,
                path,
                json: LoyaltyProgramRequest(title: "Coffee card", punchesRequired: 5, reward: "x"),
                token: shop.owner
            )
            #expect(next.status == .created, "the title is free once ended")
            #expect(
                try next.decode(LoyaltyProgram.self).velocityWindowMinutes == 10,
                "one punch per 10 minutes unless the owner says"
            )
            // The holder of the expired card was told.
            let subjects = try await accounts.subjects(
                to: "anna@example.com",
                until: { $0.contains("Bruno's Café ended “Coffee card”") }
            )
            #expect(subjects.contains("Bruno's Café ended “Coffee card”"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aCardPastItsOwnLifeExpiresByItselfAndItsHolderIsTold(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let (tokens, business, location) = try await PlacesDriver(client).shop(
                owner: "bruno",
                name: "Bruno's Café",
                at: square
            )
            let program = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/loyalty-programs",
                json: LoyaltyProgramRequest(
                    title: "Coffee card",
                    punchesRequired: 5,
                    reward: "A coffee",
                    cardValidDays: 30,
                    oneCardAtATime: true
                ),
                token: tokens.accessToken
            ).decode(LoyaltyProgram.self)
            let shop = Shop(owner: tokens.accessToken, business: business, location: location, program: program)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let mailed = [KindPreference(kind: .loyalty, push: true, email: true)]
            #expect(
                try await client.send(
                    .put,
                    "/v1/me/notifications",
                    json: NotificationPreferences(kinds: mailed, quietHours: nil),
                    token: anna
                ).status
                    == .ok
            )
            let card = try await takeCard(client, program, token: anna)
            let punched = try await sync(
                client,
                [PunchSubmission(cardId: card.id, token: try await token(client, shop).token)],
                token: anna
            )
            let end = try #require(punched.cards.first?.expiresAt)
            #expect(abs(end.timeIntervalSinceNow - 30 * 86_400) < 120, "30 days from the first punch")

            #expect(try await services.loyalty.expireLapsedCards(now: end.addingTimeInterval(-60)) == 0)
            #expect(try await services.loyalty.expireLapsedCards(now: end.addingTimeInterval(60)) == 1)
            #expect(try await services.loyalty.expireLapsedCards(now: end.addingTimeInterval(120)) == 0, "once")
            let history = try await client.send(.get, "/v1/me/loyalty-cards?view=history", token: anna).decode(
                Page<LoyaltyCard>.self
            )
            #expect(history.items.map(\.id) == [card.id] && history.items.first?.state == .expired)
            // One card at a time: the expired one no longer stands in the way of a new one.
            #expect(
                try await client.send(.post, "/v1/loyalty-programs/\(program.id)/cards", token: anna).status == .created
            )
            let subjects = try await AccountsDriver(client).subjects(
                to: "anna@example.com",
                until: { $0.contains("Your Bruno's Café card has expired") }
            )
            #expect(subjects.contains("Your Bruno's Café card has expired"))
        }
    }
}
