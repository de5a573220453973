import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct InboxTests {
    static func inbox(_ client: any TestClientProtocol, _ query: String = "", token: String) async throws -> InboxPage {
        let response = try await client.send(.get, "/v1/inbox\(query)", token: token)
        #expect(response.status == .ok, "inbox: \(response.text)")
        return try response.decode(InboxPage.self)
    }

    static func markSeen(
        _ client: any TestClientProtocol,
        through marker: String?,
        token: String
    ) async throws -> TestResponse {
        try await client.send(.post, "/v1/inbox/seen", json: MarkInboxSeenRequest(through: marker), token: token)
    }

    /// Bruno's shop with Anna in it (see `ChargeTests.counter`), and Carla with 10.00 USD to send.
    static func shopAndFriends(
        _ client: any TestClientProtocol
    ) async throws -> (business: Business, bruno: String, anna: String, carla: String) {
        let (business, bruno, anna) = try await ChargeTests.counter(client)
        let carla = try await AccountsDriver(client).signedIn("carla").accessToken
        try await WalletDriver(client).fund(1_000, token: carla)
        return (business, bruno, anna, carla)
    }

    @Test(arguments: TestEngine.enabled)
    func chargesAndMoneyArriveUnreadUntilSeenAndShowTheirStateNow(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (business, bruno, anna, carla) = try await Self.shopAndFriends(client)
            #expect(try await Self.inbox(client, token: anna).items.isEmpty)

            let charge = try await wallet.charge(business: business.id, customer: "anna", 950, token: bruno).decode(
                Charge.self
            )
            #expect(try await wallet.transfer(to: "anna", 200, note: "lunch", token: carla).status == .created)
            var page = try await Self.inbox(client, token: anna)
            #expect(page.items.map(\.kind) == [.moneyReceived, .chargeRequested])
            #expect(page.items.map(\.title) == ["Carla sent you 2.00 USD.", "Corner Cafe asks you to pay 9.50 USD."])
            #expect(
                page.items[0].note == "lunch" && page.items[1].status == .pending
                    && page.items[1].link == "/wallet/charges"
            )
            #expect(page.unreadCount == 2 && page.items.allSatisfy(\.unread))

            // Seen up to the newest entry shown: a transfer arriving after the page was read stays unread.
            let marker = try #require(page.seenMarker)
            #expect(try await wallet.transfer(to: "anna", 300, token: carla).status == .created)
            #expect(try await Self.markSeen(client, through: marker, token: anna).status == .noContent)
            page = try await Self.inbox(client, token: anna)
            #expect(page.unreadCount == 1 && page.items.map(\.unread) == [true, false, false])
            #expect(try await Self.markSeen(client, through: nil, token: anna).status == .noContent)
            // An older marker never moves the mark back.
            #expect(try await Self.markSeen(client, through: marker, token: anna).status == .noContent)
            #expect(try await Self.inbox(client, token: anna).unreadCount == 0)

            // The charge's entry follows the charge; the merchant hears the answer.
            #expect(try await wallet.approve(charge, token: anna).status == .ok)
            let paid = try await Self.inbox(client, token: anna).items.first { $0.kind == .chargeRequested }
            #expect(
                paid?.status == .approved && paid?.title == "You paid Corner Cafe 9.50 USD."
                    && paid?.link == "/wallet/receipts/\(charge.id.uuidString.lowercased())"
            )
            let merchant = try await Self.inbox(client, token: bruno)
            #expect(
                merchant.items.map(\.kind) == [.chargeAnswered]
                    && merchant.items.first?.title == "Anna paid 9.50 USD to Corner Cafe."
            )
            #expect(merchant.unreadCount == 1)

            // Nobody sees another's inbox, nor marks it.
            #expect(try await Self.inbox(client, token: carla).items.isEmpty)
            let refused = try await Self.markSeen(client, through: marker, token: carla)
            #expect(refused.status == .unprocessableContent && refused.problem?.errors?.map(\.field) == ["through"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func pagesWalkTheWholeInboxNewestFirstAcrossChargesAndMoney(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (business, bruno, anna, carla) = try await Self.shopAndFriends(client)
            for amount in [101, 102] as [Int64] {
                #expect(try await wallet.transfer(to: "anna", amount, token: carla).status == .created)
                #expect(
                    try await wallet.charge(business: business.id, customer: "anna", amount + 100, token: bruno).status
                        == .created
                )
            }
            #expect(try await wallet.transfer(to: "anna", 103, token: carla).status == .created)

            var amounts: [Int64] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await Self.inbox(
                    client,
                    "?limit=2"
                        + (cursor.map { "&cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
                            ?? ""),
                    token: anna
                )
                #expect(page.items.count <= 2 && (pages == 0) == (page.seenMarker != nil))
                amounts += page.items.map(\.amount)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 10
            #expect(amounts == [103, 202, 102, 201, 101])

            let bad = try await client.send(.get, "/v1/inbox?cursor=bm9wZQ", token: anna)
            #expect(bad.status == .unprocessableContent && bad.problem?.errors?.map(\.field) == ["cursor"])
            #expect(try await client.send(.get, "/v1/inbox").status == .unauthorized)
            let garbage = try await Self.markSeen(client, through: "%%%", token: anna)
            #expect(garbage.problem?.errors?.map(\.field) == ["through"])
        }
    }
}
