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
                to: business.id,
                LocationRequest(name: "Duomo", address: "Piazza del Duomo", latitude: 45.4642, longitude: 9.19)
            )
            let program = try await bruno.createLoyaltyProgram(
                business: business.id,
                LoyaltyProgramRequest(
                    title: "Gelato card",
                    punchesRequired: 1,
                    reward: "A scoop",
                    velocityWindowMinutes: 0
                )
            )
            #expect(try await anna.loyaltyPrograms(business: business.id).items.map(\.id) == [program.id])
            #expect(
                try await anna.loyaltyProgram(program.id).signingKeys.first?.keyId == program.signingKeys.first?.keyId
            )

            let card = try await anna.takeLoyaltyCard(program: program.id)
            // Paying may take first cards only once she says so.
            #expect(try await anna.loyaltySettings().cardOnPayment == false)
            _ = try await anna.setLoyaltySettings(LoyaltySettings(cardOnPayment: true))
            #expect(try await anna.loyaltySettings().cardOnPayment == true)
            let token = try await bruno.punchToken(business: business.id, program: program.id, location: location.id)
            let scan = PunchSubmission(cardId: card.id, token: token.token)
            #expect(try await anna.syncPunches([scan]).results.map(\.status) == [.counted])
            #expect(
                try await anna.syncPunches([scan]).results.map(\.status) == [.duplicate],
                "a retried sync counts nothing"
            )
            let full = try await anna.loyaltyCards().items.first { $0.id == card.id }
            #expect(full?.state == .completed && full?.punches == 1)

            await #expect(throws: PlazaClientError.self, "this Plaza signs no wallet passes") {
                try await anna.applePass(card: card.id)
            }
            let code = try await anna.redeemCode(card: card.id)
            let redemption = try await bruno.redeem(
                business: business.id,
                RedemptionRequest(code: code.qrPayload, locationId: location.id)
            )
            #expect(redemption.customer == "anna" && redemption.reward == "A scoop" && redemption.redeemedBy == "bruno")
            #expect(try await anna.loyaltyCard(card.id).redemption?.id == redemption.id)
            #expect(try await bruno.loyaltyHistory(business: business.id).items.map(\.kind) == [.redeemed, .completed])
            // Filters narrow it (a location, a date range); the CSV export carries the same rows.
            let here = try await bruno.loyaltyHistory(
                business: business.id,
                location: location.id,
                from: Date().addingTimeInterval(-3_600)
            )
            #expect(here.items.count == 2)
            #expect(
                try await bruno.loyaltyHistory(business: business.id, to: Date().addingTimeInterval(-3_600)).items
                    .isEmpty
            )
            #expect(try await bruno.loyaltyHistory(business: business.id, location: UUID()).items.isEmpty)
            let csv = String(
                decoding: try await bruno.loyaltyHistoryCSV(business: business.id, program: program.id),
                as: UTF8.self
            )
            #expect(
                csv.split(whereSeparator: \.isNewline).count == 3 && csv.contains("redeemed") && csv.contains("anna"),
                "\(csv)"
            )
            #expect(try await anna.loyaltyCards(history: true).items.map(\.id) == [card.id])

            // The other direction: the next level's card shows its code and the counter punches it.
            let next = try #require(try await anna.loyaltyCards().items.first { $0.state == .active })
            let shown = try await anna.punchCode(card: next.id)
            let punched = try await bruno.punchCustomer(
                business: business.id,
                CounterPunchRequest(code: shown.code, locationId: location.id)
            )
            #expect(punched.status == .counted && punched.customer == "anna" && punched.card.id == next.id)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func scansOfflineAreSyncedLaterAndCountedOnce(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { bruno, anna, _ in
            let business = try await bruno.createBusiness(CreateBusinessRequest(name: "Gelateria", category: .cafe))
            let location = try await bruno.addLocation(
                to: business.id,
                LocationRequest(name: "Duomo", address: "Piazza del Duomo", latitude: 45.4642, longitude: 9.19)
            )
            let created = try await bruno.createLoyaltyProgram(
                business: business.id,
                LoyaltyProgramRequest(
                    title: "Gelato card",
                    punchesRequired: 3,
                    reward: "A scoop",
                    velocityWindowMinutes: 0
                )
            )
            let card = try await anna.takeLoyaltyCard(program: created.id)
            let program = try await anna.loyaltyProgram(created.id)  // fetched while online: it carries the keys
            let first = try await bruno.punchToken(business: business.id, program: program.id, location: location.id)
            let second = try await bruno.punchToken(business: business.id, program: program.id, location: location.id)

            // The phone is offline: the same tokens and a server that does not answer.
            let tokens = InMemoryTokenStore()
            try await PlazaClient(baseURL: anna.baseURL, tokenStore: tokens).login(
                "anna",
                password: AccountsDriver.password
            )
            let offline = PlazaClient(baseURL: URL(string: "http://127.0.0.1:9")!, tokenStore: tokens)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-punches-\(UUID()).sealed")
            defer { try? FileManager.default.removeItem(at: file) }
            let key = EncryptedLoyaltyPunchFile.makeKey()
            let queue = LoyaltyPunchQueue(client: offline, store: try EncryptedLoyaltyPunchFile(url: file, key: key))
            try await queue.scan(first.token, card: card, program: program)
            await #expect(throws: LoyaltyScanRefused(.replayed)) {
                try await queue.scan(first.token, card: card, program: program)
            }
            var forged = Array(second.token)  // one character of the signature changed
            forged[forged.count - 20] = forged[forged.count - 20] == "A" ? "B" : "A"
            await #expect(throws: LoyaltyScanRefused(.invalidSignature)) {
                try await queue.scan(String(forged), card: card, program: program)
            }
            await #expect(throws: LoyaltyScanRefused(.wrongProgram)) {
                var other = program
                other.id = UUID()
                var otherCard = card
                otherCard.programId = other.id
                try await queue.scan(second.token, card: otherCard, program: other)
            }
            try await queue.scan(second.token, card: card, program: program)
            #expect(await queue.punchesShown(on: card) == 2, "the card shows both scans at once")
            await #expect(throws: PlazaClientError.self) { try await queue.sync() }
            #expect(await queue.pending.count == 2, "nothing is lost while offline")

            // At rest the scans are sealed: no token in the file, and another key reads nothing.
            let sealed = try Data(contentsOf: file)
            #expect(sealed.range(of: Data(first.token.utf8.prefix(20))) == nil)
            let stranger = try EncryptedLoyaltyPunchFile(url: file, key: EncryptedLoyaltyPunchFile.makeKey())
            #expect(await stranger.load().isEmpty)

            // The app starts again online, with the same store: the scans count once.
            let online = LoyaltyPunchQueue(client: anna, store: try EncryptedLoyaltyPunchFile(url: file, key: key))
            let scans = await online.pending
            let report = try await online.sync()
            #expect(report.counted == 2 && report.duplicates == 0 && report.refused.isEmpty)
            #expect(report.cards.map(\.punches) == [2])
            #expect(await online.pending.isEmpty)
            #expect(
                try await EncryptedLoyaltyPunchFile(url: file, key: key).load().isEmpty,
                "only what has not synced stays on the phone"
            )
            // An answer lost on the way: the same scans again (or from a second device) change nothing.
            let again = try await anna.syncPunches(
                scans.reversed().map { PunchSubmission(id: $0.id, cardId: $0.cardId, token: $0.token) }
            )
            #expect(again.results.map(\.status) == [.duplicate, .duplicate])
            #expect(try await anna.loyaltyCard(card.id).card.punches == 2)
        }
    }
}
