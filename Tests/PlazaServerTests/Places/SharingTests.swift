import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct SharingTests {
    let home = Coordinate(latitude: 52.5200, longitude: 13.4050)

    @Test(arguments: TestEngine.enabled)
    func nothingIsRecordedUntilTheUserOptsIn(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let tokens = try await AccountsDriver(client).signedIn("anna")
            let sharing = try await client.send(.get, "/v1/me/location-sharing", token: tokens.accessToken)
            #expect(try sharing.decode(LocationSharing.self).level == .off)
            let refused = try await places.move(to: home, token: tokens.accessToken)
            #expect(refused.status == .conflict && refused.problem?.code == .locationSharingOff)
            try await places.share(.merchants, token: tokens.accessToken)
            #expect(try await places.move(to: home, token: tokens.accessToken).status == .ok)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func impossiblePointsNameThePointAndStoreNothing(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let tokens = try await places.sharingCustomer("anna")
            let now = Date()
            let good = LocationPoint(latitude: 1, longitude: 1, recordedAt: now.addingTimeInterval(-60))
            let points = [
                good,
                LocationPoint(latitude: 95, longitude: 1, recordedAt: now),
                LocationPoint(latitude: 1, longitude: 1, recordedAt: now.addingTimeInterval(3_600)),
                LocationPoint(
                    latitude: 1,
                    longitude: -181,
                    accuracy: -3,
                    recordedAt: now.addingTimeInterval(-40 * 86_400)
                ),
            ]
            let response = try await places.upload(points, token: tokens.accessToken)
            #expect(response.status == .unprocessableContent)
            #expect(
                Set(response.problem?.errors?.map(\.field) ?? [])
                    == [
                        "points.1.latitude", "points.2.recordedAt", "points.3.longitude", "points.3.accuracy",
                        "points.3.recordedAt",
                    ]
            )
            let notANumber = try await client.sendRaw(
                .post,
                "/v1/me/locations",
                body: #"{"points":[{"latitude":"NaN","longitude":1,"recordedAt":"2026-11-23T00:00:00Z"}]}"#,
                token: tokens.accessToken
            )
            #expect(notANumber.problem?.errors?.first?.field == "points.0.latitude")
            let history = try await client.send(.get, "/v1/me/locations", token: tokens.accessToken)
            #expect(try history.decode(GeoJSONFeatureCollection<HistoryPointProperties>.self).features.isEmpty)
            let empty = try await places.upload([], token: tokens.accessToken)
            #expect(empty.problem?.errors?.first?.field == "points")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func offlineBatchesArriveOutOfOrderAndRepeatsAreIgnored(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let tokens = try await places.sharingCustomer("anna")
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3_600).rounded(.down))
            let points = (0..<50).map {
                LocationPoint(
                    latitude: 52.5 + Double($0) / 1_000,
                    longitude: 13.4,
                    accuracy: 8,
                    recordedAt: start.addingTimeInterval(Double($0) * 60)
                )
            }
            let first = try await places.upload(points.shuffled(), token: tokens.accessToken)
            #expect(try first.decode(LocationUploadResult.self) == LocationUploadResult(accepted: 50, duplicates: 0))
            let again = try await places.upload(
                Array(points[40...]) + [points[0], points[0]],
                token: tokens.accessToken
            )
            #expect(try again.decode(LocationUploadResult.self) == LocationUploadResult(accepted: 0, duplicates: 12))

            let export = try await client.send(.get, "/v1/me/locations", token: tokens.accessToken)
            #expect(export.headers[.contentType] == "application/geo+json")
            let features = try export.decode(GeoJSONFeatureCollection<HistoryPointProperties>.self).features
            #expect(features.count == 50 && features.map(\.properties.recordedAt) == points.map(\.recordedAt))
            #expect(features[3].geometry.coordinates == [13.4, 52.503])
            let from = ISO8601DateFormatter().string(from: start.addingTimeInterval(600))
            let to = ISO8601DateFormatter().string(from: start.addingTimeInterval(1_200))
            let window = try await client.send(
                .get,
                "/v1/me/locations?from=\(from)&to=\(to)",
                token: tokens.accessToken
            )
            #expect(try window.decode(GeoJSONFeatureCollection<HistoryPointProperties>.self).features.count == 10)

            #expect(try await client.send(.delete, "/v1/me/locations", token: tokens.accessToken).status == .noContent)
            let gone = try await client.send(.get, "/v1/me/locations", token: tokens.accessToken)
            #expect(try gone.decode(GeoJSONFeatureCollection<HistoryPointProperties>.self).features.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func pointsInsideAPrivateZoneKeepOnlyTheZone(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let tokens = try await places.sharingCustomer("anna")
            let tooSmall = try await client.send(
                .post,
                "/v1/me/private-zones",
                json: PrivateZoneRequest(
                    name: "Home",
                    latitude: home.latitude,
                    longitude: home.longitude,
                    radiusMeters: 50
                ),
                token: tokens.accessToken
            )
            #expect(tooSmall.problem?.errors?.first?.field == "radiusMeters")
            let zone = try await client.send(
                .post,
                "/v1/me/private-zones",
                json: PrivateZoneRequest(
                    name: "Home",
                    latitude: home.latitude,
                    longitude: home.longitude,
                    radiusMeters: 200
                ),
                token: tokens.accessToken
            ).decode(PrivateZone.self)
            try await places.move(to: home.offset(north: 120, east: 40), token: tokens.accessToken)
            let features = try await client.send(.get, "/v1/me/locations", token: tokens.accessToken)
                .decode(GeoJSONFeatureCollection<HistoryPointProperties>.self).features
            #expect(features.count == 1 && features[0].properties.privateZone == "Home")
            #expect(features[0].geometry.coordinates == [home.longitude, home.latitude])
            let zones = try await client.send(.get, "/v1/me/private-zones", token: tokens.accessToken).decode(
                Page<PrivateZone>.self
            )
            #expect(zones.items == [zone])
            let other = try await AccountsDriver(client).signedIn("max")
            #expect(
                try await client.send(.delete, "/v1/me/private-zones/\(zone.id)", token: other.accessToken).status
                    == .notFound
            )
            #expect(
                try await client.send(.delete, "/v1/me/private-zones/\(zone.id)", token: tokens.accessToken).status
                    == .noContent
            )
        }
    }

    @Test func pointsOlderThanTheRetentionArePurged() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.places.retention = 7_200 }) { client, services in
            let places = PlacesDriver(client)
            let tokens = try await places.sharingCustomer("anna")
            try await places.move(to: home, ago: 7_000, token: tokens.accessToken)
            try await places.move(to: home, ago: 60, token: tokens.accessToken)
            let old = try await places.move(to: home, ago: 7_300, token: tokens.accessToken)
            #expect(old.problem?.errors?.first?.field == "points.0.recordedAt")
            let purged = try await services.purgeLocations(now: Date().addingTimeInterval(600))
            #expect(purged == 1)
            let left = try await client.send(.get, "/v1/me/locations", token: tokens.accessToken)
            #expect(try left.decode(GeoJSONFeatureCollection<HistoryPointProperties>.self).features.count == 1)
        }
    }
}
