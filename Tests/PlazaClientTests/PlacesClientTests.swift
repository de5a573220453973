import Foundation
import HummingbirdTesting
import PlazaClient
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// The places SDK against a real Plaza on loopback: a merchant and a customer, each with their own client.
@Suite struct PlacesClientTests {
    let shopPoint = Coordinate(latitude: 45.4642, longitude: 9.1900)

    static func withClients(
        _ engine: TestEngine = .sqlite,
        configure: (inout PlazaConfiguration) -> Void = { _ in },
        _ body:
            @escaping @Sendable (_ merchant: PlazaClient, _ customer: PlazaClient, AccountsDriver) async throws -> Void
    ) async throws {
        try await TestPlaza.withApp(engine, .live, configure: configure) { client, _ in
            let base = URL(string: "http://127.0.0.1:\(try #require(client.port))")!
            let accounts = AccountsDriver(client)
            let bruno = try await accounts.register("bruno", role: .merchant).decode(User.self)
            try await accounts.verify("bruno")
            try await accounts.approveMerchant(bruno.id)
            try await accounts.register("anna")
            try await accounts.verify("anna")
            let merchant = PlazaClient(baseURL: base)
            try await merchant.login("bruno", password: AccountsDriver.password)
            #expect(
                try await merchant.me().merchantApproval == MerchantApproval(state: .approved),
                "an approved merchant knows it"
            )
            let customer = PlazaClient(baseURL: base)
            try await customer.login("anna", password: AccountsDriver.password)
            try await body(merchant, customer, accounts)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aMerchantSeesTheCustomerArriveLive(_ engine: TestEngine) async throws {
        try await Self.withClients(engine) { merchant, customer, _ in
            let business = try await merchant.createBusiness(CreateBusinessRequest(name: "Gelateria", category: .cafe))
            let location = try await merchant.addLocation(
                to: business.id,
                LocationRequest(
                    name: "Duomo",
                    address: "Piazza del Duomo",
                    latitude: shopPoint.latitude,
                    longitude: shopPoint.longitude
                )
            )
            let nearby = try await customer.nearbyBusinesses(around: shopPoint.offset(east: 50))
            #expect(nearby.items.map(\.name) == ["Gelateria"])
            // What the counter sells: kept by the owner, refused to a customer.
            let cone = try await merchant.createBusinessItem(
                business.id,
                BusinessItemRequest(name: "Cone", price: Money(amount: 350, currency: "USD"), category: "Gelato")
            )
            let cheaper = try await merchant.changeBusinessItem(
                cone.id,
                of: business.id,
                BusinessItemChange(price: Money(amount: 300, currency: "USD"))
            )
            #expect(try await merchant.businessItems(business.id).items == [cheaper])
            await #expect(throws: PlazaClientError.self) { try await customer.businessItems(business.id) }
            try await merchant.deleteBusinessItem(cone.id, of: business.id)
            #expect(try await merchant.businessItems(business.id).items.isEmpty)

            var events = merchant.events().makeAsyncIterator()
            #expect(try await events.next()?.type == PlazaEventType.ready)
            try await customer.setLocationSharing(.merchants)
            try await customer.uploadLocations([
                LocationPoint(
                    latitude: shopPoint.latitude,
                    longitude: shopPoint.longitude,
                    accuracy: 5,
                    recordedAt: Date()
                )
            ])
            let arrived = try await events.next()
            #expect(arrived?.type == PlazaEventType.presenceEntered)
            #expect(try arrived?.payload(as: PresenceChange.self).username == "anna")
            #expect(try await merchant.presence(at: business.id).map(\.locationId) == [location.id])
        }
    }

    @Test func theUploaderSendsOfflinePointsInBatchesAndResumesAfterARestart() async throws {
        try await Self.withClients { _, customer, _ in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "plaza-queue-\(UUID().uuidString).json"
            )
            defer { try? FileManager.default.removeItem(at: file) }
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 7_200).rounded(.down))
            var points = (0..<250).map {
                LocationPoint(
                    latitude: 45.46 + Double($0) / 10_000,
                    longitude: 9.19,
                    accuracy: 10,
                    recordedAt: start.addingTimeInterval(Double($0) * 20)
                )
            }
            points[120].recordedAt = start.addingTimeInterval(-60 * 86_400)  // older than the retention: refused

            // Recorded while sharing is off: the upload is refused and nothing leaves the queue.
            let offline = LocationUploader(client: customer, store: FileLocationQueue(url: file), batchSize: 100)
            await offline.record(points)
            await #expect(throws: PlazaClientError.self) { try await offline.flush() }
            #expect(await offline.pending == 250)

            // A new uploader (the app restarted) finds the queue on disk and sends it.
            try await customer.setLocationSharing(.merchants)
            let resumed = LocationUploader(client: customer, store: FileLocationQueue(url: file), batchSize: 100)
            #expect(await resumed.pending == 250)
            let report = try await resumed.flush()
            #expect(
                report.accepted == 249 && report.duplicates == 0
                    && report.rejected.map(\.field) == ["points.20.recordedAt"]
            )
            #expect(await resumed.pending == 0)
            #expect(try await customer.locationHistory().features.count == 249)
            // Sending the same points again stores nothing twice.
            await resumed.record(Array(points[0..<10]))
            #expect(try await resumed.flush().duplicates == 10)
        }
    }

    /// Issue 40: a point inside a private zone never leaves the phone: dropped before it is queued, and, for a zone
    /// made elsewhere since, before it is sent; the zones kept beside the queue still hold offline after a relaunch.
    @Test func theUploaderKeepsPointsInsidePrivateZonesOnThePhone() async throws {
        try await Self.withClients { _, customer, _ in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "plaza-zoned-\(UUID().uuidString).json"
            )
            defer {
                try? FileManager.default.removeItem(at: file)
                try? FileManager.default.removeItem(at: file.appendingPathExtension("zones"))
            }
            let home = Coordinate(latitude: 45.47, longitude: 9.2)
            let office = home.offset(east: 2_000)
            try await customer.setLocationSharing(.merchants)
            _ = try await customer.createPrivateZone(
                PrivateZoneRequest(name: "Home", latitude: home.latitude, longitude: home.longitude, radiusMeters: 300)
            )
            func point(_ at: Coordinate, _ minutesAgo: Double) -> LocationPoint {
                LocationPoint(
                    latitude: at.latitude,
                    longitude: at.longitude,
                    accuracy: 10,
                    recordedAt: Date(
                        timeIntervalSince1970: (Date().timeIntervalSince1970 - minutesAgo * 60).rounded(.down)
                    )
                )
            }
            let uploader = LocationUploader(client: customer, store: FileLocationQueue(url: file))
            let kept = await uploader.record([
                point(home, 30), point(home.offset(east: 250), 29), point(office, 20), point(office, 19),
            ])
            #expect(kept == 2, "the two points at home were dropped before they were queued")
            #expect(await uploader.pending == 2)

            // The office becomes a zone on another device: the next flush fetches it and sends nothing from there.
            _ = try await customer.createPrivateZone(
                PrivateZoneRequest(
                    name: "Office",
                    latitude: office.latitude,
                    longitude: office.longitude,
                    radiusMeters: 200
                )
            )
            let park = home.offset(east: -3_000)
            let fresh = LocationUploader(client: customer, store: FileLocationQueue(url: file), zoneRefreshInterval: 0)
            #expect(await fresh.record(point(park, 10)) == 1)
            let report = try await fresh.flush()
            #expect(report.droppedInZones == 2 && report.accepted == 1)
            let stored = try await customer.locationHistory().features
            #expect(stored.count == 1, "only the park reached Plaza")

            // Offline after a relaunch (a client that reaches no server): the zones kept beside the queue still apply.
            let unreachable = PlazaClient(baseURL: URL(string: "http://127.0.0.1:9")!)
            let offline = LocationUploader(client: unreachable, store: FileLocationQueue(url: file))
            #expect(await offline.record([point(office, 1), point(home, 1)]) == 0)
            #expect(await offline.record(point(park, 1)) == 1)
        }
    }

    @Test func zonesSharingAndAppPasswordsRoundTrip() async throws {
        try await Self.withClients { _, customer, _ in
            #expect(try await customer.locationSharing().level == .off)
            #expect(try await customer.setLocationSharing(.map, zoneDisplay: .hidden).zoneDisplay == .hidden)
            let zone = try await customer.createPrivateZone(
                PrivateZoneRequest(name: "Home", latitude: 45.47, longitude: 9.2, radiusMeters: 300)
            )
            let moved = try await customer.updatePrivateZone(
                zone.id,
                PrivateZoneRequest(name: "Flat", latitude: 45.47, longitude: 9.2, radiusMeters: 400)
            )
            #expect(try await customer.privateZones() == [moved])
            try await customer.deletePrivateZone(zone.id)
            #expect(try await customer.privateZones().isEmpty)
            let password = try await customer.createAppPassword(named: "OwnTracks")
            #expect(password.password != nil)
            #expect(try await customer.appPasswords().map(\.name) == ["OwnTracks"])
            do {
                _ = try await customer.createPrivateZone(
                    PrivateZoneRequest(name: "", latitude: 99, longitude: 9.2, radiusMeters: 10)
                )
                Issue.record("an impossible zone was accepted")
            } catch let error as PlazaClientError {
                #expect(Set(error.fieldErrors.map(\.field)) == ["name", "latitude", "radiusMeters"])
            }
        }
    }

    /// "Share in the background": the SDK sets OwnTracks up, lists the phone, and revokes it.
    @Test func ownTracksSetsUpListsAndRevokes() async throws {
        try await Self.withClients { _, customer, _ in
            let phone = try await customer.setUpOwnTracks(named: "Anna's phone")
            let link = try #require(phone.configUrl)
            let configuration = try #require(OwnTracksConfiguration(link: link))
            #expect(configuration.mode == 3 && configuration.auth && configuration.username == "anna")
            #expect(configuration.url.hasSuffix("/v1/owntracks") && configuration.password.count >= 32)
            #expect(configuration.deviceId == "anna-s-phone" && configuration.tid == "AN")
            #expect(phone.qrSvg?.hasPrefix("<svg") == true && phone.lastSeenAt == nil)
            let listed = try await customer.ownTracksDevices()
            #expect(listed.map(\.name) == ["Anna's phone"] && listed[0].configUrl == nil && listed[0].qrSvg == nil)
            #expect(try await customer.appPasswords().map(\.id) == [phone.appPasswordId])
            try await customer.deleteAppPassword(phone.appPasswordId)
            #expect(try await customer.ownTracksDevices().isEmpty)
        }
    }
}
