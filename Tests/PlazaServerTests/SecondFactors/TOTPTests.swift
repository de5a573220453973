import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

@Suite struct TOTPTests {
    /// RFC 6238 appendix B, SHA-1: the seed "12345678901234567890", 8 digits, and the 6-digit truncation apps show.
    static let vectors: [(seconds: TimeInterval, code: String)] = [
        (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ]

    @Test func theRFC6238VectorsOfSHA1() {
        let secret = Data("12345678901234567890".utf8)
        for vector in Self.vectors {
            let step = TOTP.step(at: Date(timeIntervalSince1970: vector.seconds))
            #expect(TOTP.code(secret: secret, step: step, digits: 8) == vector.code)
            #expect(TOTP.code(secret: secret, step: step) == String(vector.code.suffix(6)))
        }
    }

    @Test func base32RoundTripsTheRFC4648Examples() {
        #expect(Base32.encode(Data("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.decode("mzxw 6ytb oi======") == Data("foobar".utf8))
        #expect(Base32.decode("MZXW1") == nil)
        let secret = Data((0..<20).map { UInt8($0 * 13 % 256) })
        #expect(Base32.decode(Base32.encode(secret)) == secret)
    }

    @Test func theCodeOfThisStepAndTheOneBeforeMatchButNotTwoBack() {
        let secret = Data("12345678901234567890".utf8)
        let now = Date(timeIntervalSince1970: 1_111_111_111)
        let step = TOTP.step(at: now)
        #expect(TOTP.matchingStep(TOTP.code(secret: secret, step: step), secret: secret, at: now) == step)
        #expect(TOTP.matchingStep(TOTP.code(secret: secret, step: step - 1), secret: secret, at: now) == step - 1)
        #expect(TOTP.matchingStep(TOTP.code(secret: secret, step: step - 2), secret: secret, at: now) == nil)
        #expect(TOTP.matchingStep(TOTP.code(secret: secret, step: step + 1), secret: secret, at: now) == nil)
    }

    @Test func paymentsAskFromTheOperatorsAmountInMajorUnits() {
        let policy = SecondFactorPolicy(threshold: 100)
        #expect(!policy.asks(.payment(Money(amount: 9_999, currency: "USD"))))
        #expect(policy.asks(.payment(Money(amount: 10_000, currency: "USD"))))
        #expect(policy.asks(.payment(Money(amount: 100, currency: "JPY"))))
        #expect(policy.asks(.withdrawal) && policy.asks(.payoutAccount))
        #expect(!SecondFactorPolicy(threshold: nil).asks(.payment(Money(amount: 1_000_000, currency: "USD"))))
        #expect(SecondFactorPolicy(threshold: nil).asks(.withdrawal))
    }
}
