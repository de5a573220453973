import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// A decision about a person reaches their inbox (issue 39: the warned student was never told there): a warning or a
/// suspension from an upheld report is an inbox entry with its reason, through the event bus.
@Suite struct InboxDecisionTests {
    @Test(arguments: TestEngine.enabled)
    func aWarningAndASuspensionFromUpheldReportsAreInTheirInboxWithTheReason(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let admin = try await AdminTests.admin(client, services)
            // Cal reports Ana; the report is upheld with a warning.
            let asked = ReportRequest(username: "ana", reason: .harassment, details: "Rude messages.")
            #expect(
                try await client.send(.post, "/v1/market/reports", json: asked, token: market.cal).status == .created
            )
            let warning = try #require(try await TrustTests.queue(client, admin, .report).first)
            let warned = try await TrustTests.approve(
                client,
                admin,
                warning,
                ReviewApproval(reason: "Be kind to other students.", action: .warn)
            )
            #expect(warned.status == .ok, "\(warned.text)")

            let inbox = try await client.send(.get, "/v1/inbox", token: market.ana).decode(InboxPage.self)
            let decision = try #require(inbox.items.first { $0.kind == .decision }, "\(inbox.items.map(\.title))")
            #expect(decision.title == "A warning about your conduct on the marketplace.")
            #expect(decision.note?.contains("Be kind to other students.") == true)
            #expect(decision.link == "/market/decisions" && decision.unread)
            #expect(decision.amount == 0 && decision.currency == "XXX" && decision.counterpart.kind == .plaza)
            #expect(inbox.unreadCount >= 1)
            // The reporter's inbox has no entry about Ana's warning.
            let reporter = try await client.send(.get, "/v1/inbox", token: market.cal).decode(InboxPage.self)
            #expect(!reporter.items.contains { $0.kind == .decision })

            // Ben reports her too; upheld with a suspension: a second entry, newest first.
            let again = ReportRequest(username: "ana", reason: .harassment, details: "Threats.")
            #expect(
                try await client.send(.post, "/v1/market/reports", json: again, token: market.ben).status == .created
            )
            let suspension = try #require(try await TrustTests.queue(client, admin, .report).first)
            let suspended = try await TrustTests.approve(
                client,
                admin,
                suspension,
                ReviewApproval(reason: "Threatening another student.", action: .suspend)
            )
            #expect(suspended.status == .ok, "\(suspended.text)")
            let now = try await client.send(.get, "/v1/inbox", token: market.ana).decode(InboxPage.self)
            let decisions = now.items.filter { $0.kind == .decision }
            #expect(
                decisions.map(\.title) == [
                    "You are suspended from the marketplace.", "A warning about your conduct on the marketplace.",
                ]
            )
            #expect(decisions.first?.note?.contains("Threatening another student.") == true)

            // Seen once read; the inbox page shows it with its reason.
            let marker = try #require(now.seenMarker)
            let seen = try await client.send(
                .post,
                "/v1/inbox/seen",
                json: MarkInboxSeenRequest(through: marker),
                token: market.ana
            )
            #expect(seen.status == .noContent || seen.status == .ok, "\(seen.text)")
            let after = try await client.send(.get, "/v1/inbox", token: market.ana).decode(InboxPage.self)
            #expect(after.items.filter { $0.kind == .decision }.allSatisfy { !$0.unread })

            // Issue 41: she reads Plaza in German, and so reads the decisions kept before she chose it.
            let german = try await client.send(.patch, "/v1/me", json: ProfileUpdate(language: "de"), token: market.ana)
            #expect(german.status == .ok, "\(german.text)")
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "ana", "password": AccountsDriver.password])
            let page = try await browser.get("/inbox").text
            let words = try Catalogue.load(pseudo: false).words("de")
            #expect(page.contains(words.say("You are suspended from the marketplace") + "."), "\(page)")
            #expect(!page.contains("You are suspended from the marketplace."))
        }
    }
}
