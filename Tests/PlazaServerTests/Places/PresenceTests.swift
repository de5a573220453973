import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import SQLKit
import Testing

@Suite struct PresenceTests {
    let shopPoint = Coordinate(latitude: 40.4168, longitude: -3.7038)

    @Test(arguments: TestEngine.enabled)
    func aCustomerInTheShopIsListedWithoutCoordinatesUntilTheyLeave(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let (owner, business, location) = try await places.shop(at: shopPoint)
            let anna = try await places.sharingCustomer("anna")
            let max = try await places.sharingCustomer("max")
            try await places.move(to: shopPoint.offset(north: 30), ago: 30, token: anna.accessToken)
            try await places.move(to: shopPoint.offset(north: 400), ago: 30, token: max.accessToken)

            let response = try await client.send(
                .get,
                "/v1/businesses/\(business.id)/presence",
                token: owner.accessToken
            )
            let items = try response.decode(Page<PresentCustomer>.self).items
            #expect(
                items.map(\.username) == ["anna"] && items[0].locationId == location.id
                    && items[0].displayName == "Anna"
            )
            #expect(!response.text.contains("latitude") && !response.text.contains("40.41"))
            // She renames herself: the list shows the new name at once.
            let renamed = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Anna B."),
                token: anna.accessToken
            )
            #expect(renamed.status == .ok)
            let again = try await client.send(.get, "/v1/businesses/\(business.id)/presence", token: owner.accessToken)
                .decode(
                    Page<PresentCustomer>.self
                )
            #expect(again.items.map(\.displayName) == ["Anna B."])
            // The customer cannot read the merchant's list.
            #expect(
                try await client.send(.get, "/v1/businesses/\(business.id)/presence", token: anna.accessToken).status
                    == .forbidden
            )

            // GPS jitter just past the edge keeps her in; walking away takes her out.
            try await places.move(to: shopPoint.offset(north: 110), ago: 20, token: anna.accessToken)
            #expect(try await places.present(business: business.id, token: owner.accessToken) == ["anna"])
            try await places.move(to: shopPoint.offset(north: 160), ago: 10, token: anna.accessToken)
            #expect(try await places.present(business: business.id, token: owner.accessToken) == [])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func privateZonesStoppingAndStalenessHideTheCustomer(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let (owner, business, _) = try await places.shop(at: shopPoint)
            let anna = try await places.sharingCustomer("anna")
            try await places.move(to: shopPoint, ago: 40, token: anna.accessToken)
            #expect(try await places.present(business: business.id, token: owner.accessToken) == ["anna"])

            // A zone created around where she stands hides her at once.
            let zone = try await client.send(
                .post,
                "/v1/me/private-zones",
                json: PrivateZoneRequest(
                    name: "Work",
                    latitude: shopPoint.latitude,
                    longitude: shopPoint.longitude,
                    radiusMeters: 150
                ),
                token: anna.accessToken
            ).decode(PrivateZone.self)
            #expect(try await places.present(business: business.id, token: owner.accessToken) == [])
            try await places.move(to: shopPoint.offset(east: 20), ago: 30, token: anna.accessToken)
            #expect(try await places.present(business: business.id, token: owner.accessToken) == [])

            // Without the zone she is back on her next point; turning sharing off removes her.
            #expect(
                try await client.send(.delete, "/v1/me/private-zones/\(zone.id)", token: anna.accessToken).status
                    == .noContent
            )
            try await places.move(to: shopPoint.offset(east: 10), ago: 20, token: anna.accessToken)
            #expect(try await places.present(business: business.id, token: owner.accessToken) == ["anna"])
            try await places.share(.off, token: anna.accessToken)
            #expect(try await places.present(business: business.id, token: owner.accessToken) == [])

            // A position older than ten minutes does not count.
            let bob = try await places.sharingCustomer("bob")
            try await places.move(to: shopPoint, ago: 11 * 60, token: bob.accessToken)
            #expect(try await places.present(business: business.id, token: owner.accessToken) == [])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theMapShowsNoisyDotsOnlyForMapSharersAndDecoysInsideZones(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            _ = try await places.shop(at: shopPoint)
            let mapper = try await places.sharingCustomer("anna", level: .map)
            let quiet = try await places.sharingCustomer("max", level: .merchants)
            try await places.move(to: shopPoint.offset(north: 1_000), ago: 30, token: mapper.accessToken)
            try await places.move(to: shopPoint.offset(north: 1_000), token: quiet.accessToken)
            func people() async throws -> [Coordinate] {
                let response = try await client.send(.get, "/v1/map?bbox=-3.9,40.2,-3.5,40.6")
                #expect(response.headers[.contentType] == "application/geo+json")
                let features = try response.decode(GeoJSONFeatureCollection<MapFeatureProperties>.self).features
                #expect(features.filter { $0.properties.kind == "business" }.map(\.properties.name) == ["Corner Cafe"])
                return features.filter { $0.properties.kind == "person" }.map(\.coordinate)
            }
            let dots = try await people()
            #expect(dots.count == 1)
            #expect(dots[0] != shopPoint.offset(north: 1_000))

            let home = shopPoint.offset(north: -2_000)
            _ = try await client.send(
                .post,
                "/v1/me/private-zones",
                json: PrivateZoneRequest(
                    name: "Home",
                    latitude: home.latitude,
                    longitude: home.longitude,
                    radiusMeters: 300
                ),
                token: mapper.accessToken
            )
            try await places.move(to: home, ago: 20, token: mapper.accessToken)
            let decoy = try await people()
            #expect(decoy.count == 1 && (499...2_001).contains(decoy[0].distance(to: home)))
            try await places.share(.map, zoneDisplay: .hidden, token: mapper.accessToken)
            #expect(try await people().isEmpty)
            let bad = try await client.send(.get, "/v1/map?bbox=1,2,3")
            #expect(bad.problem?.errors?.first?.field == "bbox")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theAudienceCountsSharersAroundTheShopButNeverFewerThanFive(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let (owner, business, _) = try await places.shop(at: shopPoint)
            for (index, name) in ["ann", "ben", "cid", "dan", "eve", "fay"].enumerated() {
                let tokens = try await places.sharingCustomer(name)
                try await places.move(
                    to: shopPoint.offset(north: Double(index) * 150),
                    ago: 5,
                    token: tokens.accessToken
                )
            }
            func audience(_ radius: Int) async throws -> Audience {
                try await client.send(
                    .get,
                    "/v1/businesses/\(business.id)/audience?radius=\(radius)",
                    token: owner.accessToken
                ).decode(Audience.self)
            }
            #expect(try await audience(1_000) == Audience(radiusMeters: 1_000, count: 6, enoughData: true))
            #expect(try await audience(700) == Audience(radiusMeters: 700, count: 5, enoughData: true))
            #expect(try await audience(500) == Audience(radiusMeters: 500, count: nil, enoughData: false))
            let tooFar = try await client.send(
                .get,
                "/v1/businesses/\(business.id)/audience?radius=9000",
                token: owner.accessToken
            )
            #expect(tooFar.problem?.errors?.first?.field == "radius")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func deletingTheAccountErasesItsLocationDataAndPresence(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let places = PlacesDriver(client)
            let (owner, business, _) = try await places.shop(at: shopPoint)
            let anna = try await places.sharingCustomer("anna")
            try await places.move(to: shopPoint, ago: 5, token: anna.accessToken)
            _ = try await client.send(
                .post,
                "/v1/me/private-zones",
                json: PrivateZoneRequest(name: "Home", latitude: 1, longitude: 1, radiusMeters: 300),
                token: anna.accessToken
            )
            #expect(try await places.present(business: business.id, token: owner.accessToken) == ["anna"])
            let deleted = try await client.send(
                .delete,
                "/v1/me",
                json: DeleteAccountRequest(password: AccountsDriver.password),
                token: anna.accessToken
            )
            #expect(deleted.status == .noContent)
            #expect(try await places.present(business: business.id, token: owner.accessToken) == [])
            for table in ["location_points", "live_positions", "stays", "private_zones", "location_settings"] {
                let rows = try await services.database.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()
                #expect(try rows?.decode(column: "n", as: Int.self) == 0, "\(table) still holds rows")
            }
        }
    }
}
