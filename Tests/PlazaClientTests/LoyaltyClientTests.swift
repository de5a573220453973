import Foundation
import PlazaClient
import PlazaCore
import PlazaTestSupport
import Testing

/// Loyalty with the SDK: a merchant's app runs a program and shows tokens, a customer's app takes the card, syncs a
/// scan (twice: counted once), and a full card is redeemed at the counter.
@Suite struct LoyaltyClientTests {
    @Test(arguments: TestEngine.enabled)
    func aCardIsFilledAndRedeemedThroughTheSDK(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { bruno, anna, _ in
            let business = try await bruno.createBusiness(CreateBusinessRequest(name: "Gelateria", category: .cafe))
            let location = try await bruno.addLocation(
                to: business.id, LocationRequest(name: "Duomo", address: "Piazza del Duomo", latitude: 45.4642, longitude: 9.19))
            let program = try await bruno.createLoyaltyProgram(
                business: business.id, LoyaltyProgramRequest(title: "Gelato card", punchesRequired: 1, reward: "A scoop"))
            #expect(try await anna.loyaltyPrograms(business: business.id).map(\.id) == [program.id])
            #expect(try await anna.loyaltyProgram(program.id).signingKeys.first?.keyId == program.signingKeys.first?.keyId)

            let card = try await anna.takeLoyaltyCard(program: program.id)
            let token = try await bruno.punchToken(business: business.id, program: program.id, location: location.id)
            let scan = PunchSubmission(cardId: card.id, token: token.token)
            #expect(try await anna.syncPunches([scan]).results.map(\.status) == [.counted])
            #expect(try await anna.syncPunches([scan]).results.map(\.status) == [.duplicate], "a retried sync counts nothing")
            let full = try await anna.loyaltyCards().items.first { $0.id == card.id }
            #expect(full?.state == .completed && full?.punches == 1)

            let code = try await anna.redeemCode(card: card.id)
            let redemption = try await bruno.redeem(business: business.id, RedemptionRequest(code: code.qrPayload, locationId: location.id))
            #expect(redemption.customer == "anna" && redemption.reward == "A scoop" && redemption.redeemedBy == "bruno")
            #expect(try await anna.loyaltyCard(card.id).redemption?.id == redemption.id)
            #expect(try await bruno.loyaltyHistory(business: business.id).items.map(\.kind) == [.redeemed, .completed])
            #expect(try await anna.loyaltyCards(history: true).items.map(\.id) == [card.id])
        }
    }
}
