import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Account → Security makes a passkey as the page's script does, and a payment's second step offers it.
@Suite struct SecondFactorPasskeyPagesTests {
    @Test(arguments: TestEngine.enabled)
    func securityMakesAPasskeyAndAPaymentAsksForIt(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await accounts.signedIn("carla")
            try await WalletDriver(client).fund(20_000, token: anna)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let empty = try await browser.get("/account/security").text
            #expect(empty.contains(#"id="passkeys""#) && empty.contains("data-passkey-register"))
            let csrf = PageSession.csrfToken(in: empty)

            // The script's two steps: options as JSON, then the form with the browser's credential.
            let options = try await browser.post("/account/security/passkeys/options", [:], csrf: csrf)
                .decode(PasskeyRegistrationOptions.self)
            let passkey = SoftPasskey(services.secondFactors.relyingParty)
            let credential = passkey.registration(challenge: options.challenge).credential
            let made = try await browser.post(
                "/account/security/passkeys",
                [
                    "name": "Anna's laptop",
                    "credential": String(decoding: try JSONEncoder().encode(credential), as: UTF8.self),
                ],
                csrf: csrf
            )
            #expect(made.status == .ok && made.text.contains("Your passkey “Anna"))
            #expect(made.text.contains("is set up. Save your recovery codes now"))
            #expect(made.text.components(separatedBy: #"<li><code translate="no">"#).count == 11)
            #expect(made.text.contains("Passkey: Anna"))

            // A broken credential comes back beside the form, with nothing kept.
            let broken = try await browser.post(
                "/account/security/passkeys",
                ["name": "x", "credential": "{}"],
                csrf: csrf
            )
            let refused = try await browser.follow(broken).text
            #expect(refused.contains("Your browser made no passkey"))

            // A large payment's second step offers the passkey; its proof sends the money.
            let reviewPath = "/wallet/send/review?to=carla&amount=150.00&note="
            let review = try await browser.get(reviewPath).text
            var fields = [
                "to": "carla", "amount": "150.00", "note": "",
                "idempotencyKey": WalletPagesTests.field("idempotencyKey", in: review),
            ]
            let asked = try await browser.post("/wallet/send", fields, csrf: PageSession.csrfToken(in: review))
            let step = try await browser.follow(asked).text
            #expect(step.contains("data-passkey-answer") && step.contains("Or type one of your recovery codes"))
            let challenge = try await browser.postJSON(
                "/account/security/challenge",
                [String: String](),
                csrf: PageSession.csrfToken(in: step)
            ).decode(PasskeyRequestOptions.self)
            fields["idempotencyKey"] = WalletPagesTests.field("idempotencyKey", in: step)
            fields["secondFactor"] = try passkey.assertion(challenge: challenge.challenge).answer
            let sent = try await browser.post("/wallet/send", fields, csrf: PageSession.csrfToken(in: step))
            #expect(sent.headers[.location]?.hasSuffix("?notice=sent") == true)
            #expect(try await WalletDriver(client).balance(token: anna) == 5_000)
        }
    }
}
