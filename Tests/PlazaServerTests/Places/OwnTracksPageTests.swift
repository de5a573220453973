import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// `/places/background` on the web: reachable from Places, Location settings and the account page; one button makes
/// the setup, shown once after the redirect; the phone's "last heard from"; revoking it.
@Suite struct OwnTracksPageTests {
    @Test func theBackgroundPageSetsUpOwnTracksOnceListsAndRevokesThePhone() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await AccountsDriver(client).signedIn("anna")
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            for page in ["/places", "/places/settings", "/account"] {
                #expect(try await browser.get(page).text.contains(#"href="/places/background""#), "linked from \(page)")
            }
            let empty = try await browser.get("/places/background")
            #expect(empty.status == .ok && empty.text.contains("data-sharing-off"))
            #expect(empty.text.contains("No phone connected yet.") && !empty.text.contains("data-owntracks-link"))

            let created = try await browser.post(
                "/places/background",
                ["name": "Pixel"],
                csrf: PageSession.csrfToken(in: empty.text)
            )
            #expect(created.status == .seeOther)
            #expect(created.headers[.location] == "/places/background?notice=created#setup")
            let shown = try await browser.follow(created).text
            #expect(shown.contains("shown only this once") && shown.contains("<svg"))
            let href = try #require(shown.firstMatch(of: /data-owntracks-config>([^<]+)</)?.output.1)
            let configuration = try #require(OwnTracksConfiguration(link: String(href)))
            #expect(configuration.username == "anna" && configuration.deviceId == "pixel")
            #expect(shown.contains(#"href="\#(href)" data-owntracks-link"#))
            #expect(shown.contains("Not heard from yet"))

            let again = try await browser.get("/places/background").text
            #expect(!again.contains("data-owntracks-link") && !again.contains(configuration.password))

            #expect(try await OwnTracksSetupTests.post(client, configuration).status == .ok)
            let heard = try await browser.get("/places/background").text
            #expect(heard.contains("Last heard from") && !heard.contains("Not heard from yet"))

            let id = try #require(heard.firstMatch(of: /background\/([0-9a-f-]{36})\/revoke/)?.output.1)
            let revoked = try await browser.post(
                "/places/background/\(id)/revoke",
                [:],
                csrf: PageSession.csrfToken(in: heard)
            )
            #expect(revoked.headers[.location] == "/places/background?notice=revoked#phones")
            let after = try await browser.follow(revoked).text
            #expect(after.contains("Plaza no longer accepts") && after.contains("No phone connected yet."))
            #expect(try await OwnTracksSetupTests.post(client, configuration).status == .unauthorized)
        }
    }
}
