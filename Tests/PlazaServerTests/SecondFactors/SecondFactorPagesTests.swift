import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The web's second step: a payment over the amount asks for the app's code on its confirmation page, names a wrong
/// code beside the field, and goes with the right one; Account → Security sets an app up and shows codes once.
@Suite struct SecondFactorPagesTests {
    @Test(arguments: TestEngine.enabled)
    func aLargePaymentAsksForTheCodeOnItsConfirmation(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await accounts.signedIn("carla")
            try await WalletDriver(client).fund(20_000, token: anna)
            let (secret, _) = try await SecondFactorHelper(client: client, services: services).enroll(token: anna)
            let browser = PageSession(client)
            let login = ["login": "anna", "password": AccountsDriver.password]
            _ = try await browser.submit("/login", to: "/login", login)

            let reviewPath = "/wallet/send/review?to=carla&amount=150.00&note="
            let review = try await browser.get(reviewPath).text
            var fields = [
                "to": "carla", "amount": "150.00", "note": "",
                "idempotencyKey": WalletPagesTests.field("idempotencyKey", in: review),
            ]
            let asked = try await browser.post("/wallet/send", fields, csrf: PageSession.csrfToken(in: review))
            #expect(asked.status == .seeOther && asked.headers[.location]?.hasPrefix("/wallet/send/review?") == true)
            let step = try await browser.follow(asked).text
            #expect(step.contains("Code from your authenticator app") && step.contains("Send $150.00"))
            #expect(try await WalletDriver(client).balance(token: anna) == 20_000)

            fields["idempotencyKey"] = WalletPagesTests.field("idempotencyKey", in: step)
            fields["secondFactor"] = "000000" == SecondFactorHelper.code(secret) ? "111111" : "000000"
            let wrong = try await browser.post("/wallet/send", fields, csrf: PageSession.csrfToken(in: step))
            let again = try await browser.follow(wrong).text
            #expect(again.contains("second-factor-error") && again.contains("did not work"))

            fields["idempotencyKey"] = WalletPagesTests.field("idempotencyKey", in: again)
            fields["secondFactor"] = SecondFactorHelper.code(secret)
            let sent = try await browser.post("/wallet/send", fields, csrf: PageSession.csrfToken(in: again))
            #expect(sent.headers[.location]?.hasSuffix("?notice=sent") == true)
            #expect(try await WalletDriver(client).balance(token: anna) == 5_000)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func securitySetsUpAnAppAndShowsTheCodesOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, _ in
            _ = try await AccountsDriver(client).signedIn("anna")
            let browser = PageSession(client)
            let login = ["login": "anna", "password": AccountsDriver.password]
            _ = try await browser.submit("/login", to: "/login", login)
            #expect(try await browser.get("/account").text.contains(#"href="/account/security""#))
            let empty = try await browser.get("/account/security").text
            #expect(empty.contains("data-no-factors") && empty.contains("Set up an authenticator app"))
            let started = try await browser.post("/account/security/totp", [:], csrf: PageSession.csrfToken(in: empty))
            let setup = try await browser.follow(started).text
            let secretText = try #require(
                setup.range(of: #"data-totp-secret translate="no">"#).map {
                    String(setup[$0.upperBound...].prefix { $0 != "<" })
                }
            )
            #expect(setup.contains("<svg") && setup.contains(#"role="img""#))
            let secret = try #require(Base32.decode(secretText))
            let confirmed = try await browser.post(
                "/account/security/totp/confirm",
                ["code": SecondFactorHelper.code(secret)],
                csrf: PageSession.csrfToken(in: setup)
            )
            #expect(confirmed.status == .ok)
            let codes = confirmed.text.components(separatedBy: #"<li><code translate="no">"#).dropFirst()
            #expect(codes.count == 10 && confirmed.text.contains("shown only once"))
            let later = try await browser.get("/account/security").text
            #expect(!later.contains("data-recovery-codes") && later.contains("10 of 10 unused."))
            #expect(later.contains("data-factor"))
        }
    }
}
