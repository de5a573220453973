import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Ratings after a handshake (blind until both rated or a week passed), reports with the admin's decision, the
/// statement of reasons and one appeal.
@Suite struct TrustTests {
    /// Ana sells the bike to Ben through an accepted offer and a confirmed handshake.
    static func sold(_ client: any TestClientProtocol, _ market: ChatTests.Market) async throws {
        let offer = try await DealTests.acceptedDeal(client, market, paid: false)
        let point = MeetupRequest(latitude: 48.1510, longitude: 11.5790, at: Date().addingTimeInterval(300))
        let meetup = try await DealTests.meetup(client, market.ben, offer.conversationId, point)
        #expect(try await DealTests.act(client, market.ana, "meetups/\(meetup.id)/accept").status == .ok)
        let handshake = try await DealTests.act(client, market.ana, "meetups/\(meetup.id)/handshake").decode(
            Handshake.self
        )
        let done = try await DealTests.act(
            client,
            market.ben,
            "meetups/\(meetup.id)/handshake/confirm",
            json: HandshakeConfirmation(code: handshake.code)
        )
        #expect(done.status == .ok, "\(done.text)")
    }

    static func rate(
        _ client: any TestClientProtocol,
        _ token: String,
        _ listing: UUID,
        _ stars: Int,
        _ comment: String? = nil
    ) async throws
        -> TestResponse
    {
        try await client.send(
            .post,
            "/v1/market/listings/\(listing)/rating",
            json: RatingRequest(stars: stars, comment: comment),
            token: token
        )
    }

    static func profile(
        _ client: any TestClientProtocol,
        _ token: String,
        _ username: String
    ) async throws -> MarketProfile {
        try await client.send(.get, "/v1/market/users/\(username)", token: token).decode(MarketProfile.self)
    }

    @Test(arguments: TestEngine.enabled)
    func ratingsStayHiddenUntilBothSidesRatedOrAWeekPassed(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let bike = market.listing.id
            // No rating before a handshake.
            #expect(try await Self.rate(client, market.ana, bike, 5).problem?.code == .stateConflict)
            try await Self.sold(client, market)

            // Cal was not part of it; stars out of range are named.
            #expect(try await Self.rate(client, market.cal, bike, 5).status == .notFound)
            #expect(try await Self.rate(client, market.ben, bike, 6).problem?.errors?.map(\.field) == ["stars"])
            let given = try await Self.rate(client, market.ben, bike, 5, "Exactly as described.")
            #expect(given.status == .created, "\(given.text)")
            #expect(try given.decode(MarketRating.self).role == .buyer)
            #expect(try await Self.rate(client, market.ben, bike, 4).problem?.code == .stateConflict, "once")

            // Ana cannot read Ben's rating yet, and her profile does not count it.
            var ana = try await client.send(.get, "/v1/market/listings/\(bike)/rating", token: market.ana).decode(
                DealRatings.self
            )
            #expect(ana.canRate && ana.theirs == nil && ana.theirsWaiting)
            #expect(try await Self.profile(client, market.cal, "ana").rating == RatingSummary(average: nil, count: 0))
            // A week later it would show by itself.
            let weekLater = try await services.market.trust.summary(
                of: try #require(try await AccountStore().user(login: "ana", on: services.database.sql)).id,
                now: Date().addingTimeInterval(RatingRules.blindPeriod + 60),
                on: services.database.sql
            )
            #expect(weekLater == RatingSummary(average: 5, count: 1))

            // Ana rates too: both show at once, on both profiles.
            #expect(try await Self.rate(client, market.ana, bike, 4, "Quick to answer.").status == .created)
            ana = try await client.send(.get, "/v1/market/listings/\(bike)/rating", token: market.ana).decode(
                DealRatings.self
            )
            #expect(
                !ana.canRate && ana.theirs?.stars == 5 && ana.theirs?.comment == "Exactly as described."
                    && ana.mine?.stars == 4
            )
            #expect(try await Self.profile(client, market.cal, "ana").rating == RatingSummary(average: 5, count: 1))
            #expect(try await Self.profile(client, market.cal, "ben").rating == RatingSummary(average: 4, count: 1))
            let list = try await client.send(.get, "/v1/market/users/ana/ratings", token: market.cal).decode(
                Page<MarketRating>.self
            )
            #expect(list.items.map(\.rater.username) == ["ben"] && list.items.first?.listingTitle == "City bike")
        }
    }

    static func queue(
        _ client: any TestClientProtocol,
        _ admin: String,
        _ kind: ReviewKind
    ) async throws -> [ReviewItem] {
        try await client.send(.get, "/v1/admin/review-queue?kind=\(kind.rawValue)", token: admin).decode(
            Page<ReviewItem>.self
        ).items
    }

    static func approve(
        _ client: any TestClientProtocol,
        _ admin: String,
        _ item: ReviewItem,
        _ body: ReviewApproval
    ) async throws -> TestResponse {
        try await client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", json: body, token: admin)
    }

    @Test(arguments: TestEngine.enabled)
    func aReportedListingIsRemovedWithAStatementOfReasonsAndOneAppealPutsItBack(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let admin = try await AdminTests.admin(client, services)
            let bike = market.listing.id

            // Cal reports Ana's bike as a scam and blocks her in the same step.
            let asked = ReportRequest(
                listingId: bike,
                reason: .scam,
                details: "Same photo as a bike stolen last week.",
                block: true
            )
            let filed = try await client.send(.post, "/v1/market/reports", json: asked, token: market.cal)
            #expect(filed.status == .created, "\(filed.text)")
            let report = try filed.decode(MarketReport.self)
            #expect(report.state == .open && report.reported == "ana" && report.blocked)
            #expect(
                try await client.send(.get, "/v1/market/listings/\(bike)", token: market.cal).status == .notFound,
                "blocked: gone for Cal"
            )
            let both = ReportRequest(listingId: bike, username: "ana", reason: .spam)
            #expect(
                try await client.send(.post, "/v1/market/reports", json: both, token: market.ben).problem?.code
                    == .validationFailed
            )
            let myself = ReportRequest(username: "ben", reason: .spam)
            #expect(
                try await client.send(.post, "/v1/market/reports", json: myself, token: market.ben).problem?.errors?
                    .map(\.field) == ["username"]
            )

            // The admin sees the report with what was reported, and must choose an action and give reasons.
            let item = try #require(try await Self.queue(client, admin, .report).first)
            #expect(
                item.subjectId == report.id && item.subject.contains("City bike")
                    && item.actions == [.removeListing, .warn, .suspend]
            )
            #expect(item.findings.first?.contains("Same photo as a bike stolen") == true)
            #expect(
                try await Self.approve(client, admin, item, ReviewApproval(reason: "Stolen goods")).problem?.errors?
                    .map(\.field) == ["action"]
            )
            #expect(
                try await Self.approve(client, admin, item, ReviewApproval(action: .removeListing)).problem?.errors?
                    .map(\.field) == ["reason"]
            )
            let statement = "The photo is of a bike reported stolen; stolen goods are not allowed."
            let decided = try await Self.approve(
                client,
                admin,
                item,
                ReviewApproval(reason: statement, action: .removeListing)
            )
            #expect(decided.status == .ok, "\(decided.text)")
            #expect(try decided.decode(ReviewItem.self).action == .removeListing)

            // The bike is gone; Ana reads the statement and may appeal once.
            #expect(try await client.send(.get, "/v1/market/listings/\(bike)", token: market.ben).status == .notFound)
            let decisions = try await client.send(.get, "/v1/market/me/decisions", token: market.ana).decode(
                Page<ModerationDecision>.self
            ).items
            #expect(
                decisions.count == 1 && decisions[0].statement == statement && decisions[0].canAppeal
                    && decisions[0].listingTitle == "City bike"
            )
            let appeal = AppealRequest(text: "It is my own bike: here is the receipt number 4411.")
            let appealed = try await client.send(
                .post,
                "/v1/market/me/decisions/\(report.id)/appeal",
                json: appeal,
                token: market.ana
            )
            #expect(appealed.status == .created, "\(appealed.text)")
            #expect(try appealed.decode(ModerationDecision.self).appeal?.state == .open)
            #expect(
                try await client.send(
                    .post,
                    "/v1/market/me/decisions/\(report.id)/appeal",
                    json: appeal,
                    token: market.ana
                ).status == .conflict
            )
            #expect(
                try await client.send(
                    .post,
                    "/v1/market/me/decisions/\(report.id)/appeal",
                    json: appeal,
                    token: market.ben
                ).status == .notFound
            )

            // The admin grants it: the bike is back, and Ana reads why.
            let appealItem = try #require(try await Self.queue(client, admin, .appeal).first)
            #expect(
                appealItem.actions == [.restoreListing]
                    && appealItem.findings.first?.contains("receipt number 4411") == true
            )
            let granted = try await Self.approve(
                client,
                admin,
                appealItem,
                ReviewApproval(reason: "The receipt matches: the bike is hers.", action: .restoreListing)
            )
            #expect(granted.status == .ok, "\(granted.text)")
            #expect(try await DealTests.listingState(client, market.ben, bike) == .active)
            let after = try await client.send(.get, "/v1/market/me/decisions", token: market.ana).decode(
                Page<ModerationDecision>.self
            ).items
            #expect(
                after.first?.appeal?.state == .granted
                    && after.first?.appeal?.reason == "The receipt matches: the bike is hers."
                    && after.first?.canAppeal == false
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aSuspendedHarasserLeavesTheMarketplaceButCanAppeal(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let admin = try await AdminTests.admin(client, services)
            let lamp = ListingRequest(
                title: "Desk lamp",
                description: "Warm light.",
                price: Money(amount: 1_500, currency: "USD"),
                category: "dorm_supplies",
                condition: .good,
                photoIds: [try await ListingTests.photo(client, market.ben)]
            )
            _ = try await ListingTests.post(client, market.ben, lamp)
            let conversation = try await client.send(
                .post,
                "/v1/market/conversations",
                json: ConversationStart(listingId: market.listing.id),
                token: market.ben
            ).decode(Conversation.self)
            _ = try await ChatTests.say(client, market.ben, conversation.id, "Answer me now or I will find you.")
            // Ana reports the conversation: the admin reads its messages as context.
            let filed = try await client.send(
                .post,
                "/v1/market/reports",
                json: ReportRequest(conversationId: conversation.id, reason: .harassment),
                token: market.ana
            )
            let report = try filed.decode(MarketReport.self)
            #expect(report.reported == "ben")
            let item = try #require(try await Self.queue(client, admin, .report).first)
            #expect(
                item.actions == [.warn, .suspend] && item.findings.contains("@ben: Answer me now or I will find you.")
            )
            let decided = try await Self.approve(
                client,
                admin,
                item,
                ReviewApproval(reason: "Threats in chat.", action: .suspend)
            )
            #expect(decided.status == .ok, "\(decided.text)")

            // Ben is out of the marketplace, not out of Plaza: his lamp leaves the feed, he can neither write nor sell.
            #expect(try await client.send(.get, "/v1/me", token: market.ben).status == .ok)
            #expect(try await ListingTests.feed(client, market.cal) == ["City bike"])
            let message = MessageRequest(text: "Sorry.")
            let refused = try await client.send(
                .post,
                "/v1/market/conversations/\(conversation.id)/messages",
                json: message,
                token: market.ben
            )
            #expect(refused.status == .forbidden && refused.problem?.code == .marketSuspended)
            #expect(
                try await client.send(.get, "/v1/market/listings", token: market.ben).problem?.code == .marketSuspended
            )
            let decisions = try await client.send(.get, "/v1/market/me/decisions", token: market.ben).decode(
                Page<ModerationDecision>.self
            )
            #expect(
                decisions.items.map(\.action) == [.suspend] && decisions.items.first?.statement == "Threats in chat."
            )

            // He appeals once; the admin lifts the suspension and the lamp is back.
            let appeal = AppealRequest(text: "I was angry and I am sorry; it will not happen again.")
            #expect(
                try await client.send(
                    .post,
                    "/v1/market/me/decisions/\(report.id)/appeal",
                    json: appeal,
                    token: market.ben
                ).status == .created
            )
            let appealItem = try #require(try await Self.queue(client, admin, .appeal).first)
            #expect(appealItem.actions == [.reinstate])
            let lifted = try await Self.approve(
                client,
                admin,
                appealItem,
                ReviewApproval(reason: "A first time; apology accepted.", action: .reinstate)
            )
            #expect(lifted.status == .ok, "\(lifted.text)")
            #expect(Set(try await ListingTests.feed(client, market.cal)) == ["City bike", "Desk lamp"])
            #expect(
                try await client.send(
                    .post,
                    "/v1/market/conversations/\(conversation.id)/messages",
                    json: message,
                    token: market.ben
                ).status
                    == .created
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aStudentsBioAndPhotoShowOnTheirProfile(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let photo = try await ListingTests.photo(client, market.ana)
            let long = MarketProfileChange(bio: String(repeating: "a", count: 301))
            #expect(
                try await client.send(.patch, "/v1/market/me/profile", json: long, token: market.ana).problem?.errors?
                    .map(\.field) == ["bio"]
            )
            let change = MarketProfileChange(bio: "  Physics, third year. Usually at the library.  ", photoId: photo)
            let changed = try await client.send(.patch, "/v1/market/me/profile", json: change, token: market.ana)
            #expect(changed.status == .ok, "\(changed.text)")
            let seen = try await Self.profile(client, market.ben, "ana")
            #expect(seen.bio == "Physics, third year. Usually at the library." && seen.photo?.id == photo)
            #expect(
                try await client.send(.get, try #require(seen.photo?.thumbnailUrl), token: market.ben).status == .ok
            )
            // Taking the photo away: it is no one's to fetch any more.
            _ = try await client.send(
                .patch,
                "/v1/market/me/profile",
                json: MarketProfileChange(removePhoto: true),
                token: market.ana
            )
            #expect(try await Self.profile(client, market.ben, "ana").photo == nil)
            #expect(try await client.send(.get, "/media/\(photo)", token: market.ben).status == .notFound)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func studentsFindEachOtherByNameButNeverAcrossABlock(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let bella = try await CampusTests.student(client, "bella", email: "bella@isar-uni.edu")
            _ = try await AccountsDriver(client).signedIn("benno")  // not a student: never found
            let search = { (token: String, q: String) in
                try await client.send(.get, "/v1/market/users?q=\(q)", token: token).decode(Page<MarketProfile>.self)
                    .items.map(\.username)
            }
            // "be" finds Ben and Bella (names in order); "@ben" puts the exact username first.
            #expect(try await search(market.cal, "be") == ["bella", "ben"])
            #expect(try await search(market.cal, "%40ben").first == "ben")
            #expect(try await search(market.cal, "an") == ["ana"])
            #expect(
                try await client.send(.get, "/v1/market/users?q=b", token: market.cal).problem?.errors?.map(\.field)
                    == ["q"]
            )
            // A block hides each from the other's search.
            #expect(try await client.send(.put, "/v1/market/blocks/bella", token: market.ben).status == .ok)
            #expect(try await search(market.ben, "be") == ["ben"])
            #expect(try await search(bella, "be") == ["bella"])
            // The feed's search shows the people it finds above the listings.
            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "cal", "password": AccountsDriver.password])
            let feed = try await page.get("/market?q=bella").text
            #expect(feed.contains("data-people") && feed.contains(#"href="/market/users/bella""#), "\(feed)")
        }
    }
}
