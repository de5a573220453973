import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaServer
import PlazaTestSupport
import SQLKit
import SQLiteKit
import Testing

/// What the maps draw on and how a place is found by its address: the operator's MBTiles served by Plaza itself,
/// and address search through the operator's geocoder, asked by Plaza on the person's behalf.
@Suite struct MapLayersTests {
    @Test func addressSearchAsksTheGeocoderForSignedInPeople() async throws {
        let geocoder = try await GeocoderStandIn.start()
        defer { Task { await geocoder.stop() } }
        try await TestPlaza.withApp(
            .sqlite,
            .live,
            configure: { $0.places.geocoderURL = URL(string: geocoder.baseURL) }
        ) { client, _ in
            _ = try await AccountsDriver(client).signedIn("anna")
            let anonymous = try await client.execute(
                uri: "/places/geocode?q=Tal",
                method: .get,
                headers: [.accept: "application/json"]
            )
            #expect(anonymous.status == .unauthorized)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let cookie = await browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let found = try await client.execute(
                uri: "/places/geocode?q=sendlinger",
                method: .get,
                headers: [.accept: "application/json", .cookie: cookie]
            )
            let page = try found.decode(Page<GeocodedResult>.self)
            #expect(page.items.map(\.label) == ["Sendlinger Straße 12, 80331 München"])
            #expect(abs(page.items[0].latitude - 48.1352) < 1e-9 && abs(page.items[0].longitude - 11.5712) < 1e-9)
            #expect(
                geocoder.requests.last?.query == "sendlinger"
                    && geocoder.requests.last?.userAgent.hasPrefix("Plaza") == true
            )
            let short = try await client.execute(
                uri: "/places/geocode?q=ab",
                method: .get,
                headers: [.accept: "application/json", .cookie: cookie]
            )
            #expect(short.status == .unprocessableContent && short.problem?.errors?.first?.field == "q")
            // The pages' maps offer the search.
            #expect(try await browser.get("/places/settings").text.contains(#"data-geocode="/places/geocode""#))
        }
    }

    @Test func withoutAGeocoderTheSearchSaysSoAndTheMapsDoNotOfferIt() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            _ = try await AccountsDriver(client).signedIn("anna")
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let cookie = await browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let refused = try await client.execute(
                uri: "/places/geocode?q=Tal",
                method: .get,
                headers: [.accept: "application/json", .cookie: cookie]
            )
            #expect(
                refused.status == .serviceUnavailable
                    && refused.problem?.title == "The address search is not available now."
            )
            #expect(try await browser.get("/places/settings").text.contains(#"data-geocode="""#))
        }
    }

    @Test func anMBTilesFileIsServedTileByTile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-\(UUID()).mbtiles").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let file = try await SQLiteConnection.open(storage: .file(path: path))
        let db = file.sql()
        try await db.raw(
            "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)"
        ).run()
        // Zoom 1, column 1, TMS row 0: the south-east tile, y = 1 counted from the north.
        try await db.insert(into: "tiles").columns("zoom_level", "tile_column", "tile_row", "tile_data")
            .values(SQLBind(1), SQLBind(1), SQLBind(0), SQLBind(png)).run()
        try await file.close()
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.places.mapTilesFile = path }) { client, _ in
            let tile = try await client.execute(uri: "/tiles/1/1/1.png", method: .get)
            #expect(tile.status == .ok && tile.headers[.contentType] == "image/png")
            #expect(Data(tile.body.readableBytesView) == png)
            #expect(try await client.execute(uri: "/tiles/1/1/0.png", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/tiles/1/9/0.png", method: .get).status == .notFound)
            #expect(
                try await client.execute(uri: "/places/map", method: .get).text.contains(
                    #"data-tiles="/tiles/{z}/{x}/{y}""#
                )
            )
        }
    }

    struct GeocodedResult: Codable, Sendable {
        var label: String
        var latitude: Double
        var longitude: Double
    }
}
