import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Top-ups and withdrawals through the sandbox processor, whose webhooks come back over real HTTP (`.live`).
@Suite struct TopUpTests {
    @Test(arguments: TestEngine.enabled)
    func theTestCardsSucceedOrFailAsProcessorsDo(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let created = try await wallet.topUp(2_500, token: anna)
            #expect(created.status == .created)
            let pending = try created.decode(TopUp.self)
            #expect(pending.status == .pending && pending.cardLast4 == "4242" && pending.cardBrand == "visa")
            #expect(try await wallet.settled(pending.id, token: anna).status == .succeeded)
            #expect(try await wallet.balance(token: anna) == 2_500)

            for (card, code) in [
                (WalletDriver.declinedCard, "card_declined"), (WalletDriver.insufficientCard, "insufficient_funds"),
            ] {
                let response = try await wallet.topUp(1_000, card: card, token: anna)
                let settled = try await wallet.settled(try response.decode(TopUp.self).id, token: anna)
                #expect(settled.status == .failed && settled.failureCode == code)
            }
            #expect(try await wallet.balance(token: anna) == 2_500)
            let history = try await wallet.activity(token: anna).items
            #expect(history.map(\.status) == [.failed, .failed, .succeeded])
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    /// Without `PLAZA_PAYMENT_GATEWAY` a server takes no cards at all: the test card 4242 tops up nothing.
    @Test func withoutAProcessorNoCardMovesMoney() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.paymentGateway = nil }) { client, _ in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let refused = try await wallet.topUp(10_000_000, token: anna)
            #expect(refused.status == .serviceUnavailable && refused.problem?.code == .unavailable)
            #expect(try await wallet.balance(token: anna) == 0)
            #expect(try await wallet.activity(token: anna).items.isEmpty)
            let withdrawal = try await client.send(
                .post,
                "/v1/wallet/withdrawals",
                json: WithdrawalRequest(amount: 100, currency: "USD"),
                token: anna,
                headers: WalletDriver.keyed("w-1")
            )
            #expect(withdrawal.status == .serviceUnavailable)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let page = try await browser.get("/wallet/add-money")
            #expect(page.text.contains("Card top-ups are not set up on this Plaza yet."))
            #expect(!page.text.contains(#"id="topup-form""#))
        }
    }

    @Test func theSandboxSaysTestModeWhereACardIsTaken() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await AccountsDriver(client).signedIn("anna")
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let page = try await browser.get("/wallet/add-money")
            #expect(page.text.contains(#"id="topup-form""#) && page.text.contains("<strong>Test mode</strong>"))
        }
    }

    /// A declined card is no money arriving: the history says "failed" with the processor's reason, not a green
    /// "+10.00", and the inbox tells the customer.
    @Test(arguments: TestEngine.enabled)
    func aFailedTopUpReadsAsFailedWithItsReason(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let declined = try await wallet.topUp(1_000, card: WalletDriver.declinedCard, token: anna).decode(
                TopUp.self
            )
            #expect(try await wallet.settled(declined.id, token: anna).status == .failed)
            let entry = try #require(try await wallet.activity(token: anna).items.first)
            #expect(entry.status == .failed && entry.failureCode == "card_declined")
            let inbox = try await client.send(.get, "/v1/inbox", token: anna).decode(InboxPage.self)
            let told = try #require(inbox.items.first)
            #expect(
                told.kind == .topUpFailed && told.note == "Your card was declined." && told.title.contains("failed")
            )

            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let page = try await browser.get("/wallet").text
            #expect(page.contains("· failed") && page.contains("Your card was declined."))
            #expect(page.contains(#"<span class="amount failed">$10.00</span>"#) && !page.contains("+$10.00"))
            // The top-up's own page says it plainly, and what to do next.
            let detail = try await browser.get("/wallet/activity/\(declined.id.uuidString.lowercased())").text
            #expect(
                detail.contains("Not added: Your card was declined.") && detail.contains("Nothing was charged")
                    && detail.contains("Try again")
            )
        }
    }

    /// Over a limit the operator set, the answer names the limit, what is left and when it frees up.
    @Test(arguments: TestEngine.enabled)
    func limitsPerTransactionDayAndMonthNameThemselves(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(
            engine,
            .live,
            configure: {
                $0.wallet.limits.topUpNew = FundingLimits(transaction: 50, day: 80, month: 100)
                $0.wallet.limits.withdrawalNew = FundingLimits(transaction: 30, day: 30, month: 30)
            }
        ) { client, _ in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let big = try await wallet.topUp(6_000, token: anna)
            #expect(
                big.status == .unprocessableContent && big.problem?.code == .limitExceeded
                    && big.problem?.limit == "top_up_transaction"
            )
            #expect(big.problem?.title == "You can top up at most 50.00 USD at a time." && big.problem?.resetsAt == nil)
            #expect(try await wallet.topUp(4_000, token: anna).status == .created)
            let second = try await wallet.topUp(4_500, token: anna)
            #expect(
                second.problem?.limit == "top_up_day"
                    && second.problem?.title == "You can top up 40.00 USD more this day."
            )
            let midnight = Calendar(identifier: .gregorian).startOfDay(for: Date()).addingTimeInterval(86_400)
            #expect(abs((second.problem?.resetsAt ?? .distantPast).timeIntervalSince(midnight)) < 3_700)
            // A declined attempt uses up nothing.
            let declined = try await wallet.topUp(4_000, card: WalletDriver.declinedCard, token: anna).decode(
                TopUp.self
            )
            #expect(try await wallet.settled(declined.id, token: anna).status == .failed)
            #expect(try await wallet.topUp(4_000, token: anna).status == .created)
            let withdrawal = try await client.send(
                .post,
                "/v1/wallet/withdrawals",
                json: WithdrawalRequest(amount: 4_000, currency: "USD"),
                token: anna,
                headers: WalletDriver.keyed("w")
            )
            #expect(withdrawal.problem?.limit == "withdrawal_transaction")
        }
    }

    @Test func badCardsAreRefusedFieldByField() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = CardDetails(number: "4242 4242 4242 4241", expMonth: 13, expYear: 2020, cvc: "12a")
            let response = try await WalletDriver(client).topUp(0, card: card, currency: "usd", token: anna)
            #expect(response.status == .unprocessableContent)
            let fields = Set(response.problem?.errors?.map(\.field) ?? [])
            #expect(fields == ["amount", "currency", "card.number", "card.expMonth", "card.expYear", "card.cvc"])
        }
    }

    @Test func moneyPostsNeedAnIdempotencyKey() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let response = try await WalletDriver(client).topUp(1_000, key: nil, token: anna)
            #expect(response.status == .badRequest && response.problem?.code == .idempotencyKeyRequired)
        }
    }

    @Test func aWebhookMustBeSignedAndARepeatedOneCountsOnce() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, services in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let topUp = try await wallet.fund(1_000, token: anna)
            let body = Data(
                #"{"id":"evt_again","type":"payment.captured","created":0,"data":{"id":"pay_x","reference":"\#(topUp.id)","amount":1000,"currency":"USD"}}"#
                    .utf8
            )
            var headers: HTTPFields = [.contentType: "application/json"]
            let unsigned = try await client.execute(
                uri: "/v1/webhooks/gateway",
                method: .post,
                headers: headers,
                body: ByteBuffer(bytes: body)
            )
            #expect(unsigned.status == .unauthorized)
            headers[HTTPField.Name("Plaza-Gateway-Signature")!] = services.gatewaySignature(
                for: body,
                at: Date().addingTimeInterval(-600)
            )
            let stale = try await client.execute(
                uri: "/v1/webhooks/gateway",
                method: .post,
                headers: headers,
                body: ByteBuffer(bytes: body)
            )
            #expect(stale.status == .unauthorized)
            headers[HTTPField.Name("Plaza-Gateway-Signature")!] = services.gatewaySignature(for: body)
            let repeated = try await client.execute(
                uri: "/v1/webhooks/gateway",
                method: .post,
                headers: headers,
                body: ByteBuffer(bytes: body)
            )
            #expect(repeated.status == .ok)
            #expect(try await wallet.balance(token: anna) == 1_000)
            // Anyone can post here: a body past 64 KiB is refused as too large, not a server error.
            let huge = try await client.execute(
                uri: "/v1/webhooks/gateway",
                method: .post,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(repeating: UInt8(ascii: " "), count: 65 * 1024)
            )
            #expect(huge.status == .contentTooLarge && huge.problem?.code == .payloadTooLarge)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aWithdrawalLeavesTheBalanceAtOnceAndIsPaidOut(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            try await wallet.fund(3_000, token: anna)
            let tooMuch = try await client.send(
                .post,
                "/v1/wallet/withdrawals",
                json: WithdrawalRequest(amount: 3_001, currency: "USD"),
                token: anna,
                headers: WalletDriver.keyed("w0")
            )
            #expect(tooMuch.problem?.code == .insufficientFunds)
            let response = try await client.send(
                .post,
                "/v1/wallet/withdrawals",
                json: WithdrawalRequest(amount: 1_200, currency: "USD"),
                token: anna,
                headers: WalletDriver.keyed("w1")
            )
            #expect(response.status == .created)
            #expect(try await wallet.balance(token: anna) == 1_800)
            let id = try response.decode(Withdrawal.self).id
            var status = FundingStatus.pending
            for _ in 0..<500 where status == .pending {
                status = try await client.send(.get, "/v1/wallet/withdrawals/\(id)", token: anna).decode(
                    Withdrawal.self
                ).status
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(status == .succeeded)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }
}
