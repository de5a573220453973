import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Merchants approved before they trade, through the review queue: one admin decides an item at a time, every
/// decision is in the audit log, and the merchant hears of it.
@Suite struct ReviewQueueTests {
    let square = Coordinate(latitude: 48.1374, longitude: 11.5755)

    func names(_ client: any TestClientProtocol, _ path: String) async throws -> [String] {
        try await client.send(.get, path).decode(Page<BusinessSummary>.self).items.map(\.name)
    }

    @Test(arguments: TestEngine.enabled)
    func aNewMerchantIsFoundAndChargesOnlyOnceApproved(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let accounts = AccountsDriver(client)
            let places = PlacesDriver(client)
            let admin = try await AdminTests.admin(client, services)
            let dora = try await accounts.signedIn("dora", role: .merchant, approved: false).accessToken
            let anna = try await places.sharingCustomer("anna")
            let me = try await client.send(.get, "/v1/me", token: dora).decode(User.self)
            #expect(me.merchantApproval == MerchantApproval(state: .pending))

            let business = try await places.createBusiness(name: "Dora's Flowers", category: .retail, token: dora)
            let location = try await places.addLocation(
                business: business.id,
                name: "Stall",
                at: square,
                radius: 40,
                token: dora
            )
            #expect(!business.listed)
            let nearby = "/v1/nearby/businesses?latitude=\(square.latitude)&longitude=\(square.longitude)"
            #expect(try await names(client, "/v1/businesses?q=flowers").isEmpty, "not found yet")
            #expect(try await names(client, nearby).isEmpty, "not nearby yet")
            #expect(
                try await client.send(.get, "/v1/businesses/\(business.id)", token: anna.accessToken).status
                    == .notFound
            )
            #expect(
                try await client.send(.get, "/v1/businesses/\(business.id)", token: dora).decode(Business.self)
                    .locations.count == 1
            )
            _ = try await places.move(to: square, ago: 30, token: anna.accessToken)
            let refused = try await WalletDriver(client).charge(
                business: business.id,
                customer: "anna",
                450,
                token: dora
            )
            #expect(refused.status == .forbidden && refused.problem?.code == .merchantNotApproved)

            // The queue shows the merchant with what they run, for the admin to check.
            let queue = try await client.send(.get, "/v1/admin/review-queue", token: admin).decode(
                Page<ReviewItem>.self
            )
            let item = try #require(queue.items.first { $0.subjectId == me.id })
            #expect(item.kind == .merchant && item.state == .open && item.subject == "Dora (@dora)")
            #expect(item.findings == ["“Dora's Flowers” (Retail), 1 location: Stall, 1 Main Street (within 40 m)."])
            #expect(location.businessId == business.id)

            let approved = try await client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: admin)
                .decode(ReviewItem.self)
            #expect(
                approved.state == .approved && approved.decidedBy == AccountsDriver.admin && approved.decidedAt != nil
            )
            #expect(
                try await client.send(.get, "/v1/me", token: dora).decode(User.self).merchantApproval?.state
                    == .approved
            )
            #expect(try await names(client, "/v1/businesses?q=flowers") == ["Dora's Flowers"])
            #expect(try await names(client, nearby) == ["Dora's Flowers"])
            #expect(try await client.send(.get, "/v1/businesses/\(business.id)").decode(Business.self).listed)
            // Presence starts with the customer's next position there.
            _ = try await places.move(to: square.offset(east: 5), token: anna.accessToken)
            let charge = try await WalletDriver(client).charge(
                business: business.id,
                customer: "anna",
                450,
                token: dora
            )
            #expect(charge.status == .created)
            _ = try await WalletDriver(client).end(try charge.decode(Charge.self), "decline", token: anna.accessToken)

            let log = try await client.send(.get, "/v1/admin/audit-log", token: admin).decode(Page<AuditEntry>.self)
            let entry = try #require(log.items.first)
            #expect(
                entry.action == "review.approve" && entry.objectKind == "merchant"
                    && entry.objectId == me.id.uuidString.lowercased()
            )
            #expect(entry.admin == AccountsDriver.admin && entry.detail == "Dora (@dora)")
            #expect(
                try await client.send(.get, "/v1/admin/review-queue", token: admin).decode(Page<ReviewItem>.self).items
                    .isEmpty
            )

            // Told by e-mail too (account alerts are mailed by default).
            let subjects = try await accounts.subjects(
                to: "dora@example.com",
                until: { $0.contains("Your business is approved") }
            )
            #expect(subjects.contains("Your business is approved"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func oneAdminDecidesAtATimeAndARefusedMerchantCanAskAgain(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let accounts = AccountsDriver(client)
            let first = try await AdminTests.admin(client, services)
            try await services.createAccount(
                email: "ops@example.com",
                username: "ops",
                displayName: "Ops Admin",
                password: AccountsDriver.password,
                role: .admin
            )
            let second = try await accounts.login("ops").decode(TokenResponse.self).accessToken
            let dora = try await accounts.signedIn("dora", role: .merchant, approved: false).accessToken
            let business = try await PlacesDriver(client).createBusiness(name: "Dora's Flowers", token: dora)
            let item = try #require(
                try await client.send(.get, "/v1/admin/review-queue?kind=merchant", token: first).decode(
                    Page<ReviewItem>.self
                ).items.first
            )

            let claimed = try await client.send(.post, "/v1/admin/review-queue/\(item.id)/claim", token: first).decode(
                ReviewItem.self
            )
            #expect(claimed.claimedBy == AccountsDriver.admin && claimed.claimedUntil != nil)
            for action in ["claim", "approve"] {
                let held = try await client.send(.post, "/v1/admin/review-queue/\(item.id)/\(action)", token: second)
                #expect(
                    held.status == .conflict && held.problem?.code == .reviewClaimed,
                    "\(action) while another admin holds it"
                )
                #expect(held.problem?.title.contains(AccountsDriver.admin) == true)
            }
            let noReason = try await client.send(
                .post,
                "/v1/admin/review-queue/\(item.id)/reject",
                json: ReviewReason(reason: " "),
                token: first
            )
            #expect(noReason.status == .unprocessableContent && noReason.problem?.errors?.first?.field == "reason")
            let rejected = try await client.send(
                .post,
                "/v1/admin/review-queue/\(item.id)/reject",
                json: ReviewReason(reason: "Add the stall's real address"),
                token: first
            ).decode(ReviewItem.self)
            #expect(
                rejected.state == .rejected && rejected.reason == "Add the stall's real address"
                    && rejected.claimedBy == nil
            )
            let late = try await client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: second)
            #expect(late.status == .conflict && late.problem?.code == .alreadyDecided)
            #expect(
                try await client.send(.get, "/v1/me", token: dora).decode(User.self).merchantApproval
                    == MerchantApproval(state: .rejected, reason: "Add the stall's real address")
            )
            let decided = try await client.send(.get, "/v1/admin/review-queue?state=rejected", token: second).decode(
                Page<ReviewItem>.self
            )
            #expect(decided.items.map(\.id) == [item.id] && decided.items.first?.decidedBy == AccountsDriver.admin)

            // Fixing the business files it again; the new item carries what changed.
            _ = try await PlacesDriver(client).addLocation(
                business: business.id,
                name: "Stall",
                at: square,
                token: dora
            )
            #expect(
                try await client.send(.get, "/v1/me", token: dora).decode(User.self).merchantApproval
                    == MerchantApproval(state: .pending)
            )
            let again = try #require(
                try await client.send(.get, "/v1/admin/review-queue", token: second).decode(Page<ReviewItem>.self).items
                    .first
            )
            #expect(again.id != item.id && again.findings.first?.contains("1 location: Stall") == true)
            #expect(
                try await client.send(.post, "/v1/admin/review-queue/\(again.id)/approve", token: second).status == .ok
            )
            #expect(try await names(client, "/v1/businesses?q=flowers") == ["Dora's Flowers"])

            let actions = try await client.send(.get, "/v1/admin/audit-log", token: first).decode(Page<AuditEntry>.self)
                .items.prefix(2)
            #expect(
                actions.map(\.action) == ["review.approve", "review.reject"]
                    && actions.map(\.admin) == ["ops", AccountsDriver.admin]
            )
            #expect(
                try await client.send(.get, "/v1/admin/review-queue?state=maybe", token: first).status
                    == .unprocessableContent
            )
            #expect(try await client.send(.get, "/v1/admin/review-queue/\(UUID())", token: first).status == .notFound)
        }
    }
}
