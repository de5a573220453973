import Foundation
import HummingbirdTesting
import PlazaClient
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// The wallet SDK against a real Plaza on loopback: the issue's whole story, told by two phones and a friend.
@Suite struct WalletClientTests {
    let shopPoint = Coordinate(latitude: 52.5200, longitude: 13.4050)

    @Test(arguments: TestEngine.enabled)
    func aCustomerTopsUpPaysAFriendAndApprovesTheShopsChargeLive(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { merchant, customer, accounts in
            try await accounts.register("carla")
            try await accounts.verify("carla")

            let topUp = try await customer.topUp(
                TopUpRequest(
                    amount: 5_000,
                    currency: "USD",
                    card: CardDetails(number: "4242424242424242", expMonth: 1, expYear: 2035, cvc: "999")
                )
            )
            var settled = topUp
            for _ in 0..<250 where settled.status == .pending {
                try await Task.sleep(for: .milliseconds(20))
                settled = try await customer.topUp(topUp.id)
            }
            #expect(settled.status == .succeeded)

            let transfer = try await customer.transfer(
                TransferRequest(to: "carla", amount: 1_500, currency: "USD", note: "cinema")
            )
            #expect(transfer.to.username == "carla")
            #expect(try await customer.wallet().balances.first?.available == 3_500)

            let business = try await merchant.createBusiness(CreateBusinessRequest(name: "Kiosk", category: .retail))
            _ = try await merchant.addLocation(
                to: business.id,
                LocationRequest(
                    name: "Alex",
                    address: "Alexanderplatz",
                    latitude: shopPoint.latitude,
                    longitude: shopPoint.longitude
                )
            )
            try await customer.setLocationSharing(.merchants)
            try await customer.uploadLocations([
                LocationPoint(
                    latitude: shopPoint.latitude,
                    longitude: shopPoint.longitude,
                    accuracy: 5,
                    recordedAt: Date()
                )
            ])

            var customerEvents = customer.events().makeAsyncIterator()
            #expect(try await customerEvents.next()?.type == PlazaEventType.ready)
            var merchantEvents = merchant.events().makeAsyncIterator()
            #expect(try await merchantEvents.next()?.type == PlazaEventType.ready)

            // Money sent to someone with the app open shows up on their phone at once, with the note.
            let tip = try await customer.transfer(
                TransferRequest(to: "bruno", amount: 80, currency: "USD", note: "for the \"good\" coffee\nthanks")
            )
            // (On PostgreSQL the upload's own `presence.entered` may reach the merchant after the socket opened.)
            var received = try await merchantEvents.next()
            while received?.type.hasPrefix("presence.") == true { received = try await merchantEvents.next() }
            #expect(received?.type == WalletEventType.transferReceived)
            #expect(try received?.payload(as: Transfer.self) == tip)

            let charge = try await merchant.createCharge(
                CreateChargeRequest(
                    businessId: business.id,
                    customer: "anna",
                    amount: 420,
                    currency: "USD",
                    items: [ChargeLine(description: "Newspaper", quantity: 1, unitAmount: 420)]
                )
            )
            // (On PostgreSQL the upload's own `nearby.business` may arrive after the socket opened: not this test's subject.)
            var requested = try await customerEvents.next()
            while requested?.type.hasPrefix("nearby.") == true { requested = try await customerEvents.next() }
            #expect(requested?.type == WalletEventType.chargeRequested)
            let shown = try #require(try requested?.payload(as: Charge.self))
            #expect(shown.id == charge.id && shown.items.first?.description == "Newspaper")
            // And the words for a banner wherever she is in the app.
            let arrival = try await customerEvents.next()
            #expect(arrival?.type == ArrivalEventType.arrived)
            let words = try arrival?.payload(as: NotificationContent.self)
            #expect(words?.title.contains("asks you to pay $4.20") == true && words?.link == "/wallet/charges")

            let approved = try await customer.approve(shown)
            #expect(approved.status == .approved)
            var outcome = try await merchantEvents.next()
            while [WalletEventType.chargeRequested, ArrivalEventType.arrived].contains(outcome?.type) {
                outcome = try await merchantEvents.next()
            }
            #expect(outcome?.type == WalletEventType.charge(.approved))
            #expect(try await customer.wallet().balances.first?.available == 3_000)
            #expect(try await merchant.businessWallet(business.id).balances.first?.available == 420)
            #expect(try await merchant.wallet().balances.first?.available == 80)
            #expect(try await customer.receipt(charge.id).reference == charge.reference)
            // The same receipt as a PDF to save or share.
            let pdf = try await customer.receiptPDF(charge.id)
            #expect(pdf.starts(with: Data("%PDF-".utf8)) && pdf.count > 1_000)
            let history = try await customer.activity()
            #expect(history.items.map(\.kind) == [.charge, .transferOut, .transferOut, .topUp])

            // The inbox: the shop's charge (paid now) for the customer; the tip and the answer for the merchant.
            let inbox = try await customer.inbox()
            #expect(
                inbox.items.map(\.kind) == [.chargeRequested] && inbox.items.first?.status == .approved
                    && inbox.unreadCount == 1
            )
            try await customer.markInboxSeen(through: inbox.seenMarker)
            #expect(try await customer.inbox().unreadCount == 0)
            let merchantInbox = try await merchant.inbox(limit: 1)
            #expect(merchantInbox.items.map(\.kind) == [.chargeAnswered] && merchantInbox.unreadCount == 2)
            let older = try await merchant.inbox(limit: 1, cursor: merchantInbox.nextCursor)
            #expect(older.items.first?.note == "for the \"good\" coffee\nthanks" && older.nextCursor == nil)
        }
    }

    /// An app on a Plaza that uses Stripe: the card is typed on Stripe's page (opened from `checkoutUrl`), and the
    /// bank account for withdrawals is connected on Stripe's onboarding page.
    @Test func anAppOnStripeTopsUpOnTheHostedPageAndWithdrawsToTheConnectedBank() async throws {
        let stripe = try await StripeStandIn.start()
        defer { Task { await stripe.stop() } }
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.paymentGateway = .stripe(stripe.settings) }) {
            client,
            _ in
            stripe.sendWebhooks(to: "http://127.0.0.1:\(client.port ?? 0)/v1/webhooks/stripe")
            let accounts = AccountsDriver(client)
            try await accounts.register("anna")
            try await accounts.verify("anna")
            let phone = PlazaClient(baseURL: URL(string: "http://127.0.0.1:\(try #require(client.port))")!)
            try await phone.login("anna", password: AccountsDriver.password)

            let topUp = try await phone.topUp(TopUpRequest(amount: 4_000, currency: "USD"))
            _ = try await stripe.pay(try #require(topUp.checkoutUrl), card: "4242 4242 4242 4242")
            var settled = topUp
            for _ in 0..<250 where settled.status == .pending {
                try await Task.sleep(for: .milliseconds(20))
                settled = try await phone.topUp(topUp.id)
            }
            #expect(settled.status == .succeeded && settled.checkoutUrl == nil)

            #expect(try await phone.payoutAccount().status == .none)
            do {
                _ = try await phone.withdraw(WithdrawalRequest(amount: 1_000, currency: "USD"))
                Issue.record("a withdrawal went through with no bank account connected")
            } catch let error as PlazaClientError {
                #expect(error.code == .payoutAccountRequired)
            }
            _ = try await stripe.completeOnboarding(try await phone.startPayoutOnboarding().url)
            #expect(try await phone.payoutAccount().status == .ready)
            let withdrawal = try await phone.withdraw(WithdrawalRequest(amount: 1_000, currency: "USD"))
            #expect(try await phone.withdrawal(withdrawal.id).status == .succeeded)
            #expect(try await phone.wallet().balances.first?.available == 3_000)
        }
    }

    @Test func aRefusedApprovalSaysWhy() async throws {
        try await PlacesClientTests.withClients { _, customer, _ in
            do {
                _ = try await customer.transfer(TransferRequest(to: "bruno", amount: 100, currency: "USD"))
                Issue.record("an empty wallet paid")
            } catch let error as PlazaClientError {
                #expect(error.code == .insufficientFunds)
            }
        }
    }
}
