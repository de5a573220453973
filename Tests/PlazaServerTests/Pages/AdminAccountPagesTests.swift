import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// What an admin reads about a person: the audit log names them, a suspended account's page says why and what it
/// holds, and the admin's home says what waits for review (issue 39).
@Suite struct AdminAccountPagesTests {
    func adminBrowser(_ client: any TestClientProtocol) async throws -> PageSession {
        let admin = PageSession(client)
        _ = try await admin.submit(
            "/login",
            to: "/login",
            ["login": AccountsDriver.admin, "password": AccountsDriver.password]
        )
        return admin
    }

    @Test(arguments: TestEngine.enabled)
    func aSuspensionIsLoggedByNameAndItsPageShowsTheReasonAndBalance(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let carla = try await AccountsDriver(client).signedIn("carla")
            try await WalletDriver(client).fund(1_250, token: carla.accessToken)
            let admin = try await adminBrowser(client)
            let found = try await admin.get("/admin/users?q=carla")
            let link = try #require(found.text.firstMatch(of: #/href="(/admin/users/[0-9a-f-]+)"/#)?.output.1)
            let page = String(link)
            let suspended = try await admin.follow(
                try await admin.submit(page, to: "\(page)/suspend", ["reason": "Sold fake tickets"])
            )
            #expect(suspended.text.contains("Reason given"))
            #expect(suspended.text.contains("Sold fake tickets"))
            let balance = suspended.text.firstMatch(of: #/data-balance>([^<]*)</#)?.output.1
            #expect(balance?.contains("12.50") == true)

            let audit = try await admin.get("/admin/audit").text
            #expect(audit.contains("Suspended</strong>"))
            #expect(audit.contains("Carla (@carla)"))
            #expect(!audit.contains("Suspended an account"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theAdminsHomeSaysHowManyItemsWaitForReview(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let admin = try await adminBrowser(client)
            #expect(!(try await admin.get("/").text.contains("wait for review")))

            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("dora", role: .merchant, approved: false)
            let one = try await admin.get("/").text
            #expect(one.contains("1 item waits for review"))
            #expect(one.contains(#"href="/admin""#))

            _ = try await accounts.signedIn("emil", role: .merchant, approved: false)
            #expect(try await admin.get("/").text.contains("2 items wait for review"))

            let anna = PageSession(client)
            _ = try await accounts.signedIn("anna")
            _ = try await anna.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            #expect(!(try await anna.get("/").text.contains("wait for review")))
        }
    }
}
