import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Plaza on Stripe, against a local stand-in that speaks Stripe's HTTP API, serves its hosted pages and signs its
/// webhooks the same way: card numbers are typed on the processor's page only, and its webhooks settle the money.
@Suite struct StripeTests {
    /// A live Plaza configured for Stripe at the stand-in, which posts its webhooks to Plaza's `/v1/webhooks/stripe`.
    static func withStripe(
        _ engine: TestEngine,
        _ body: @escaping @Sendable (any TestClientProtocol, PlazaServices, StripeStandIn) async throws -> Void
    ) async throws {
        let stripe = try await StripeStandIn.start()
        do {
            try await TestPlaza.withApp(engine, .live, configure: { $0.paymentGateway = .stripe(stripe.settings) }) {
                client,
                services in
                stripe.sendWebhooks(to: "http://127.0.0.1:\(client.port ?? 0)/v1/webhooks/stripe")
                try await body(client, services, stripe)
            }
        } catch {
            await stripe.stop()
            throw error
        }
        await stripe.stop()
    }

    static func topUp(
        _ client: some TestClientProtocol,
        _ amount: Int64,
        token: String,
        key: String = UUID().uuidString
    ) async throws -> TestResponse {
        try await client.send(
            .post,
            "/v1/wallet/top-ups",
            json: TopUpRequest(amount: amount, currency: "USD"),
            token: token,
            headers: WalletDriver.keyed(key)
        )
    }

    @Test(arguments: TestEngine.enabled)
    func aTopUpIsPaidOnStripesPageAndCreditedByItsWebhook(_ engine: TestEngine) async throws {
        try await Self.withStripe(engine) { client, services, stripe in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let created = try await Self.topUp(client, 2_500, token: anna)
            #expect(created.status == .created)
            let pending = try created.decode(TopUp.self)
            let checkout = try #require(pending.checkoutUrl)
            #expect(pending.status == .pending && checkout.hasPrefix(stripe.baseURL + "/pay/cs_test_"))
            #expect(try await wallet.balance(token: anna) == 0)

            let back = try #require(try await stripe.pay(checkout, card: "4242 4242 4242 4242"))
            #expect(back.hasSuffix("/wallet/activity/\(pending.id.uuidString.lowercased())?notice=top-up-paid"))
            let settled = try await wallet.settled(pending.id, token: anna)
            #expect(settled.status == .succeeded && settled.checkoutUrl == nil && settled.failureCode == nil)
            #expect(try await wallet.balance(token: anna) == 2_500)
            #expect(stripe.deliveries.map(\.status) == [200])

            // What went over the wire: Stripe's API version and an idempotency key on every POST, our top-up as the
            // session's reference, the amount in minor units and a lower-case currency, the customer's address.
            let call = try #require(stripe.calls.first { $0.path == "/v1/checkout/sessions" })
            #expect(call.idempotencyKey == "top-up-\(pending.id)" && call.stripeVersion == StripeGateway.apiVersion)
            #expect(call.form["client_reference_id"] == pending.id.uuidString.lowercased())
            #expect(
                call.form["line_items[0][price_data][unit_amount]"] == "2500"
                    && call.form["line_items[0][price_data][currency]"] == "usd"
            )
            #expect(call.form["customer_email"] == "anna@example.com")
            #expect(stripe.calls.filter { $0.method == "POST" }.allSatisfy { $0.idempotencyKey != nil })
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    /// A refused card keeps the page open (the customer may try another); if they give up, the top-up fails with
    /// the card's reason, not as money arriving.
    @Test(arguments: TestEngine.enabled)
    func aDeclinedCardThenAnAbandonedPageFailsWithTheCardsReason(_ engine: TestEngine) async throws {
        try await Self.withStripe(engine) { client, _, stripe in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let first = try await Self.topUp(client, 1_000, token: anna).decode(TopUp.self)
            #expect(try await stripe.pay(try #require(first.checkoutUrl), card: "4000 0000 0000 9995") == nil)
            let stillOpen = try await client.send(.get, "/v1/wallet/top-ups/\(first.id)", token: anna).decode(
                TopUp.self
            )
            #expect(stillOpen.status == .pending && stillOpen.checkoutUrl != nil)
            try await stripe.expire(try #require(first.checkoutUrl?.split(separator: "/").last.map(String.init)))
            let failed = try await wallet.settled(first.id, token: anna)
            #expect(failed.status == .failed && failed.failureCode == "insufficient_funds")

            // Left without trying a card: "expired".
            let second = try await Self.topUp(client, 1_000, token: anna).decode(TopUp.self)
            let session = try #require(second.checkoutUrl?.split(separator: "/").last.map(String.init))
            try await stripe.expire(session)
            #expect(try await wallet.settled(second.id, token: anna).failureCode == "expired")
            #expect(try await wallet.balance(token: anna) == 0)
            let history = try await wallet.activity(token: anna).items
            #expect(
                history.map(\.status) == [.failed, .failed]
                    && history.map(\.failureCode) == ["expired", "insufficient_funds"]
            )
        }
    }

    @Test func aCardSentToPlazaIsRefusedWhereStripeTakesCards() async throws {
        try await Self.withStripe(.sqlite) { client, _, stripe in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let response = try await WalletDriver(client).topUp(1_000, token: anna)
            #expect(response.status == .unprocessableContent && response.problem?.errors?.map(\.field) == ["card"])
            #expect(stripe.calls.isEmpty)
        }
    }

    /// Only Stripe's signature is taken at `/v1/webhooks/stripe`, and the sandbox's endpoint takes nothing at all.
    @Test func webhooksNeedStripesSignature() async throws {
        try await Self.withStripe(.sqlite) { client, _, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let topUp = try await Self.topUp(client, 1_000, token: anna).decode(TopUp.self)
            let body = Data(
                #"{"id":"evt_1","object":"event","type":"checkout.session.completed","data":{"object":{"id":"cs_x","payment_status":"paid","client_reference_id":"\#(topUp.id)"}}}"#
                    .utf8
            )
            func post(_ path: String, signature: String?) async throws -> TestResponse {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let signature { headers[HTTPField.Name("Stripe-Signature")!] = signature }
                return try await client.execute(
                    uri: path,
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(bytes: body)
                )
            }
            #expect(try await post("/v1/webhooks/stripe", signature: nil).status == .unauthorized)
            let forged = StripeStandIn.signature(body, at: Date(), secret: "whsec_someone_else")
            #expect(try await post("/v1/webhooks/stripe", signature: forged).status == .unauthorized)
            let stale = StripeStandIn.signature(body, at: Date().addingTimeInterval(-600))
            #expect(try await post("/v1/webhooks/stripe", signature: stale).status == .unauthorized)
            #expect(
                try await post("/v1/webhooks/gateway", signature: StripeStandIn.signature(body, at: Date())).status
                    == .unauthorized
            )
            #expect(
                try await client.send(.get, "/v1/wallet/top-ups/\(topUp.id)", token: anna).decode(TopUp.self).status
                    == .pending
            )
            // Rotating secrets: Stripe sends one v1 per secret; one of them matching is enough.
            let rotated = StripeStandIn.signature(body, at: Date()) + ",v1=" + String(repeating: "0", count: 64)
            #expect(try await post("/v1/webhooks/stripe", signature: rotated).status == .ok)
            #expect(
                try await post("/v1/webhooks/stripe", signature: StripeStandIn.signature(body, at: Date())).status
                    == .ok
            )
            #expect(try await WalletDriver(client).balance(token: anna) == 1_000)
        }
    }

    /// Stripe busy (a 500) is retried with the same key; Stripe unreachable leaves nothing behind.
    @Test func aBusyStripeIsAskedAgainWithTheSameKeyAndADownOneRecordsNothing() async throws {
        try await Self.withStripe(.sqlite) { client, _, stripe in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            stripe.fail("/v1/checkout/sessions", with: [500])
            let created = try await Self.topUp(client, 700, token: anna)
            #expect(created.status == .created)
            let keys = stripe.calls.filter { $0.path == "/v1/checkout/sessions" }.map(\.idempotencyKey)
            #expect(keys.count == 2 && Set(keys).count == 1)

            stripe.fail("/v1/checkout/sessions", with: [503, 503, 503])
            let down = try await Self.topUp(client, 800, token: anna)
            #expect(down.status == .badGateway && down.problem?.code == .gatewayError)
            #expect(try await wallet.activity(token: anna).items.count == 1)
        }
    }

    /// Webhooks that never come (an endpoint set up wrong) lose nothing: overdue top-ups are asked about.
    @Test(arguments: TestEngine.enabled)
    func aTopUpWhoseWebhookNeverCameIsSettledByAskingStripe(_ engine: TestEngine) async throws {
        try await Self.withStripe(engine) { client, services, stripe in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            stripe.sendWebhooks(to: nil)
            let paid = try await Self.topUp(client, 1_500, token: anna).decode(TopUp.self)
            _ = try await stripe.pay(try #require(paid.checkoutUrl), card: "4242424242424242")
            let left = try await Self.topUp(client, 900, token: anna).decode(TopUp.self)
            try await stripe.expire(try #require(left.checkoutUrl?.split(separator: "/").last.map(String.init)))
            try await services.wallet.reconcileOverdue()
            #expect(try await wallet.balance(token: anna) == 0)  // not overdue yet: the webhooks may still come

            let later = Date().addingTimeInterval(StripeGateway.checkoutLifetime + 600)
            try await services.wallet.reconcileOverdue(now: later)
            #expect(try await wallet.balance(token: anna) == 1_500)
            let settled = try await client.send(.get, "/v1/wallet/top-ups/\(left.id)", token: anna).decode(TopUp.self)
            #expect(settled.status == .failed && settled.failureCode == "expired")
            let asked = stripe.calls.filter { $0.method == "GET" }.count
            try await services.wallet.reconcileOverdue(now: later)
            #expect(stripe.calls.filter { $0.method == "GET" }.count == asked && asked == 2)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    /// Withdrawals go to the bank account the user connected on Stripe's onboarding page (a Connect account):
    /// refused before, paid at once after (a transfer), and returned when Stripe refuses the transfer.
    @Test(arguments: TestEngine.enabled)
    func withdrawalsGoToTheBankAccountConnectedOnStripe(_ engine: TestEngine) async throws {
        try await Self.withStripe(engine) { client, services, stripe in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let topUp = try await Self.topUp(client, 3_000, token: anna).decode(TopUp.self)
            _ = try await stripe.pay(try #require(topUp.checkoutUrl), card: "4242424242424242")
            _ = try await wallet.settled(topUp.id, token: anna)

            let early = try await client.send(
                .post,
                "/v1/wallet/withdrawals",
                json: WithdrawalRequest(amount: 1_000, currency: "USD"),
                token: anna,
                headers: WalletDriver.keyed("w-0")
            )
            #expect(early.status == .conflict && early.problem?.code == .payoutAccountRequired)
            #expect(
                try await client.send(.get, "/v1/me/payout-account", token: anna).decode(PayoutAccount.self).status
                    == .none
            )

            let onboarding = try await client.send(.post, "/v1/me/payout-account/onboarding", token: anna).decode(
                PayoutOnboarding.self
            )
            #expect(onboarding.url.hasPrefix(stripe.baseURL + "/connect/acct_"))
            #expect(
                try await client.send(.get, "/v1/me/payout-account", token: anna).decode(PayoutAccount.self).status
                    == .incomplete
            )
            let back = try #require(try await stripe.completeOnboarding(onboarding.url))
            #expect(back.hasSuffix("/wallet/payout-account/return"))
            #expect(
                try await client.send(.get, "/v1/me/payout-account", token: anna).decode(PayoutAccount.self).status
                    == .ready
            )

            let paid = try await client.send(
                .post,
                "/v1/wallet/withdrawals",
                json: WithdrawalRequest(amount: 1_000, currency: "USD"),
                token: anna,
                headers: WalletDriver.keyed("w-1")
            )
            #expect(paid.status == .created)
            let withdrawal = try await wallet.withdrawalSettled(try paid.decode(Withdrawal.self).id, token: anna)
            #expect(withdrawal.status == .succeeded)
            let transfer = try #require(stripe.calls.first { $0.path == "/v1/transfers" })
            #expect(transfer.form["destination"]?.hasPrefix("acct_") == true && transfer.form["amount"] == "1000")
            #expect(transfer.idempotencyKey == "withdrawal-\(withdrawal.id)")
            #expect(try await wallet.balance(token: anna) == 2_000 && stripe.platformBalance("USD") == 2_000)

            // Stripe's own balance is short (card money not yet available to the platform): the transfer is refused
            // and the money comes back to the wallet at once, with Stripe's reason.
            stripe.setPlatformBalance("USD", 500)
            let refused = try await client.send(
                .post,
                "/v1/wallet/withdrawals",
                json: WithdrawalRequest(amount: 2_000, currency: "USD"),
                token: anna,
                headers: WalletDriver.keyed("w-2")
            )
            #expect(refused.status == .created)
            let returned = try await wallet.withdrawalSettled(try refused.decode(Withdrawal.self).id, token: anna)
            #expect(returned.status == .failed && returned.failureCode == "balance_insufficient")
            #expect(try await wallet.balance(token: anna) == 2_000)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    /// The web wallet on Stripe, clicked through: the amount on Plaza's page, the card on Stripe's, back to a
    /// notice; "Back" on Stripe's page calls the top-up off; a bank account connected before the first withdrawal.
    @Test func theWalletPageSendsCardsAndBankDetailsToStripesPages() async throws {
        try await Self.withStripe(.sqlite) { client, _, stripe in
            _ = try await AccountsDriver(client).signedIn("anna")
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let wallet = try await browser.get("/wallet/add-money").text
            #expect(
                wallet.contains("Continue to payment") && !wallet.contains(#"name="number""#)
                    && wallet.contains("<strong>Test mode</strong>")
            )
            let withdrawPage = try await browser.get("/wallet/withdraw").text
            #expect(withdrawPage.contains("Connect a bank account") && !withdrawPage.contains(#"id="withdraw-form""#))

            let started = try await browser.post(
                "/wallet/top-up",
                ["amount": "12.50", "idempotencyKey": UUID().uuidString],
                csrf: PageSession.csrfToken(in: wallet)
            )
            #expect(started.status == .seeOther)
            let checkout = try #require(started.headers[.location])
            #expect(checkout.hasPrefix(stripe.baseURL + "/pay/"))
            let back = try #require(try await stripe.pay(checkout, card: "4242424242424242"))
            let landed = try await browser.get(Self.path(back)).text
            #expect(landed.contains("Payment done") && landed.contains("$12.50"))

            // Changed their mind on Stripe's page: "Back" returns to Plaza, which calls the top-up off.
            let second = try await browser.post(
                "/wallet/top-up",
                ["amount": "5", "idempotencyKey": UUID().uuidString],
                csrf: PageSession.csrfToken(in: landed)
            )
            let cancelURL = try #require(stripe.calls.last { $0.path == "/v1/checkout/sessions" }?.form["cancel_url"])
            let cancelled = try await browser.get(Self.path(cancelURL))
            let cancelledPage = try #require(cancelled.headers[.location])
            #expect(
                cancelled.status == .seeOther && cancelledPage.hasPrefix("/wallet/activity/")
                    && cancelledPage.hasSuffix("?notice=top-up-cancelled")
            )
            let session = try #require(second.headers[.location]?.split(separator: "/").last.map(String.init))
            #expect(stripe.session(session)?.status == "expired")
            let afterCancel = try await browser.get(cancelledPage).text
            #expect(
                afterCancel.contains("Top-up cancelled: nothing was charged.")
                    && afterCancel.contains("You cancelled on the payment page.")
            )

            // The first withdrawal: connect a bank account on Stripe's page, come back, withdraw.
            let connect = try await browser.post(
                "/wallet/payout-account",
                [:],
                csrf: PageSession.csrfToken(in: afterCancel)
            )
            let onboarding = try #require(connect.headers[.location])
            #expect(connect.status == .seeOther && onboarding.hasPrefix(stripe.baseURL + "/connect/"))
            let returned = try await browser.get(
                Self.path(try #require(try await stripe.completeOnboarding(onboarding)))
            )
            #expect(returned.headers[.location] == "/wallet/withdraw?notice=bank-connected")
            let ready = try await browser.get("/wallet/withdraw?notice=bank-connected").text
            #expect(ready.contains("Bank account connected") && ready.contains(#"id="withdraw-form""#))
            let withdrawn = try await browser.post(
                "/wallet/withdraw",
                ["amount": "2.50", "idempotencyKey": UUID().uuidString],
                csrf: PageSession.csrfToken(in: ready)
            )
            #expect(withdrawn.headers[.location]?.hasPrefix("/wallet/activity/") == true)
            #expect(stripe.calls.contains { $0.path == "/v1/transfers" && $0.form["amount"] == "250" })
        }
    }

    /// The path and query of one of Plaza's own URLs (the stand-in sends the browser back to them).
    static func path(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        return components.path + (components.query.map { "?" + $0 } ?? "")
    }
}
