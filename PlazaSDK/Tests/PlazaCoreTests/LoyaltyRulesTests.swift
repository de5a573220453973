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

@Suite struct LoyaltyEarningRulesTests {
    let usd = { (amount: Int64) in Money(amount: amount, currency: "USD") }

    @Test func aPurchaseEarnsOneOrOnePerWholeAmountFromTheMinimumUp() {
        let per5 = PunchesPerPurchase.per(usd(500))
        #expect(LoyaltyRules.punchesEarned(spent: usd(725), minimumSpend: nil, per: .one, cap: 10) == 1)
        #expect(LoyaltyRules.punchesEarned(spent: usd(1_499), minimumSpend: nil, per: per5, cap: 10) == 2)
        #expect(LoyaltyRules.punchesEarned(spent: usd(1_500), minimumSpend: nil, per: per5, cap: 10) == 3)
        // Under the minimum, in another currency, or nothing spent: no punch.
        #expect(LoyaltyRules.punchesEarned(spent: usd(299), minimumSpend: usd(300), per: .one, cap: 10) == 0)
        #expect(LoyaltyRules.punchesEarned(spent: usd(300), minimumSpend: usd(300), per: .one, cap: 10) == 1)
        let euros = Money(amount: 5_000, currency: "EUR")
        #expect(LoyaltyRules.punchesEarned(spent: euros, minimumSpend: usd(300), per: .one, cap: 10) == 0)
        #expect(LoyaltyRules.punchesEarned(spent: euros, minimumSpend: nil, per: per5, cap: 10) == 0)
        #expect(LoyaltyRules.punchesEarned(spent: usd(0), minimumSpend: nil, per: .one, cap: 10) == 0)
        // Never more than the card holds.
        #expect(LoyaltyRules.punchesEarned(spent: usd(1_000_000), minimumSpend: nil, per: per5, cap: 8) == 8)
    }

    @Test func perAmountsAreCheckedAgainstTheMinimum() {
        var request = LoyaltyProgramRequest(title: "Bread", punchesRequired: 10, reward: "A loaf")
        request.punchesPerPurchase = .per(usd(0))
        #expect(LoyaltyRules.programProblems(request, now: Date()).map(\.field) == ["punchesPerPurchase.per"])
        request.punchesPerPurchase = .per(Money(amount: 500, currency: "EUR"))
        request.minimumSpend = usd(300)
        #expect(LoyaltyRules.programProblems(request, now: Date()).map(\.field) == ["punchesPerPurchase.per"])
        request.punchesPerPurchase = .per(usd(500))
        #expect(LoyaltyRules.programProblems(request, now: Date()).isEmpty)
    }

    @Test func punchesPerPurchaseReadsAndWritesItsTwoForms() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(PunchesPerPurchase.self, from: Data(#""one""#.utf8)) == .one)
        let per = try decoder.decode(
            PunchesPerPurchase.self,
            from: Data(#"{"per":{"amount":500,"currency":"USD"}}"#.utf8)
        )
        #expect(per == .per(usd(500)))
        #expect(throws: DecodingError.self) { try decoder.decode(PunchesPerPurchase.self, from: Data(#""two""#.utf8)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(PunchesPerPurchase.one), as: UTF8.self) == #""one""#)
        #expect(
            String(decoding: try encoder.encode(per), as: UTF8.self) == #"{"per":{"amount":500,"currency":"USD"}}"#
        )
    }
}
