import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport

@testable import PlazaServer

/// Second factors as a test's user has them: enrolled through the service a minute ago (so the code of now has not
/// been used by the confirmation), codes computed like an authenticator app.
struct SecondFactorHelper {
    let client: any TestClientProtocol
    let services: PlazaServices

    /// A confirmed authenticator app for `token`'s user: its secret and the recovery codes it brought.
    func enroll(token: String) async throws -> (secret: Data, recoveryCodes: [String]) {
        let identity = try requireValue(try await services.accounts.identity(bearer: token))
        let past = Date().addingTimeInterval(-90)
        let setup = try await services.secondFactors.startTOTP(identity, now: past)
        let secret = try requireValue(Base32.decode(setup.secret))
        let code = TOTP.code(secret: secret, step: TOTP.step(at: past))
        let codes = try await services.secondFactors.confirmTOTP(identity, TOTPConfirmRequest(code: code), now: past)
        return (secret, codes.recoveryCodes)
    }

    /// What the app shows now.
    static func code(_ secret: Data, at date: Date = Date()) -> String {
        TOTP.code(secret: secret, step: TOTP.step(at: date))
    }

    /// `headers` with `Plaza-Second-Factor: answer` (and a fresh `Idempotency-Key` unless one is given).
    static func answering(_ answer: String?, key: String = UUID().uuidString) -> HTTPFields {
        var headers = WalletDriver.keyed(key)
        if let answer { headers[HTTPField.Name("Plaza-Second-Factor")!] = answer }
        return headers
    }

    /// Two transfers of $100 from `token`'s user to ben sent at once, both answered with `answer`: their statuses.
    static func twoTransfers(_ client: any TestClientProtocol, token: String, answer: String) async throws -> [Int] {
        let body = TransferRequest(to: "ben", amount: 10_000, currency: "USD")
        async let first = client.send(.post, "/v1/transfers", json: body, token: token, headers: answering(answer))
        async let second = client.send(.post, "/v1/transfers", json: body, token: token, headers: answering(answer))
        return [try await first.status, try await second.status].map(\.code).sorted()
    }

    /// A test's configuration with second factors asked from `amount` (major units).
    static func enforced(_ amount: Int64? = 100) -> (inout PlazaConfiguration) -> Void {
        { configuration in
            configuration.secondFactors.enforced = true
            configuration.secondFactors.policy.threshold = amount
        }
    }
}

struct MissingValue: Error {}

/// `#require` for an optional outside a test function.
func requireValue<T>(_ value: T?) throws -> T {
    guard let value else { throw MissingValue() }
    return value
}
