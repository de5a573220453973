import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Issue 39, trust at the till: a merchant's review item says who the merchant is (name, username, verified e-mail,
/// member since) and whether their payouts reach a bank, before an admin approves.
@Suite struct MerchantReviewTests {
    @Test(arguments: TestEngine.enabled)
    func theReviewItemShowsTheOwnerAndTheirPayoutStatus(_ engine: TestEngine) async throws {
        try await StripeTests.withStripe(engine) { client, services, stripe in
            let admin = try await AdminTests.admin(client, services)
            let dora = try await AccountsDriver(client).signedIn("dora", role: .merchant, approved: false).accessToken
            let me = try await client.send(.get, "/v1/me", token: dora).decode(User.self)
            let item = { () async throws -> ReviewItem in
                let queue = try await client.send(.get, "/v1/admin/review-queue", token: admin)
                    .decode(Page<ReviewItem>.self)
                return try #require(queue.items.first { $0.subjectId == me.id })
            }
            let first = try #require(try await item().merchant)
            #expect(first.username == "dora" && first.email == "dora@example.com" && first.emailVerified)
            #expect(abs(first.memberSince.timeIntervalSince(me.createdAt)) < 1)
            #expect(first.payoutAccount == .none, "no bank account connected yet")

            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": AccountsDriver.admin, "password": AccountsDriver.password]
            )
            let before = try await browser.get("/admin/review/\(try await item().id)").text
            #expect(before.contains("Who the merchant is") && before.contains("dora@example.com"))
            #expect(before.contains("No bank account connected"))

            let onboarding = try await client.send(.post, "/v1/me/payout-account/onboarding", token: dora)
                .decode(PayoutOnboarding.self)
            _ = try await stripe.completeOnboarding(onboarding.url)
            _ = try await client.send(.get, "/v1/me/payout-account", token: dora)
            #expect(try await item().merchant?.payoutAccount == .ready)
            let after = try await browser.get("/admin/review/\(try await item().id)").text
            #expect(after.contains("Bank account connected") && !after.contains("No bank account connected"))
        }
    }

    @Test func aPlazaWithoutBankAccountsSaysNoneIsNeeded() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let admin = try await AdminTests.admin(client, services)
            _ = try await AccountsDriver(client).signedIn("dora", role: .merchant, approved: false)
            let queue = try await client.send(.get, "/v1/admin/review-queue", token: admin).decode(
                Page<ReviewItem>.self
            )
            let item = try #require(queue.items.first)
            #expect(item.kind == .merchant && item.merchant?.payoutAccount == .notNeeded, "the sandbox needs no bank")
        }
    }
}
