import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaClient
import PlazaCore
import PlazaTestSupport
import Testing

/// Joining the campus marketplace from an app: pick the campus, prove the university address with the mailed code,
/// sign the agreement; each missing step is a problem code the app can branch on.
@Suite struct MarketClientTests {
    /// 8×6 pixels, with a text chunk that must not survive the upload (Pillow made it).
    static let png =
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAAFXRFWHRDb21tZW50AHRha2VuIGF0IGhvbWV2YxoJAAAAFElEQVR4nGPkqjjBgA0wYRWlkwQAwiQBVt3eaM8AAAAASUVORK5CYII="

    @Test(arguments: TestEngine.enabled)
    func aStudentJoinsTheirCampusThroughTheSDK(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { _, anna, accounts in
            let admin = try await accounts.login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
            let uni = CampusRequest(
                name: "Isar University",
                domains: ["*.isar-uni.edu"],
                center: Coordinate(latitude: 48.15, longitude: 11.58)
            )
            let created = try await accounts.client.send(.post, "/v1/admin/campuses", json: uni, token: admin)
            let campus = try created.decode(Campus.self)
            #expect(try await anna.campuses().map(\.id) == [campus.id])
            #expect(try await anna.myCampus() == nil)
            await #expect(throws: PlazaClientError.self) { try await anna.marketCategories() }
            do {
                _ = try await anna.safeSpots()
                Issue.record("not a student yet: refused")
            } catch let error as PlazaClientError {
                #expect(error.code == .campusRequired)
            }

            try await anna.startCampusEmail("anna@isar-uni.edu")
            let code = try await accounts.latestCode(for: "anna@isar-uni.edu")
            let membership = try await anna.verifyCampusEmail("anna@isar-uni.edu", code: code)
            #expect(membership.campus.id == campus.id && membership.verifiedUntil > Date())
            #expect(try await anna.myCampus() == membership)
            do {
                _ = try await anna.marketCategories()
                Issue.record("unsigned: refused")
            } catch let error as PlazaClientError {
                #expect(error.code == .agreementRequired)
            }
            let agreement = try await anna.marketAgreement()
            #expect(try await anna.signMarketAgreement(version: agreement.version).isSigned)
            #expect(try await anna.marketCategories().contains { $0.slug == "textbooks" })
            #expect(try await anna.safeSpots().isEmpty)
            // A picture for a listing: its text chunks are gone when it comes back.
            let png = Data(base64Encoded: Self.png)!
            let upload = try await anna.uploadPicture(png, contentType: "image/png")
            #expect(upload.width == 8 && upload.height == 6 && upload.contentType == "image/png")
            let stored = try await anna.picture(upload.url)
            #expect(
                stored.starts(with: [0x89, 0x50, 0x4E, 0x47])
                    && !String(decoding: stored, as: UTF8.self).contains("taken at home")
            )
            // A listing with it, found in the feed by a word, then sold elsewhere.
            let lamp = try await anna.createListing(
                ListingRequest(
                    title: "Desk lamp",
                    description: "Warm light.",
                    price: Money(amount: 800, currency: "USD"),
                    category: "dorm_supplies",
                    condition: .good,
                    photoIds: [upload.id]
                )
            )
            #expect(try await anna.listings(ListingQuery(text: "lamp")).items.map(\.id) == [lamp.id])
            #expect(try await anna.changeListing(lamp.id, ListingChange(free: true)).free)
            #expect(try await anna.markSold(lamp.id).state == .sold)
            #expect(try await anna.myListings(state: .sold).items.map(\.id) == [lamp.id])
            #expect(try await anna.listings().items.isEmpty)
            do {
                _ = try await anna.uploadPicture(Data("GIF89a".utf8) + Data(count: 32), contentType: "image/gif")
                Issue.record("a GIF is refused")
            } catch let error as PlazaClientError {
                #expect(error.code == .unsupportedMediaType)
            }
            #expect(try await anna.unsignMarketAgreement().signedVersion == nil)
        }
    }

    /// Joins Isar University through the SDK (the code from the test mailbox) and signs the agreement.
    static func join(_ client: PlazaClient, _ name: String, _ accounts: AccountsDriver) async throws {
        try await client.startCampusEmail("\(name)@isar-uni.edu")
        _ = try await client.verifyCampusEmail(
            "\(name)@isar-uni.edu",
            code: try await accounts.latestCode(for: "\(name)@isar-uni.edu")
        )
        _ = try await client.signMarketAgreement(version: try await client.marketAgreement().version)
    }

    @Test(arguments: TestEngine.enabled)
    func aMessageReachesTheSellersPhoneLive(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { bruno, anna, accounts in
            let admin = try await accounts.login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
            let uni = CampusRequest(
                name: "Isar University",
                domains: ["isar-uni.edu"],
                center: Coordinate(latitude: 48.15, longitude: 11.58)
            )
            #expect(
                try await accounts.client.send(.post, "/v1/admin/campuses", json: uni, token: admin).status == .created
            )
            try await Self.join(anna, "anna", accounts)
            try await Self.join(bruno, "bruno", accounts)
            let photo = try await anna.uploadPicture(Data(base64Encoded: Self.png)!, contentType: "image/png")
            let chair = try await anna.createListing(
                ListingRequest(
                    title: "Chair",
                    description: "Sturdy.",
                    free: true,
                    category: "furniture",
                    condition: .fair,
                    photoIds: [photo.id]
                )
            )

            var events = anna.events().makeAsyncIterator()
            #expect(try await events.next()?.type == PlazaEventType.ready)
            let conversation = try await bruno.startConversation(listing: chair.id)
            let sent = try await bruno.sendMessage("Can I pick it up today?", conversation: conversation.id)
            var received: ChatMessage?
            for _ in 0..<5 where received == nil {
                guard let event = try await events.next() else { break }
                if event.type == MarketEventType.message { received = try event.payload(as: ChatMessage.self) }
            }
            #expect(received == sent && received?.sender == "bruno")
            #expect(try await anna.conversations().items.first?.unread == 1)
            try await anna.markRead(conversation: conversation.id)
            #expect(try await anna.conversations().items.first?.unread == 0)
            #expect(
                try await anna.messages(conversation: conversation.id).items.map(\.text) == ["Can I pick it up today?"]
            )
            // Anna blocks Bruno: his message is refused, her chair is gone from his feed.
            #expect(try await anna.block("bruno").username == "bruno")
            do {
                _ = try await bruno.sendMessage("Hello?", conversation: conversation.id)
                Issue.record("blocked: refused")
            } catch let error as PlazaClientError {
                #expect(error.code == .blocked)
            }
            #expect(try await bruno.listings().items.isEmpty)
            try await anna.unblock("bruno")
            #expect(try await anna.blocks().isEmpty)
            try await bruno.deleteConversation(conversation.id)
            #expect(try await bruno.conversations().items.isEmpty)
        }
    }

    /// A whole sale from two phones: an offer and a counter, the buyer's money held, a meetup at a point, the seller's
    /// QR scanned; the seller hears each step live.
    @Test(arguments: TestEngine.enabled)
    func aSaleGoesFromOfferToHandshakeThroughTheSDK(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { bruno, anna, accounts in
            let admin = try await accounts.login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
            let uni = CampusRequest(
                name: "Isar University",
                domains: ["isar-uni.edu"],
                center: Coordinate(latitude: 48.15, longitude: 11.58)
            )
            #expect(
                try await accounts.client.send(.post, "/v1/admin/campuses", json: uni, token: admin).status == .created
            )
            try await Self.join(anna, "anna", accounts)
            try await Self.join(bruno, "bruno", accounts)
            let photo = try await anna.uploadPicture(Data(base64Encoded: Self.png)!, contentType: "image/png")
            let desk = try await anna.createListing(
                ListingRequest(
                    title: "Desk",
                    description: "Pine.",
                    price: Money(amount: 4_000, currency: "USD"),
                    category: "furniture",
                    condition: .good,
                    photoIds: [photo.id]
                )
            )
            let card = CardDetails(number: "4242424242424242", expMonth: 1, expYear: 2035, cvc: "999")
            var topUp = try await bruno.topUp(TopUpRequest(amount: 5_000, currency: "USD", card: card))
            for _ in 0..<250 where topUp.status == .pending {
                try await Task.sleep(for: .milliseconds(20))
                topUp = try await bruno.topUp(topUp.id)
            }

            var events = anna.events().makeAsyncIterator()
            #expect(try await events.next()?.type == PlazaEventType.ready)
            let offer = try await bruno.offerPrice(3_000, listing: desk.id)
            var heard: DealUpdate?
            for _ in 0..<5 where heard == nil {
                guard let event = try await events.next() else { break }
                if event.type == MarketEventType.deal { heard = try event.payload(as: DealUpdate.self) }
            }
            #expect(heard?.offer?.id == offer.id && heard?.summary.hasSuffix(" offered $30.00 for Desk") == true)
            #expect(try await anna.counterPriceOffer(offer.id, amount: 3_500).state == .countered)
            #expect(try await bruno.acceptPriceOffer(offer.id).state == .accepted)
            #expect(try await bruno.payPriceOffer(offer.id).state == .held)
            #expect(try await bruno.wallet().balances.first?.available == 1_500)

            let meetup = try await bruno.proposeMeetup(
                MeetupRequest(latitude: 48.151, longitude: 11.581, at: Date().addingTimeInterval(900)),
                conversation: offer.conversationId
            )
            #expect(try await anna.acceptMeetup(meetup.id).state == .accepted)
            let handshake = try await anna.showHandshake(meetup: meetup.id)
            let result = try await bruno.confirmHandshake(meetup: meetup.id, token: handshake.token)
            #expect(result.listing.state == .sold && result.payment?.state == .released)
            #expect(try await anna.wallet().balances.first?.available == 3_500)
            let deal = try await anna.deal(conversation: offer.conversationId)
            #expect(deal.offers.map(\.state) == [.completed] && deal.meetups.map(\.state) == [.completed])
        }
    }

    /// Follows, the wish list, saved searches, a rating and a report, from an app.
    @Test(arguments: TestEngine.enabled)
    func aStudentFollowsSavesSearchesAndReportsThroughTheSDK(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { bruno, anna, accounts in
            let admin = try await accounts.login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
            let uni = CampusRequest(
                name: "Isar University",
                domains: ["isar-uni.edu"],
                center: Coordinate(latitude: 48.15, longitude: 11.58)
            )
            #expect(
                try await accounts.client.send(.post, "/v1/admin/campuses", json: uni, token: admin).status == .created
            )
            try await Self.join(anna, "anna", accounts)
            try await Self.join(bruno, "bruno", accounts)
            #expect(try await bruno.follow("anna").username == "anna")
            #expect(try await bruno.follows().map(\.username) == ["anna"])
            let search = try await bruno.saveSearch(SavedSearchRequest(q: "desk", alert: .daily))
            #expect(try await bruno.savedSearches().map(\.id) == [search.id])
            let photo = try await anna.uploadPicture(Data(base64Encoded: Self.png)!, contentType: "image/png")
            let desk = try await anna.createListing(
                ListingRequest(
                    title: "Desk",
                    description: "Pine.",
                    price: Money(amount: 4_000, currency: "USD"),
                    category: "furniture",
                    condition: .good,
                    photoIds: [photo.id]
                )
            )
            #expect(try await bruno.saveListing(desk.id).listing.id == desk.id)
            #expect(try await bruno.wishList().map(\.listing.id) == [desk.id])
            try await bruno.unsaveListing(desk.id)
            try await bruno.deleteSavedSearch(search.id)
            try await bruno.unfollow("anna")
            #expect(try await bruno.follows().isEmpty)
            #expect(try await bruno.savedSearches().isEmpty)
            let report = try await bruno.report(ReportRequest(listingId: desk.id, reason: .spam))
            #expect(report.state == .open && report.reported == "anna")
            #expect(try await anna.moderationDecisions().isEmpty)
            #expect(try await anna.marketProfile("bruno").rating.count == 0)
            #expect(try await anna.searchStudents("bru").map(\.username) == ["bruno"])
        }
    }
}
