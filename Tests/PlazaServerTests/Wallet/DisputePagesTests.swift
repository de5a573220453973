import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Payment disputes on the pages, reached by clicking: the receipt's "Problem with this payment?", the counter's
/// "Payment disputes", and the admin's review item, each saying what happened.
@Suite struct DisputePagesTests {
    static func signedIn(_ client: any TestClientProtocol, _ login: String) async throws -> PageSession {
        let browser = PageSession(client)
        _ = try await browser.submit("/login", to: "/login", ["login": login, "password": AccountsDriver.password])
        return browser
    }

    @Test(arguments: TestEngine.enabled)
    func aProblemIsReportedFromTheReceiptAndAnsweredFromTheCounter(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (business, _, _, charge) = try await DisputeTests.paid(client, 900)
            let id = charge.id.uuidString.lowercased()
            let anna = try await Self.signedIn(client, "anna")
            let receipt = try await anna.get("/wallet/receipts/\(id)").text
            #expect(receipt.contains(#"href="/wallet/receipts/\#(id)/problem""#))
            let form = try await anna.get("/wallet/receipts/\(id)/problem").text
            #expect(form.contains("I was charged twice") && form.contains("Corner Cafe"))

            // Nothing chosen: the errors stand beside their fields, what was typed stays.
            let csrf = PageSession.csrfToken(in: form)
            let refused = try await anna.follow(
                try await anna.post("/wallet/receipts/\(id)/problem", ["details": "Too short"], csrf: csrf)
            ).text
            #expect(refused.contains(#"id="reason-error""#) && refused.contains("Too short"))
            let reported = try await anna.post(
                "/wallet/receipts/\(id)/problem",
                ["reason": "wrong_amount", "details": "I ordered one tea, not three."],
                csrf: csrf
            )
            let location = try #require(reported.headers[.location])
            #expect(reported.status == .seeOther && location.hasSuffix("?notice=reported"))
            let page = try await anna.get(location).text
            #expect(page.contains("Reported: the business is told") && page.contains("I ordered one tea, not three."))
            #expect(page.contains("Ask Plaza to decide") && !page.contains(#"id="answer-form""#))
            #expect(
                try await anna.get("/wallet/receipts/\(id)/problem").headers[.location]
                    == String(location.prefix { $0 != "?" }),
                "a second visit opens the dispute"
            )

            // Bruno finds it from his counter and refunds with his answer.
            let bruno = try await Self.signedIn(client, "bruno")
            let businessId = business.id.uuidString.lowercased()
            #expect(try await bruno.get("/wallet/counter/\(businessId)").text.contains("/wallet/disputes?business="))
            let list = try await bruno.get("/wallet/disputes?business=\(businessId)").text
            #expect(list.contains("The amount is wrong") && list.contains(String(location.prefix { $0 != "?" })))
            let answerPage = try await bruno.get(String(location.prefix { $0 != "?" })).text
            #expect(answerPage.contains(#"id="answer-form""#) && !answerPage.contains("Ask Plaza to decide"))
            let path = String(location.prefix { $0 != "?" })
            let fields = [
                "message": "Sorry, my mistake: two teas refunded.", "refund": "6.00",
                "idempotencyKey": WalletPagesTests.field("idempotencyKey", in: answerPage),
            ]
            let sent = try await bruno.post("\(path)/answer", fields, csrf: PageSession.csrfToken(in: answerPage))
            #expect(sent.headers[.location]?.hasSuffix("?notice=refunded") == true)
            let again = try await bruno.post("\(path)/answer", fields, csrf: PageSession.csrfToken(in: answerPage))
            #expect(again.status == .seeOther && again.headers[.location] == path, "the same form acts once")
            let settled = try await anna.get(path).text
            #expect(settled.contains("Sorry, my mistake") && settled.contains("refunded $6.00"))
            #expect(!settled.contains("Ask Plaza to decide"))
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test func theAdminDecidesFromTheReviewItem() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, services in
            let admin = try await AdminTests.admin(client, services)
            let (_, _, anna, charge) = try await DisputeTests.paid(client, 700)
            let dispute = try await DisputeTests.open(client, charge, token: anna).decode(Dispute.self)
            _ = try await client.send(.post, "/v1/disputes/\(dispute.id)/escalate", token: anna)
            let item = try #require(
                try await client.send(.get, "/v1/admin/review-queue?kind=dispute", token: admin)
                    .decode(Page<ReviewItem>.self).items.first
            )
            let root = try await Self.signedIn(client, AccountsDriver.admin)
            #expect(try await root.get("/admin").text.contains("Payment dispute"))
            let itemPath = "/admin/review/\(item.id.uuidString.lowercased())"
            let claimed = try await root.post(
                "\(itemPath)/claim",
                [:],
                csrf: PageSession.csrfToken(in: try await root.get(itemPath).text)
            )
            let page = try await root.get(try #require(claimed.headers[.location])).text
            #expect(page.contains("Uphold: refund the customer") && page.contains("Reject the dispute"))
            #expect(page.contains(WalletService.disputePath(dispute.id)), "the dispute and its receipt, one click")
            let decided = try await root.post(
                "\(itemPath)/approve",
                ["action": "refund", "reason": "Nothing in the shop's answer explains the charge."],
                csrf: PageSession.csrfToken(in: page)
            )
            let after = try await root.get(try #require(decided.headers[.location])).text
            #expect(after.contains("You upheld the dispute"))
            let seen = try await Self.signedIn(client, "anna")
            let mine = try await seen.get(WalletService.disputePath(dispute.id)).text
            #expect(mine.contains("Plaza's decision") && mine.contains("Nothing in the shop&#39;s answer"))
            #expect(
                mine.contains("$7.00 went back to Anna") && !mine.contains("refunded $7.00"),
                "Plaza refunded, not the shop"
            )
        }
    }
}
