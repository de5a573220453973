import Foundation
import PlazaClient
import PlazaCore
import PlazaTestSupport
import Testing

/// Payment disputes with the SDK: the customer reports a problem with a paid charge, the business answers with a
/// refund, and both read the settled dispute.
@Suite struct DisputeClientTests {
    @Test func aDisputeIsReportedAndSettledWithARefund() async throws {
        try await PlacesClientTests.withClients { bruno, anna, _ in
            let topUp = try await anna.topUp(
                TopUpRequest(
                    amount: 2_000,
                    currency: "USD",
                    card: CardDetails(number: "4242424242424242", expMonth: 1, expYear: 2035, cvc: "999")
                )
            )
            for _ in 0..<250 where try await anna.topUp(topUp.id).status == .pending {
                try await Task.sleep(for: .milliseconds(20))
            }
            let business = try await bruno.createBusiness(CreateBusinessRequest(name: "Gelateria", category: .cafe))
            let code = try await anna.payCode()
            let charge = try await bruno.createCharge(
                CreateChargeRequest(businessId: business.id, payCode: code.code, amount: 600, currency: "USD")
            )
            _ = try await anna.approve(try await anna.charge(charge.id))

            let opened = try await anna.openDispute(
                charge: charge.id,
                DisputeRequest(reason: .notReceived, details: "The second scoop never came.")
            )
            #expect(opened.state == .open && opened.customer.username == "anna")
            #expect(try await bruno.disputes(business: business.id).items.map(\.id) == [opened.id])
            let settled = try await bruno.answerDispute(opened.id, DisputeAnswer(message: "Sorry!", refund: 300))
            #expect(settled.state == .refunded && settled.disputeRefund == 300)
            #expect(try await anna.dispute(opened.id).answer == "Sorry!")
            #expect(try await anna.disputes().items.map(\.state) == [.refunded])
            #expect(try await anna.wallet().balances.first?.available == 1_700)
            await #expect(throws: PlazaClientError.self) { _ = try await anna.escalateDispute(opened.id) }
        }
    }
}
