import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Listings on a campus: a student posts an item with a photo, fellow students find it in the feed by words, category,
/// price and seller; another campus never sees it; the seller edits, sells and removes; withdrawing from the agreement
/// hides a seller's listings.
@Suite struct ListingTests {
    static func photo(_ client: any TestClientProtocol, _ token: String) async throws -> UUID {
        try await MediaTests.upload(client, MediaTests.phoneJPEG, type: "image/jpeg", token: token).decode(
            MediaUpload.self
        ).id
    }

    static func post(
        _ client: any TestClientProtocol,
        _ token: String,
        _ request: ListingRequest
    ) async throws -> Listing {
        let response = try await client.send(.post, "/v1/market/listings", json: request, token: token)
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(Listing.self)
    }

    static func feed(_ client: any TestClientProtocol, _ token: String, _ query: String = "") async throws -> [String] {
        let response = try await client.send(.get, "/v1/market/listings\(query)", token: token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(Page<Listing>.self).items.map(\.title)
    }

    @Test(arguments: TestEngine.enabled)
    func aStudentSellsATextbookThatFellowStudentsFindAndOthersNeverSee(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let admin = try await AdminTests.admin(client, services)
            _ = try await CampusTests.campus(client, admin: admin)
            var state = CampusTests.uni
            (state.name, state.domains) = ("State College", ["state.edu"])
            _ = try await CampusTests.campus(client, admin: admin, state)
            let ana = try await CampusTests.student(client, "ana", email: "ana@isar-uni.edu")
            let ben = try await CampusTests.student(client, "ben", email: "ben@isar-uni.edu")
            let sam = try await CampusTests.student(client, "sam", email: "sam@state.edu")

            // What the brief asks of a listing, each missing piece beside its field.
            let photo = try await Self.photo(client, ana)
            let book = ListingRequest(
                title: "Calculus: Early Transcendentals",
                description: "8th edition, a few pencil notes in chapter 3.",
                price: Money(amount: 4_500, currency: "USD"),
                category: "textbooks",
                condition: .good,
                photoIds: [photo]
            )
            var bad = book
            (bad.photoIds, bad.free, bad.category) = ([], true, "boats")
            let refused = try await client.send(.post, "/v1/market/listings", json: bad, token: ana)
            #expect(Set(refused.problem?.errors?.map(\.field) ?? []) == ["price", "photoIds", "category"])
            var stolen = book
            stolen.photoIds = [try await Self.photo(client, ben)]
            #expect(
                try await client.send(.post, "/v1/market/listings", json: stolen, token: ana).problem?.errors?.map(
                    \.field
                ) == ["photoIds"]
            )

            let listed = try await Self.post(client, ana, book)
            #expect(listed.state == .active && listed.seller.username == "ana" && listed.photos.count == 1)
            let lamp = try await Self.post(
                client,
                ana,
                ListingRequest(
                    title: "Desk lamp",
                    description: "Warm light, works fine.",
                    free: true,
                    category: "dorm_supplies",
                    condition: .fair,
                    photoIds: [try await Self.photo(client, ana)]
                )
            )
            #expect(lamp.free && lamp.price == nil)
            // The photo is now anyone's to see with its address.
            #expect(try await client.send(.get, listed.photos[0].url, token: ben).status == .ok)

            // Ben finds it by words (prefixes, any case, accents folded), category, price, seller; newest first by default.
            #expect(try await Self.feed(client, ben) == ["Desk lamp", "Calculus: Early Transcendentals"])
            #expect(try await Self.feed(client, ben, "?q=CALC") == ["Calculus: Early Transcendentals"])
            #expect(
                try await Self.feed(client, ben, "?q=p%C3%A9ncil%20transcend") == ["Calculus: Early Transcendentals"]
            )
            #expect(
                try await Self.feed(client, ben, "?q=ana") == ["Desk lamp", "Calculus: Early Transcendentals"],
                "by the seller's name"
            )
            #expect(try await Self.feed(client, ben, "?q=bicycle").isEmpty)
            #expect(try await Self.feed(client, ben, "?category=dorm_supplies") == ["Desk lamp"])
            #expect(
                try await Self.feed(client, ben, "?minPrice=1000&maxPrice=5000") == ["Calculus: Early Transcendentals"]
            )
            #expect(
                try await Self.feed(client, ben, "?sort=price_desc") == [
                    "Calculus: Early Transcendentals", "Desk lamp",
                ]
            )
            #expect(try await Self.feed(client, ben, "?seller=ana&condition=fair") == ["Desk lamp"])
            let wrong = try await client.send(.get, "/v1/market/listings?sort=cheapest&minPrice=-1", token: ben)
            #expect(Set(wrong.problem?.errors?.map(\.field) ?? []) == ["sort", "minPrice"])
            // Another campus sees nothing of it.
            #expect(try await Self.feed(client, sam).isEmpty)
            #expect(try await client.send(.get, "/v1/market/listings/\(listed.id)", token: sam).status == .notFound)

            // Only the seller changes it; the index follows the change.
            #expect(
                try await client.send(
                    .patch,
                    "/v1/market/listings/\(listed.id)",
                    json: ListingChange(title: "Mine"),
                    token: ben
                ).status == .notFound
            )
            let cheaper = try await client.send(
                .patch,
                "/v1/market/listings/\(listed.id)",
                json: ListingChange(title: "Calculus workbook", price: Money(amount: 3_000, currency: "USD")),
                token: ana
            )
            #expect(try cheaper.decode(Listing.self).price == Money(amount: 3_000, currency: "USD"))
            #expect(try await Self.feed(client, ben, "?q=workbook") == ["Calculus workbook"])
            #expect(try await Self.feed(client, ben, "?q=transcendentals").isEmpty)

            // Withdrawing from the agreement hides the seller's listings from everyone else.
            #expect(try await client.send(.post, "/v1/market/agreement/unsign", token: ana).status == .ok)
            #expect(try await Self.feed(client, ben).isEmpty)
            #expect(try await client.send(.get, "/v1/market/listings/\(lamp.id)", token: ben).status == .notFound)
            #expect(
                try await client.send(
                    .post,
                    "/v1/market/agreement/sign",
                    json: AgreementSignature(version: 1),
                    token: ana
                ).status == .ok
            )
            #expect(try await Self.feed(client, ben).count == 2)

            // Sold to Ben: out of the feed, in Ana's sold listings, and final.
            let sold = try await client.send(
                .post,
                "/v1/market/listings/\(listed.id)/sold",
                json: ListingSale(buyer: "ben"),
                token: ana
            )
            #expect(try sold.decode(Listing.self).state == .sold && (try sold.decode(Listing.self).soldTo) == "ben")
            #expect(try await Self.feed(client, ben) == ["Desk lamp"])
            let late = try await client.send(
                .patch,
                "/v1/market/listings/\(listed.id)",
                json: ListingChange(title: "Again"),
                token: ana
            )
            #expect(late.status == .conflict && late.problem?.currentState == "sold")
            let strangerSale = try await client.send(
                .post,
                "/v1/market/listings/\(lamp.id)/sold",
                json: ListingSale(buyer: "sam"),
                token: ana
            )
            #expect(strangerSale.problem?.errors?.map(\.field) == ["buyer"], "Sam studies elsewhere")
            #expect(try await client.send(.delete, "/v1/market/listings/\(lamp.id)", token: ana).status == .noContent)
            #expect(try await Self.feed(client, ben).isEmpty)
            let mine = try await client.send(.get, "/v1/market/me/listings?state=sold", token: ana).decode(
                Page<Listing>.self
            )
            #expect(mine.items.map(\.title) == ["Calculus workbook"])
            #expect(
                try await client.send(.get, "/v1/market/me/listings", token: ana).decode(Page<Listing>.self).items.count
                    == 2
            )

            // Ana's profile, as students of her campus see it; nobody elsewhere does.
            let profile = try await client.send(.get, "/v1/market/users/ana", token: ben).decode(MarketProfile.self)
            #expect(profile.username == "ana" && profile.itemsSold == 1 && profile.activeListings == 0)
            #expect(try await client.send(.get, "/v1/market/users/ana", token: sam).status == .notFound)
        }
    }
}
