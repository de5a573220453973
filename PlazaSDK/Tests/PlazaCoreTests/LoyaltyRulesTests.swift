import Foundation
import PlazaCore
import Testing

/// The token rules the server and the SDK share: a rotated key's grace, and the velocity rule read from windows.
@Suite struct LoyaltyRulesTests {
    let business = UUID()
    let program = UUID()
    let rotated = Date(timeIntervalSince1970: 1_800_000_000)
    /// The signature itself is the verifier's business; these rules decide what a valid one may still do.
    let anySignature = { (_: Data, _: Data, _: Data) in true }

    func token(window: Int64, keyId: String = "old") throws -> SignedPunchToken {
        let payload = PunchTokenPayload(
            businessId: business,
            programId: program,
            locationId: UUID(),
            window: window,
            counter: 1,
            keyId: keyId
        )
        return try #require(
            SignedPunchToken(
                SignedPunchToken.text(payloadBytes: try JSONEncoder().encode(payload), signature: Data(count: 64))
            )
        )
    }

    func problem(_ token: SignedPunchToken, at now: Date) -> PunchRefusal? {
        let keys = [
            LoyaltySigningKey(keyId: "new", publicKey: "AAAA"),
            LoyaltySigningKey(keyId: "old", publicKey: "AAAA", retiredAt: rotated),
        ]
        return LoyaltyRules.tokenProblem(
            token,
            programId: program,
            businessId: business,
            keys: keys,
            now: now,
            verify: anySignature
        )
    }

    @Test func aRotatedKeysTokensCountUntilTheGraceEndsAndNoneSignedLater() throws {
        let day: TimeInterval = 86_400
        let before = try token(window: LoyaltyRules.window(rotated) - 10)
        #expect(problem(before, at: rotated.addingTimeInterval(3_600)) == nil)
        #expect(problem(before, at: rotated.addingTimeInterval(6 * day)) == nil, "synced within the 7-day grace")
        #expect(problem(before, at: rotated.addingTimeInterval(7 * day + 60)) == .invalidSignature, "the grace is over")
        let after = try token(window: LoyaltyRules.window(rotated) + 10)
        #expect(
            problem(after, at: rotated.addingTimeInterval(3_600)) == .invalidSignature,
            "signed after the key was retired"
        )
        let unknown = try token(window: LoyaltyRules.window(rotated), keyId: "stolen")
        #expect(problem(unknown, at: rotated) == .invalidSignature)
    }

    @Test func tooSoonReadsTheTokensWindowsEitherWay() {
        // Ten minutes are 20 windows of 30 seconds.
        #expect(LoyaltyRules.tooSoon(window: 110, last: 100, minutes: 10))
        #expect(LoyaltyRules.tooSoon(window: 90, last: 100, minutes: 10), "an earlier scan synced later")
        #expect(!LoyaltyRules.tooSoon(window: 120, last: 100, minutes: 10))
        #expect(!LoyaltyRules.tooSoon(window: 100, last: 100, minutes: 0), "0 turns the rule off")
    }
}
