import Foundation
import PlazaClient
import PlazaCore
import PlazaTestSupport
import Testing

/// Venmo's Request with the SDK: a friend asks, the other sees it live and pays it like a shop's charge, and both
/// histories read as a payment between two people.
@Suite struct PaymentRequestClientTests {
    @Test(arguments: TestEngine.enabled)
    func aFriendAsksAndIsPaidOnceOrCallsItOff(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { bruno, anna, _ in
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

            #expect(try await bruno.person("@anna").displayName == "Anna")
            var events = anna.events().makeAsyncIterator()
            #expect(try await events.next()?.type == PlazaEventType.ready)
            let asked = try await bruno.requestPayment(
                CreatePaymentRequest(to: "$anna", amount: 650, currency: "USD", note: "Pizza")
            )
            #expect(
                asked.status == .pending && asked.business.kind == .user && asked.business.username == "bruno"
                    && asked.message == "Pizza"
            )
            let seen = try #require(try await events.next())
            #expect(seen.type == WalletEventType.chargeRequested)
            let shown = try seen.payload(as: Charge.self)
            #expect(shown.id == asked.id && shown.business.id == nil, "a person's id never reaches another person")
            #expect(try await anna.myCharges(status: [.pending]).items.map(\.id) == [asked.id])

            let paid = try await anna.approve(shown)
            #expect(paid.status == .approved)
            #expect(try await anna.wallet().balances.first?.available == 1_350)
            #expect(try await bruno.wallet().balances.first?.available == 650)
            let annaSide = try #require(try await anna.activity().items.first)
            #expect(
                annaSide.kind == .transferOut && annaSide.amount == -650 && annaSide.note == "Pizza"
                    && annaSide.counterpart.username == "bruno"
            )
            let brunoSide = try #require(try await bruno.activity().items.first)
            #expect(
                brunoSide.kind == .transferIn && brunoSide.amount == 650 && brunoSide.counterpart.username == "anna"
            )
            #expect(try await bruno.contacts().map(\.username) == ["anna"])
            #expect(try await bruno.sentPaymentRequests().items.map(\.status) == [.approved])

            // Paying again is refused; a second request called off by its asker cannot be paid.
            await #expect(throws: PlazaClientError.self) { _ = try await anna.approve(shown) }
            let second = try await bruno.requestPayment(CreatePaymentRequest(to: "anna", amount: 100, currency: "USD"))
            #expect(try await bruno.cancel(second.id).status == .cancelled)
            await #expect(throws: PlazaClientError.self) { _ = try await anna.approve(second) }
            #expect(try await anna.wallet().balances.first?.available == 1_350)
        }
    }
}
