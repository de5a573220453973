import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The admin console's pages: admins only, and a refused decision comes back to its form.
@Suite struct AdminPagesTests {
    @Test func theConsoleIsForAdminsOnly() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("anna")
            _ = try await accounts.signedIn("bruno", role: .merchant)
            let id = UUID().uuidString.lowercased()
            let pages = [
                "/admin", "/admin/review/\(id)", "/admin/users", "/admin/users/\(id)", "/admin/audit",
                "/admin/audit.csv",
            ]
            let actions = [
                "/admin/review/\(id)/claim", "/admin/review/\(id)/release", "/admin/review/\(id)/approve",
                "/admin/review/\(id)/reject",
                "/admin/users/\(id)/suspend", "/admin/users/\(id)/reinstate", "/admin/users/\(id)/role",
            ]
            let guest = PageSession(client)
            for path in pages {
                let answer = try await guest.get(path)
                #expect(
                    answer.status == .seeOther && answer.headers[.location]?.hasPrefix("/login?next=") == true,
                    "\(path) signed out"
                )
            }
            for name in ["anna", "bruno"] {
                let browser = PageSession(client)
                _ = try await browser.submit(
                    "/login",
                    to: "/login",
                    ["login": name, "password": AccountsDriver.password]
                )
                for path in pages { #expect(try await browser.get(path).status == .forbidden, "\(path) as \(name)") }
                for path in actions {
                    #expect(
                        try await browser.submit("/", to: path, ["reason": "Because"]).status == .forbidden,
                        "\(path) as \(name)"
                    )
                }
                #expect(!(try await browser.get("/").text.contains(#"href="/admin""#)), "no Admin entry for \(name)")
            }
        }
    }

    @Test func aRejectionWithoutAReasonReturnsToItsFormAndTheDecisionIsShown() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await AccountsDriver(client).signedIn("dora", role: .merchant, approved: false)
            let admin = PageSession(client)
            _ = try await admin.submit(
                "/login",
                to: "/login",
                ["login": AccountsDriver.admin, "password": AccountsDriver.password]
            )
            let queue = try await admin.get("/admin")
            #expect(queue.text.contains("1 item waits for review") && queue.text.contains("Dora (@dora)"))
            let link = try #require(queue.text.firstMatch(of: #/href="(/admin/review/[0-9a-f-]+)"/#)?.output.1)
            let item = String(link)
            let claimed = try await admin.follow(try await admin.submit(item, to: "\(item)/claim", [:]))
            #expect(claimed.text.contains("yours to decide"))

            let refused = try await admin.submit(item, to: "\(item)/reject", ["reason": "no"])
            #expect(refused.status == .seeOther && refused.headers[.location] == "\(item)#reject")
            let shown = try await admin.follow(refused)
            #expect(shown.text.contains("3 to 500 characters") && shown.text.contains(">no</textarea>"))

            let done = try await admin.follow(
                try await admin.submit(item, to: "\(item)/reject", ["reason": "No shop address yet"])
            )
            #expect(done.text.contains("You rejected Dora (@dora). They were told your reason."))
            #expect(done.text.contains("Rejected by root") && done.text.contains("No shop address yet"))
            #expect(try await admin.get("/admin/audit").text.contains("Rejected"))
        }
    }
}
