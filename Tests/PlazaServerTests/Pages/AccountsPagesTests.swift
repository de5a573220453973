import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct AccountsPagesTests {
    @Test(arguments: TestEngine.enabled)
    func signUpVerifyLogOutAndBackInThroughThePages(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let browser = PageSession(client)
            let signup = try await browser.submit(
                "/signup",
                to: "/signup",
                [
                    "email": "zoe@example.com", "username": "zoe", "displayName": "Zoe",
                    "password": AccountsDriver.password, "role": "customer",
                ]
            )
            #expect(signup.status == .seeOther)
            #expect(signup.headers[.location] == "/verify-email?email=zoe@example.com&notice=sent")

            let code = try await AccountsDriver(client).latestCode(for: "zoe@example.com")
            let verified = try await browser.submit(
                "/verify-email?email=zoe%40example.com",
                to: "/verify-email",
                ["email": "zoe@example.com", "code": code]
            )
            // The browser that signed up is signed in by verifying, and lands on its home screen.
            #expect(verified.headers[.location] == "/?notice=welcome")
            let signedIn = try #require(verified.headers[values: .setCookie].first { $0.hasPrefix("plaza_session=") })
            #expect(signedIn.contains("HttpOnly") && signedIn.contains("SameSite=Lax"))
            #expect(try await browser.get("/?notice=welcome").text.contains("Welcome to Plaza"))

            let logout = try await browser.submit("/account", to: "/logout", [:])
            #expect(logout.headers[.location] == "/login?notice=loggedout")
            #expect(try await browser.get("/account").status == .seeOther)

            let login = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "zoe", "password": AccountsDriver.password, "next": "/account"]
            )
            #expect(login.status == .seeOther && login.headers[.location] == "/account")
            let cookie = try #require(login.headers[values: .setCookie].first { $0.hasPrefix("plaza_session=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            let account = try await browser.get("/account")
            #expect(account.status == .ok)
            #expect(account.text.contains("@zoe"))
        }
    }

    @Test func verifyingInAnotherBrowserSignsNobodyIn() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await PageSession(client).submit(
                "/signup",
                to: "/signup",
                [
                    "email": "zoe@example.com", "username": "zoe", "displayName": "Zoe",
                    "password": AccountsDriver.password, "role": "merchant",
                ]
            )
            let code = try await AccountsDriver(client).latestCode(for: "zoe@example.com")
            // The mail's link fills in address and code: one tap on its page verifies.
            let other = PageSession(client)
            let page = try await other.get("/verify-email?email=zoe%40example.com&code=\(code)")
            #expect(page.text.contains(#"value="\#(code)""#) && page.text.contains("Tap Verify"))
            let verified = try await other.submit(
                "/verify-email?email=zoe%40example.com&code=\(code)",
                to: "/verify-email",
                ["email": "zoe@example.com", "code": code]
            )
            #expect(verified.headers[.location] == "/login?notice=verified")
            #expect(!verified.headers[values: .setCookie].contains { $0.hasPrefix("plaza_session=") })
        }
    }

    @Test func formsWithoutTheCSRFTokenAreRefused() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let browser = PageSession(client)
            _ = try await browser.get("/login")
            let forged = try await browser.post(
                "/login",
                ["login": "zoe", "password": "whatever it is"],
                csrf: "forged"
            )
            #expect(forged.status == .forbidden)
            #expect(forged.text.contains("This form has expired."))
            let missing = try await browser.post("/signup", ["email": "a@b.co"])
            #expect(missing.status == .forbidden)
        }
    }

    @Test func problemsAreShownNextToTheirFields() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let browser = PageSession(client)
            let refused = try await browser.submit(
                "/signup",
                to: "/signup",
                ["email": "nope", "username": "Zoe!", "displayName": "Zoe", "password": "short", "role": "merchant"]
            )
            #expect(
                refused.status == .seeOther && refused.headers[.location] == "/signup",
                "back to the form's page: a reload posts nothing"
            )
            #expect(
                !refused.headers[values: .setCookie].contains { $0.contains("short") },
                "the password is not kept, not even in a cookie"
            )
            let page = try await browser.follow(refused)
            #expect(page.status == .ok)
            #expect(page.text.contains(#"id="email-error""#) && page.text.contains(#"id="username-error""#))
            #expect(page.text.contains(#"id="password-error""#))
            #expect(page.text.contains(#"value="Zoe""#), "typed values are kept")
            #expect(page.text.contains(#"value="merchant" checked"#), "choices are kept")
            #expect(!page.text.contains("short"), "passwords are never echoed back")
            let again = try await browser.get("/signup")
            #expect(
                !again.text.contains(#"id="email-error""#) && !again.text.contains(#"value="Zoe""#),
                "shown once: a reload is a fresh form"
            )
        }
    }

    @Test func userInputIsEscaped() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let browser = PageSession(client)
            let page = try await browser.follow(
                try await browser.submit(
                    "/signup",
                    to: "/signup",
                    [
                        "email": "\"><script>alert(1)</script>", "username": "x", "displayName": "<b>Zoe</b>",
                        "password": "x",
                    ]
                )
            )
            #expect(!page.text.contains("<script>alert(1)</script>"))
            #expect(page.text.contains("&lt;b&gt;Zoe&lt;/b&gt;"))
        }
    }

    @Test func theAccountPageNeedsALogInAndReturnsThere() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let browser = PageSession(client)
            let redirect = try await browser.get("/account")
            #expect(redirect.status == .seeOther)
            #expect(redirect.headers[.location] == "/login?next=%2Faccount")
            // Browsers strip TAB, CR and LF and read a backslash as a slash: each of these would leave the site.
            for next in [
                "//evil.example", "/%09/evil.example", "/%0d%0a/evil.example", "/%5Cevil.example", "%2F%2Fevil.example",
                "https://evil.example",
            ] {
                let evil = try await browser.get("/login?next=\(next)")
                #expect(evil.text.contains(#"name="next" value="/""#), "next=\(next)")
            }
            _ = try await AccountsDriver(client).signedIn("zoe")
            let posted = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "zoe", "password": AccountsDriver.password, "next": "/\t/evil.example"]
            )
            #expect(posted.headers[.location] == "/")
            let kept = try await browser.get("/login?next=%2Fwallet%3Ftab%3Dsend")
            #expect(kept.status == .seeOther && kept.headers[.location] == "/wallet?tab=send")
        }
    }

    @Test func signingOutAnotherDeviceFromTheAccountPage() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let api = try await AccountsDriver(client).signedIn("zoe")
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "zoe", "password": AccountsDriver.password])
            let sessions = try await client.send(.get, "/v1/me/sessions", token: api.accessToken).decode(
                Page<SessionInfo>.self
            )
            let apiSession = try #require(sessions.items.first { $0.current })
            let page = try await browser.get("/account")
            let revoke = try await browser.post(
                "/account/sessions/\(apiSession.id.uuidString)/revoke",
                [:],
                csrf: PageSession.csrfToken(in: page.text)
            )
            #expect(revoke.headers[.location] == "/account?notice=revoked")
            #expect(try await client.send(.get, "/v1/me", token: api.accessToken).status == .unauthorized)
        }
    }

    /// Dates follow the time zone a person chooses (else their browser's): a name Foundation knows, or nothing.
    @Test func theTimeZoneIsChosenOrRefusedByName() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let zoe = try await AccountsDriver(client).signedIn("zoe").accessToken
            let wrong = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(timeZone: "Mars/Olympus_Mons"),
                token: zoe
            )
            #expect(wrong.status == .unprocessableContent && wrong.problem?.errors?.first?.field == "timeZone")
            let chosen = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(timeZone: "America/New_York"),
                token: zoe
            ).decode(User.self)
            #expect(chosen.timeZone == "America/New_York")
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "zoe", "password": AccountsDriver.password])
            let page = try await browser.get("/account").text
            #expect(
                page.contains(#"<option translate="no" value="America/New_York" selected>"#)
                    && page.contains("Times show in America/New_York now.")
            )
            let cleared = try await client.send(.patch, "/v1/me", json: ProfileUpdate(timeZone: ""), token: zoe).decode(
                User.self
            )
            #expect(cleared.timeZone == nil)
        }
    }
}
