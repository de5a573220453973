import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct BusinessTests {
    let square = Coordinate(latitude: 52.5200, longitude: 13.4050)

    @Test(arguments: TestEngine.enabled)
    func merchantsCreateBusinessesWithCheckedLocations(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let customer = try await AccountsDriver(client).signedIn("anna")
            let refused = try await client.send(
                .post,
                "/v1/businesses",
                json: CreateBusinessRequest(name: "Nope", category: .cafe),
                token: customer.accessToken
            )
            #expect(refused.status == .forbidden)

            let (tokens, business, location) = try await places.shop(at: square)
            #expect(business.role == .owner && location.radiusMeters == 100)
            let bad = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/locations",
                json: LocationRequest(
                    name: "",
                    address: "x",
                    latitude: 91,
                    longitude: 13,
                    radiusMeters: 600,
                    openingHours: [OpeningPeriod(day: 8, opens: "9:00", closes: "18:00")]
                ),
                token: tokens.accessToken
            )
            #expect(bad.status == .unprocessableContent)
            #expect(
                Set(bad.problem?.errors?.map(\.field) ?? [])
                    == ["name", "latitude", "radiusMeters", "openingHours.0.day", "openingHours.0.opens"]
            )

            let shown = try await client.send(.get, "/v1/businesses/\(business.id)")
            let public_ = try shown.decode(Business.self)
            #expect(public_.locations == [location] && public_.role == nil)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func staffActForTheBusinessButOnlyOwnersChangeIt(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let (owner, business, _) = try await places.shop(at: square)
            let staff = try await AccountsDriver(client).signedIn("carla", role: .merchant)
            let stranger = try await AccountsDriver(client).signedIn("dora", role: .merchant)
            let linked = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/members",
                json: AddMemberRequest(username: "Carla", role: .staff),
                token: owner.accessToken
            )
            #expect(try linked.decode(BusinessMember.self).role == .staff)

            #expect(
                try await client.send(.get, "/v1/businesses/\(business.id)/presence", token: staff.accessToken).status
                    == .ok
            )
            #expect(
                try await client.send(.get, "/v1/businesses/\(business.id)/presence", token: stranger.accessToken)
                    .status == .forbidden
            )
            let rename = try await client.send(
                .patch,
                "/v1/businesses/\(business.id)",
                json: UpdateBusinessRequest(name: "Mine now"),
                token: staff.accessToken
            )
            #expect(rename.status == .forbidden)
            let demoteLast = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/members",
                json: AddMemberRequest(username: "bruno", role: .staff),
                token: owner.accessToken
            )
            #expect(demoteLast.status == .conflict)
            let mine = try await client.send(.get, "/v1/me/businesses", token: staff.accessToken)
            #expect(try mine.decode(Page<Business>.self).items.map(\.role) == [.staff])
            let removed = try await client.send(
                .delete,
                "/v1/businesses/\(business.id)/members/carla",
                token: owner.accessToken
            )
            #expect(removed.status == .noContent)
            #expect(
                try await client.send(.get, "/v1/businesses/\(business.id)/presence", token: staff.accessToken).status
                    == .forbidden
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func searchFindsByNameAndCategoryPageByPage(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let owner = try await AccountsDriver(client).signedIn("bruno", role: .merchant)
            for (name, category) in [
                ("Cafe Alba", BusinessCategory.cafe), ("cafe Berta", .cafe), ("Café 100%", .cafe),
                ("Books & Cafe", .retail), ("Deli", .grocery),
            ] {
                _ = try await places.createBusiness(name: name, category: category, token: owner.accessToken)
            }
            let first = try await client.send(.get, "/v1/businesses?q=CAFE&category=cafe&limit=1").decode(
                Page<BusinessSummary>.self
            )
            #expect(first.items.map(\.name) == ["Cafe Alba"])
            let second = try await client.send(
                .get,
                "/v1/businesses?q=CAFE&category=cafe&limit=1&cursor=\(first.nextCursor ?? "")"
            )
            .decode(Page<BusinessSummary>.self)
            #expect(second.items.map(\.name) == ["cafe Berta"])
            // Accents fold: "CAFE" finds "Café" too, last by name.
            let third = try await client.send(
                .get,
                "/v1/businesses?q=CAFE&category=cafe&limit=1&cursor=\(second.nextCursor ?? "")"
            )
            .decode(Page<BusinessSummary>.self)
            #expect(third.items.map(\.name) == ["Café 100%"] && third.nextCursor == nil)
            let percent = try await client.send(.get, "/v1/businesses?q=100%25").decode(Page<BusinessSummary>.self)
            #expect(percent.items.map(\.name) == ["Café 100%"])
            let bad = try await client.send(.get, "/v1/businesses?category=bakery")
            #expect(bad.problem?.errors?.first?.field == "category")
            let empty = try await client.send(.get, "/v1/businesses?category=")
            #expect(empty.problem?.errors?.first?.field == "category")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func searchFoldsAccentsAndReadsDescriptions(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let owner = try await AccountsDriver(client).signedIn("bruno", role: .merchant)
            for (name, description) in [
                ("Corner Café", "Espresso bar"), ("Bruno's Bakery", "Bread, Pretzels and coffee"),
                ("Große Straße Shop", "Hardware"),
            ] {
                let made = try await client.send(
                    .post,
                    "/v1/businesses",
                    json: CreateBusinessRequest(name: name, category: .retail, description: description),
                    token: owner.accessToken
                )
                #expect(made.status == .created)
            }
            func names(_ q: String) async throws -> [String] {
                let query = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                return try await client.send(.get, "/v1/businesses?q=\(query)").decode(Page<BusinessSummary>.self).items
                    .map(\.name)
            }
            #expect(try await names("corner cafe") == ["Corner Café"])
            #expect(try await names("CAFÉ") == ["Corner Café"])
            #expect(try await names("pretzel") == ["Bruno's Bakery"])
            #expect(try await names("coffee") == ["Bruno's Bakery"])
            #expect(try await names("strasse") == ["Große Straße Shop"])
            #expect(try await names("gross") == ["Große Straße Shop"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func nearbyIsSortedByDistanceWithTheNearestLocation(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let (owner, chain, _) = try await places.shop(name: "Chain", at: square.offset(north: 900))
            let near = try await places.addLocation(
                business: chain.id,
                name: "Near branch",
                at: square.offset(east: 150),
                token: owner.accessToken
            )
            let kiosk = try await places.createBusiness(name: "Kiosk", category: .retail, token: owner.accessToken)
            _ = try await places.addLocation(business: kiosk.id, at: square.offset(north: 60), token: owner.accessToken)
            let far = try await places.createBusiness(name: "Far away", token: owner.accessToken)
            _ = try await places.addLocation(
                business: far.id,
                at: square.offset(north: 3_000),
                token: owner.accessToken
            )

            let page = try await client.send(
                .get,
                "/v1/nearby/businesses?latitude=\(square.latitude)&longitude=\(square.longitude)"
            )
            .decode(Page<BusinessSummary>.self)
            #expect(page.items.map(\.name) == ["Kiosk", "Chain"])
            #expect(page.items[1].location?.id == near.id && abs((page.items[1].distanceMeters ?? 0) - 150) < 1)
            let wide = try await client.send(
                .get,
                "/v1/nearby/businesses?latitude=\(square.latitude)&longitude=\(square.longitude)&radius=5000&limit=2"
            )
            .decode(Page<BusinessSummary>.self)
            let rest = try await client.send(
                .get,
                "/v1/nearby/businesses?latitude=\(square.latitude)&longitude=\(square.longitude)&radius=5000&limit=2&cursor=\(wide.nextCursor ?? "")"
            )
            .decode(Page<BusinessSummary>.self)
            #expect(wide.items.map(\.name) + rest.items.map(\.name) == ["Kiosk", "Chain", "Far away"])
            let bad = try await client.send(.get, "/v1/nearby/businesses?latitude=95&longitude=abc&radius=6000")
            #expect(Set(bad.problem?.errors?.map(\.field) ?? []) == ["latitude", "longitude"])
            let tooWide = try await client.send(.get, "/v1/nearby/businesses?latitude=1&longitude=1&radius=6000")
            #expect(tooWide.problem?.errors?.first?.field == "radius")
        }
    }
}
