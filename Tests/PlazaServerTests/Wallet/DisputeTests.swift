import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Payment disputes (issue 39, trust at the till): a customer reports a problem with a paid charge, the business
/// answers in words or with a refund, and Plaza's admins decide what the customer sends them: upheld with a refund
/// (once, whatever the race) or rejected. Each side is told.
@Suite struct DisputeTests {
    /// Anna paid Corner Cafe `amount`; Bruno owns it.
    static func paid(
        _ client: any TestClientProtocol,
        _ amount: Int64 = 1_000
    ) async throws -> (business: Business, bruno: String, anna: String, charge: Charge) {
        let (business, bruno, anna) = try await ChargeTests.counter(client, funds: 5_000)
        let wallet = WalletDriver(client)
        let charge = try await wallet.charge(business: business.id, customer: "anna", amount, token: bruno)
            .decode(Charge.self)
        let paid = try await wallet.approve(charge, token: anna).decode(Charge.self)
        return (business, bruno, anna, paid)
    }

    static func open(
        _ client: any TestClientProtocol,
        _ charge: Charge,
        reason: DisputeReason = .notAsDescribed,
        details: String = "The cake I took home was stale inside.",
        token: String
    ) async throws -> TestResponse {
        try await client.send(
            .post,
            "/v1/charges/\(charge.id)/disputes",
            json: DisputeRequest(reason: reason, details: details),
            token: token
        )
    }

    static func answer(
        _ client: any TestClientProtocol,
        _ dispute: Dispute,
        _ message: String,
        refund: Int64? = nil,
        token: String
    ) async throws -> TestResponse {
        try await client.send(
            .post,
            "/v1/disputes/\(dispute.id)/answer",
            json: DisputeAnswer(message: message, refund: refund),
            token: token,
            headers: WalletDriver.keyed(UUID().uuidString)
        )
    }

    @Test(arguments: TestEngine.enabled)
    func theBusinessAnswersThenRefundsThroughTheChargesRefund(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (business, bruno, anna, charge) = try await Self.paid(client)
            let carla = try await AccountsDriver(client).signedIn("carla").accessToken

            let short = try await Self.open(client, charge, details: "bad", token: anna)
            #expect(short.status == .unprocessableContent && short.problem?.errors?.map(\.field) == ["details"])
            #expect(try await Self.open(client, charge, token: carla).status == .notFound, "only the customer")
            #expect(try await Self.open(client, charge, token: bruno).status == .notFound)
            let opened = try await Self.open(client, charge, reason: .notAsDescribed, token: anna)
            #expect(opened.status == .created, "\(opened.text)")
            let dispute = try opened.decode(Dispute.self)
            #expect(
                dispute.state == .open && dispute.reason == .notAsDescribed && dispute.businessName == "Corner Cafe"
            )
            let again = try await Self.open(client, charge, token: anna)
            #expect(again.status == .conflict, "one dispute per payment")

            // The business's list has it; a stranger's view does not.
            let list = try await client.send(.get, "/v1/disputes?businessId=\(business.id)", token: bruno)
                .decode(Page<Dispute>.self)
            #expect(list.items.map(\.id) == [dispute.id])
            #expect(
                try await client.send(.get, "/v1/disputes?businessId=\(business.id)", token: carla).status == .notFound
            )
            #expect(try await client.send(.get, "/v1/disputes/\(dispute.id)", token: carla).status == .notFound)

            let words = try await Self.answer(client, dispute, "Sorry! Come by for a fresh one.", token: bruno)
            #expect(try words.decode(Dispute.self).state == .answered)
            #expect(
                try await Self.answer(client, dispute, "Refund", refund: 5_000, token: bruno).problem?.errors?
                    .map(\.field) == ["amount"],
                "at most what is left"
            )
            let before = try await wallet.balance(token: anna)
            let refunded = try await Self.answer(client, dispute, "Refunded half, sorry.", refund: 500, token: bruno)
            #expect(refunded.status == .ok, "\(refunded.text)")
            let settled = try refunded.decode(Dispute.self)
            #expect(settled.state == .refunded && settled.disputeRefund == 500 && settled.refundedAmount == 500)
            #expect(try await wallet.balance(token: anna) == before + 500)
            let paid = try await client.send(.get, "/v1/charges/\(charge.id)", token: anna).decode(Charge.self)
            #expect(paid.refunds?.map(\.reason) == ["Refunded half, sorry."], "the charge's own refund, with why")
            let late = try await Self.answer(client, dispute, "More words", token: bruno)
            #expect(late.status == .conflict && late.problem?.code == .stateConflict)
            let seen = try await client.send(.get, "/v1/disputes/\(dispute.id)", token: anna).decode(Dispute.self)
            #expect(seen.answer == "Refunded half, sorry." && seen.state == .refunded)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func plazaUpholdsAnEscalatedDisputeWithARefundAndBothAreTold(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let accounts = AccountsDriver(client)
            let admin = try await AdminTests.admin(client, services)
            let (_, bruno, anna, charge) = try await Self.paid(client, 1_200)
            let dispute = try await Self.open(client, charge, reason: .chargedTwice, token: anna).decode(Dispute.self)
            #expect(
                try await client.send(.post, "/v1/disputes/\(dispute.id)/escalate", token: bruno).status == .notFound
            )
            let escalated = try await client.send(.post, "/v1/disputes/\(dispute.id)/escalate", token: anna)
                .decode(Dispute.self)
            #expect(escalated.state == .escalated)
            #expect(try await Self.answer(client, dispute, "Too late?", token: bruno).status == .conflict)

            let queue = try await client.send(.get, "/v1/admin/review-queue?kind=dispute", token: admin)
                .decode(Page<ReviewItem>.self)
            let item = try #require(queue.items.first { $0.subjectId == dispute.id })
            #expect(item.actions == [.refund] && item.findings.contains { $0.contains("I was charged twice") })
            let bare = try await client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: admin)
            #expect(bare.status == .unprocessableContent, "upholding needs the refund and a statement")

            let before = try await wallet.balance(token: anna)
            let upheld = try await client.send(
                .post,
                "/v1/admin/review-queue/\(item.id)/approve",
                json: ReviewApproval(reason: "The receipt shows the same coffee twice.", action: .refund),
                token: admin
            )
            #expect(upheld.status == .ok, "\(upheld.text)")
            #expect(try await wallet.balance(token: anna) == before + 1_200)
            let decided = try await client.send(.get, "/v1/disputes/\(dispute.id)", token: bruno).decode(Dispute.self)
            #expect(decided.state == .refunded && decided.disputeRefund == 1_200)
            #expect(decided.decision == "The receipt shows the same coffee twice.")
            for email in ["anna@example.com", "bruno@example.com"] {
                let subjects = try await accounts.subjects(
                    to: email,
                    until: { $0.contains { $0.contains("payment dispute") } }
                )
                #expect(subjects.contains("Plaza decided the payment dispute: refunded"), "\(email) is told")
            }
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aRejectedDisputeMovesNoMoney(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let admin = try await AdminTests.admin(client, services)
            let (_, _, anna, charge) = try await Self.paid(client)
            let dispute = try await Self.open(client, charge, token: anna).decode(Dispute.self)
            _ = try await client.send(.post, "/v1/disputes/\(dispute.id)/escalate", token: anna)
            let item = try #require(
                try await client.send(.get, "/v1/admin/review-queue?kind=dispute", token: admin)
                    .decode(Page<ReviewItem>.self).items.first
            )
            let before = try await wallet.balance(token: anna)
            let rejected = try await client.send(
                .post,
                "/v1/admin/review-queue/\(item.id)/reject",
                json: ReviewReason(reason: "The cafe's photo shows a fresh cake."),
                token: admin
            )
            #expect(rejected.status == .ok, "\(rejected.text)")
            let seen = try await client.send(.get, "/v1/disputes/\(dispute.id)", token: anna).decode(Dispute.self)
            #expect(seen.state == .rejected && seen.decision == "The cafe's photo shows a fresh cake.")
            #expect(try await wallet.balance(token: anna) == before)
        }
    }

    /// Two admins (or one, twice) deciding the same dispute at once: one wins, the other is told it was decided, and
    /// the customer is refunded once.
    @Test(arguments: TestEngine.enabled)
    func aDisputeDecidedTwiceAtOnceRefundsOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let admin = try await AdminTests.admin(client, services)
            let (_, _, anna, charge) = try await Self.paid(client, 800)
            let dispute = try await Self.open(client, charge, token: anna).decode(Dispute.self)
            _ = try await client.send(.post, "/v1/disputes/\(dispute.id)/escalate", token: anna)
            let item = try #require(
                try await client.send(.get, "/v1/admin/review-queue?kind=dispute", token: admin)
                    .decode(Page<ReviewItem>.self).items.first
            )
            let before = try await wallet.balance(token: anna)
            let approval = ReviewApproval(reason: "Charged for a cake never handed over.", action: .refund)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await client.send(
                            .post,
                            "/v1/admin/review-queue/\(item.id)/approve",
                            json: approval,
                            token: admin
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1 && statuses.filter { $0 == .conflict }.count == 3)
            #expect(try await wallet.balance(token: anna) == before + 800, "refunded once")
            let decided = try await client.send(.get, "/v1/disputes/\(dispute.id)", token: anna).decode(Dispute.self)
            #expect(decided.state == .refunded && decided.refundedAmount == 800)
            let refunds = try await client.send(.get, "/v1/charges/\(charge.id)", token: anna).decode(Charge.self)
                .refunds
            #expect(refunds?.count == 1)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }
}
