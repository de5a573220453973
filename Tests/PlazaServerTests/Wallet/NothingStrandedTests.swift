import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// No money or open charge is left behind by a deleted account or business, and nobody's history comes to name a
/// stranger.
@Suite struct NothingStrandedTests {
    static let shopPoint = Coordinate(latitude: 48.1374, longitude: 11.5755)

    /// Bruno's Corner Cafe, and Anna in it, who paid it `amount` (with 10.00 in her wallet before).
    static func paidCharge(
        _ client: any TestClientProtocol,
        _ amount: Int64
    ) async throws
        -> (shop: (tokens: TokenResponse, business: Business, location: BusinessLocation), anna: String, charge: Charge)
    {
        let (wallet, places) = (WalletDriver(client), PlacesDriver(client))
        let shop = try await places.shop(at: shopPoint)
        let anna = try await places.sharingCustomer("anna").accessToken
        try await places.move(to: shopPoint, token: anna)
        try await wallet.fund(1_000, token: anna)
        let charge = try await wallet.charge(
            business: shop.business.id,
            customer: "anna",
            amount,
            token: shop.tokens.accessToken
        ).decode(Charge.self)
        #expect(try await wallet.approve(charge, token: anna).status == .ok)
        return (shop, anna, charge)
    }

    /// Withdraws and, when it was accepted, waits until the processor settled it (a pending one blocks deletions).
    func withdraw(
        _ client: any TestClientProtocol,
        _ amount: Int64,
        business: UUID? = nil,
        token: String
    ) async throws -> TestResponse {
        let response = try await client.send(
            .post,
            "/v1/wallet/withdrawals",
            json: WithdrawalRequest(amount: amount, currency: "USD", businessId: business),
            token: token,
            headers: WalletDriver.keyed(UUID().uuidString)
        )
        if response.status == .created {
            _ = try await WalletDriver(client).withdrawalSettled(try response.decode(Withdrawal.self).id, token: token)
        }
        return response
    }

    /// Money on its way (a top-up the processor has not confirmed) keeps the account: it would otherwise land on nobody.
    @Test func aTopUpOnItsWayKeepsTheAccount() async throws {
        // In router mode the sandbox's webhooks have nowhere to go: the top-up stays pending.
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            #expect(try await WalletDriver(client).topUp(500, token: anna).status == .created)
            let refused = try await client.send(
                .delete,
                "/v1/me",
                json: DeleteAccountRequest(password: AccountsDriver.password),
                token: anna
            )
            #expect(
                refused.status == .conflict && refused.problem?.title == "A top-up or withdrawal is still on its way."
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aBusinessGoesOnlyOnceItsMoneyIsPaidOutAndItsChargesAnswered(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (wallet, places) = (WalletDriver(client), PlacesDriver(client))
            let shop = try await places.shop(at: Self.shopPoint)
            let bruno = shop.tokens.accessToken
            let anna = try await places.sharingCustomer("anna").accessToken
            try await places.move(to: Self.shopPoint, token: anna)
            try await wallet.fund(1_000, token: anna)
            let paid = try await wallet.charge(business: shop.business.id, customer: "anna", 420, token: bruno).decode(
                Charge.self
            )
            #expect(try await wallet.approve(paid, token: anna).status == .ok)
            let waiting = try await wallet.charge(business: shop.business.id, customer: "anna", 100, token: bruno)
                .decode(Charge.self)

            let holding = try await client.send(.delete, "/v1/businesses/\(shop.business.id)", token: bruno)
            #expect(holding.status == .conflict && holding.problem?.title.contains("4.20") == true)
            // Staff cannot pay a business out; its owner can.
            let carla = try await AccountsDriver(client).signedIn("carla").accessToken
            _ = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/members",
                json: AddMemberRequest(username: "carla", role: .staff),
                token: bruno
            )
            #expect(try await withdraw(client, 420, business: shop.business.id, token: carla).status.code >= 400)
            #expect(try await withdraw(client, 420, business: shop.business.id, token: bruno).status == .created)

            let open = try await client.send(.delete, "/v1/businesses/\(shop.business.id)", token: bruno)
            #expect(open.status == .conflict && open.problem?.title == "A charge is still waiting for a customer.")
            #expect(try await wallet.end(waiting, "cancel", token: bruno).status == .ok)
            #expect(
                try await client.send(.delete, "/v1/businesses/\(shop.business.id)", token: bruno).status == .noContent
            )
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func anAccountGoesOnlyWithAnEmptyWalletAndNoBusinessLeftOwnerless(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            try await wallet.fund(1_000, token: anna)
            let refused = try await client.send(
                .delete,
                "/v1/me",
                json: DeleteAccountRequest(password: AccountsDriver.password),
                token: anna
            )
            #expect(refused.status == .conflict && refused.problem?.title == "Your wallet still holds 10.00 USD.")
            #expect(try await withdraw(client, 1_000, token: anna).status == .created)
            #expect(
                try await client.send(
                    .delete,
                    "/v1/me",
                    json: DeleteAccountRequest(password: AccountsDriver.password),
                    token: anna
                ).status
                    == .noContent
            )

            let shop = try await PlacesDriver(client).shop(at: Self.shopPoint)
            let alone = try await client.send(
                .delete,
                "/v1/me",
                json: DeleteAccountRequest(password: AccountsDriver.password),
                token: shop.tokens.accessToken
            )
            #expect(alone.status == .conflict && alone.problem?.title == "You are the only owner of Corner Cafe.")
            _ = try await AccountsDriver(client).signedIn("dora")
            _ = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/members",
                json: AddMemberRequest(username: "dora", role: .owner),
                token: shop.tokens.accessToken
            )
            let handedOver = try await client.send(
                .delete,
                "/v1/me",
                json: DeleteAccountRequest(password: AccountsDriver.password),
                token: shop.tokens.accessToken
            )
            #expect(handedOver.status == .noContent)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aDeletedUserIsDeletedUserInOthersHistoryAndExports(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (anna, ben) = try await TransferTests.annaAndBen(client, annaHas: 500)
            #expect(try await wallet.transfer(to: "ben", 500, token: anna).status == .created)
            #expect(
                try await client.send(
                    .delete,
                    "/v1/me",
                    json: DeleteAccountRequest(password: AccountsDriver.password),
                    token: anna
                ).status
                    == .noContent
            )
            let entry = try #require(try await wallet.activity(token: ben).items.first)
            #expect(entry.counterpart.name == "Deleted user" && entry.counterpart.username == nil)
            let csv = try await client.send(.get, "/v1/activity.csv", token: ben).text
            #expect(csv.contains("Deleted user") && !csv.contains("anna") && !csv.contains("Anna"))
        }
    }
}

/// The same journeys in the pages: refused with the reason, the way out one link away.
@Suite struct NothingStrandedPagesTests {
    @Test func theAccountPageRefusesWhileMoneyIsLeftAndTheWalletPaysItOut() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            try await WalletDriver(client).fund(1_000, token: anna)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let refused = try await browser.follow(
                try await browser.submit("/account", to: "/account/delete", ["password": AccountsDriver.password])
            )
            #expect(refused.status == .ok && refused.text.contains("Your wallet still holds 10.00 USD."))
            #expect(refused.text.contains(#"href="/wallet/withdraw""#))
            let withdrawn = try await browser.submit("/wallet/withdraw", to: "/wallet/withdraw", ["amount": "10.00"])
            let page = try #require(withdrawn.headers[.location])
            #expect(withdrawn.status == .seeOther && page.hasPrefix("/wallet/activity/"))
            let said = try await browser.get(page).text
            #expect(
                said.contains("Withdrawal of $10.00 on its way")
                    || said.contains("Withdrew $10.00 to your bank account")
            )
            let history = try await WalletDriver(client).activity(token: anna).items
            _ = try await WalletDriver(client).withdrawalSettled(
                try #require(history.first { $0.kind == .withdrawal }).referenceId,
                token: anna
            )
            let deleted = try await browser.submit(
                "/account",
                to: "/account/delete",
                ["password": AccountsDriver.password]
            )
            #expect(deleted.status == .seeOther && deleted.headers[.location] == "/login?notice=deleted")
        }
    }

    @Test func anOwnerPaysTheBusinessOutAtTheCounter() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let shop = try await NothingStrandedTests.paidCharge(client, 420).shop
            let bruno = PageSession(client)
            _ = try await bruno.submit("/login", to: "/login", ["login": "bruno", "password": AccountsDriver.password])
            let counter = "/wallet/counter/\(shop.business.id.uuidString.lowercased())"
            #expect(try await bruno.get(counter).text.contains(#"id="payout-form""#))
            let tooMuch = try await bruno.follow(
                try await bruno.submit(counter, to: "\(counter)/payout", ["amount": "5.00"])
            )
            #expect(tooMuch.status == .ok && tooMuch.text.contains("Pay-out refused:"))
            let paid = try await bruno.submit(counter, to: "\(counter)/payout", ["amount": "4.20"])
            #expect(paid.status == .seeOther)
            let balance = try await client.send(
                .get,
                "/v1/businesses/\(shop.business.id)/wallet",
                token: shop.tokens.accessToken
            ).decode(Wallet.self)
            #expect(balance.balances.first?.available == 0)
        }
    }
}

/// A partial refund reads as partial wherever the charge shows.
@Suite struct PartialRefundTests {
    @Test func aPartialRefundShowsWhatWentBackAndWhatWasKept() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (shop, anna, charge) = try await NothingStrandedTests.paidCharge(client, 420)
            #expect(try await wallet.refund(charge, 100, token: shop.tokens.accessToken).status == .ok)

            let inbox = try await client.send(.get, "/v1/inbox", token: anna).decode(InboxPage.self)
            let paid = try #require(inbox.items.first { $0.kind == .chargeRequested })
            #expect(paid.title == "You paid Corner Cafe 4.20 USD; 1.00 USD came back, so it cost you 3.20 USD.")
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            // Said naturally, in the reader's money (issue 39: "1.00 USD refunded, 3.20 USD kept since").
            let inboxPage = try await browser.get("/inbox").text
            #expect(
                inboxPage.contains("You paid Corner Cafe $4.20; $1.00 came back, so it cost you $3.20."),
                "\(inboxPage)"
            )
            #expect(!inboxPage.contains("kept since"))
            let charges = try await browser.get("/wallet/charges").text
            #expect(charges.contains("Refunded $1.00 of $4.20"), "\(charges)")
            let receipt = try await browser.get("/wallet/receipts/\(charge.id.uuidString.lowercased())").text
            #expect(receipt.contains("Paid after the refund") && receipt.contains("$3.20"))
            let bruno = PageSession(client)
            _ = try await bruno.submit("/login", to: "/login", ["login": "bruno", "password": AccountsDriver.password])
            let counter = try await bruno.get("/wallet/counter/\(shop.business.id.uuidString.lowercased())").text
            #expect(counter.contains("partly refunded") && counter.contains("Refunded $1.00 of $4.20"))
        }
    }
}
