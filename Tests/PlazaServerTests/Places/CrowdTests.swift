import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

@Suite struct CrowdTests {
    let shopPoint = Coordinate(latitude: 35.6812, longitude: 139.7671)

    /// Each customer's phone uploads, late, 8 minutes inside the shop then a point outside: one visit each.
    /// Every visit of a test starts at the same `now`, so all of them fall in one hour even when the clock turns.
    func visit(_ places: PlacesDriver, _ name: String, now: Date) async throws {
        let tokens = try await places.sharingCustomer(name)
        let track = [
            (shopPoint, 30.0), (shopPoint.offset(east: 10), 26), (shopPoint.offset(north: 5), 22),
            (shopPoint.offset(east: 500), 20),
        ]
        let points = track.map {
            LocationPoint(
                latitude: $0.0.latitude,
                longitude: $0.0.longitude,
                accuracy: 10,
                recordedAt: now.addingTimeInterval(-$0.1 * 60)
            )
        }
        #expect(try await places.upload(points, token: tokens.accessToken).status == .ok)
    }

    @Test(arguments: TestEngine.enabled)
    func popularTimesCountVisitsAndHideSmallNumbers(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let (_, _, location) = try await places.shop(at: shopPoint)
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            for name in ["ann", "ben", "cid", "dan"] { try await visit(places, name, now: now) }
            let hour = Calendar(identifier: .gregorian).dateComponents(
                in: TimeZone(identifier: "UTC")!,
                from: now.addingTimeInterval(-30 * 60)
            )
            let weekday = ((hour.weekday ?? 1) + 5) % 7 + 1
            func slot() async throws -> PopularHour {
                let times = try await client.send(.get, "/v1/locations/\(location.id)/popular-times").decode(
                    PopularTimes.self
                )
                #expect(times.weeksOfData == 1 && times.timeZone == "UTC" && times.days.count == 7)
                return times.days[weekday - 1].hours[hour.hour ?? 0]
            }
            #expect(try await slot() == PopularHour(hour: hour.hour ?? 0, averageVisits: nil, enoughData: false))
            try await visit(places, "eve", now: now)
            #expect(try await slot() == PopularHour(hour: hour.hour ?? 0, averageVisits: 5, enoughData: true))
            let live = try await client.send(.get, "/v1/locations/\(location.id)/popular-times").decode(
                PopularTimes.self
            ).live
            #expect(live.level == "not_enough_data" && live.count == nil)
        }
    }

    /// Issue 39: the map said "Not enough data yet" of every shop whose page showed weeks of visits. Without enough
    /// people sharing now, the map says how busy the place usually is at this hour, from the same k-anonymous cells.
    @Test(arguments: TestEngine.enabled)
    func theMapSaysHowBusyAPlaceUsuallyIsWhenTooFewShareNow(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let places = PlacesDriver(client)
            let (_, _, location) = try await places.shop(at: shopPoint)
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            // Read the map in the hour the visits began, whatever the clock did since.
            func shop() async throws -> MapFeatureProperties? {
                try await services.places.map(
                    south: shopPoint.latitude - 0.01,
                    west: shopPoint.longitude - 0.01,
                    north: shopPoint.latitude + 0.01,
                    east: shopPoint.longitude + 0.01,
                    now: now.addingTimeInterval(-30 * 60)
                ).features.first { $0.properties.locationId == location.id }?.properties
            }
            for name in ["ann", "ben", "cid", "dan"] { try await visit(places, name, now: now) }
            let four = try #require(try await shop())
            #expect(four.busyNow == "not_enough_data" && four.usualNow == nil)
            try await visit(places, "eve", now: now)
            let five = try #require(try await shop())
            #expect(five.busyNow == "not_enough_data" && five.usualNow == .busy)
        }
    }

    /// `stays` visits of 7 minutes each, one every 12 minutes from `start`, uploaded at once (as a phone does after
    /// being offline): in, in again 7 minutes later, then 500 m away.
    func visits(_ places: PlacesDriver, token: String, from start: Date, stays: Int) async throws {
        var points: [LocationPoint] = []
        for index in 0..<stays {
            let entered = start.addingTimeInterval(Double(index) * 12 * 60)
            for (point, minutes) in [
                (shopPoint, 0.0), (shopPoint.offset(east: 5), 7), (shopPoint.offset(east: 500), 8),
            ] {
                points.append(
                    LocationPoint(
                        latitude: point.latitude,
                        longitude: point.longitude,
                        accuracy: 10,
                        recordedAt: entered.addingTimeInterval(minutes * 60)
                    )
                )
            }
        }
        #expect(try await places.upload(points, token: token).status == .ok)
    }

    /// One account cannot open a cell alone, nor push a cell of four people over the threshold by adding stays:
    /// the cell counts distinct people, so watching it while adding stays learns nothing.
    @Test(arguments: TestEngine.enabled)
    func oneAccountCannotMakeAnHourEnoughDataAlone(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let (_, _, location) = try await places.shop(at: shopPoint)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let hourStart = calendar.dateInterval(of: .hour, for: Date().addingTimeInterval(-3 * 3_600))!.start
            let parts = calendar.dateComponents([.weekday, .hour], from: hourStart)
            let (weekday, hour) = (((parts.weekday ?? 1) + 5) % 7 + 1, parts.hour ?? 0)
            func cell() async throws -> PopularHour {
                try await client.send(.get, "/v1/locations/\(location.id)/popular-times").decode(PopularTimes.self)
                    .days[weekday - 1].hours[hour]
            }
            let mallory = try await places.sharingCustomer("mallory")
            try await visits(places, token: mallory.accessToken, from: hourStart.addingTimeInterval(60), stays: 5)
            #expect(try await cell().enoughData == false)
            for name in ["ann", "ben", "cid"] {
                try await visits(
                    places,
                    token: try await places.sharingCustomer(name).accessToken,
                    from: hourStart.addingTimeInterval(30 * 60),
                    stays: 1
                )
            }
            // Four people: mallory adds four more stays and watches.
            let before = try await cell()
            try await visits(places, token: mallory.accessToken, from: hourStart.addingTimeInterval(2 * 60), stays: 4)
            #expect(try await cell() == before && before.enoughData == false)
            try await visits(
                places,
                token: try await places.sharingCustomer("dan").accessToken,
                from: hourStart.addingTimeInterval(40 * 60),
                stays: 1
            )
            #expect(try await cell() == PopularHour(hour: hour, averageVisits: 5, enoughData: true))
        }
    }

    /// Points recorded offline still count when they arrive within a day; older ones are history only, so an upload
    /// cannot invent visits in hours long past.
    @Test func backDatedPointsOlderThanADayCreateNoVisits() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let places = PlacesDriver(client)
            _ = try await places.shop(at: shopPoint)
            let anna = try await places.sharingCustomer("anna")
            try await visits(places, token: anna.accessToken, from: Date().addingTimeInterval(-3 * 86_400), stays: 3)
            let old = try await services.database.sql.raw("SELECT COUNT(*) AS n FROM stays").first()?.decode(
                column: "n",
                as: Int.self
            )
            #expect(old == 0)
            try await visits(places, token: anna.accessToken, from: Date().addingTimeInterval(-3 * 3_600), stays: 1)
            let recent = try await services.database.sql.raw("SELECT COUNT(*) AS n FROM stays").first()?.decode(
                column: "n",
                as: Int.self
            )
            #expect(recent == 1)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func staysOfPeopleWhoWentQuietEndAndCountAsVisits(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let places = PlacesDriver(client)
            let (_, _, location) = try await places.shop(at: shopPoint)
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            for name in ["ann", "ben", "cid", "dan", "eve"] {
                let tokens = try await places.sharingCustomer(name)
                let points = [540.0, 180].map {
                    LocationPoint(
                        latitude: shopPoint.latitude,
                        longitude: shopPoint.longitude,
                        accuracy: 10,
                        recordedAt: now.addingTimeInterval(-$0)
                    )
                }
                #expect(try await places.upload(points, token: tokens.accessToken).status == .ok)
            }
            func visits() async throws -> Double? {
                let times = try await client.send(.get, "/v1/locations/\(location.id)/popular-times").decode(
                    PopularTimes.self
                )
                return times.days.flatMap(\.hours).compactMap(\.averageVisits).first
            }
            // Still there (their last points are fresh): no visit has ended yet.
            #expect(try await visits() == nil)
            try await services.sweepPresence(now: now.addingTimeInterval(15 * 60))
            #expect(try await visits() == 5)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func lineWaitsComeOnlyFromPeopleWhoWereThereOncePerQuarterHour(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let (_, _, location) = try await places.shop(at: shopPoint)
            let anna = try await places.sharingCustomer("anna")
            let refused = try await client.send(
                .post,
                "/v1/locations/\(location.id)/line-waits",
                json: LineWaitReport(minutes: 5),
                token: anna.accessToken
            )
            #expect(refused.status == .forbidden && refused.problem?.code == .notPresent)

            try await places.move(to: shopPoint, token: anna.accessToken)
            let accepted = try await client.send(
                .post,
                "/v1/locations/\(location.id)/line-waits",
                json: LineWaitReport(minutes: 12),
                token: anna.accessToken
            )
            #expect(accepted.status == .created)
            let summary = try accepted.decode(LineWaits.self)
            #expect(summary.currentMinutes == 12 && summary.recentReports == 1 && summary.newestReportAgeMinutes == 0)
            let again = try await client.send(
                .post,
                "/v1/locations/\(location.id)/line-waits",
                json: LineWaitReport(minutes: 3),
                token: anna.accessToken
            )
            #expect(again.status == .tooManyRequests && again.headers[.retryAfter] != nil)
            let bad = try await client.send(
                .post,
                "/v1/locations/\(location.id)/line-waits",
                json: LineWaitReport(minutes: 900),
                token: anna.accessToken
            )
            #expect(bad.problem?.errors?.first?.field == "minutes")
            let shown = try await client.send(.get, "/v1/locations/\(location.id)/line-waits").decode(LineWaits.self)
            #expect(shown.currentMinutes == 12 && shown.averages.count == 1)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func ownTracksPostsLocationsWithAnAppPassword(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let anna = try await places.sharingCustomer("anna")
            let created = try await client.send(
                .post,
                "/v1/me/app-passwords",
                json: AppPasswordRequest(name: "OwnTracks on my phone"),
                token: anna.accessToken
            )
            let secret = try created.decode(AppPassword.self).password ?? ""
            #expect(secret.count >= 32)
            let listed = try await client.send(.get, "/v1/me/app-passwords", token: anna.accessToken).decode(
                Page<AppPassword>.self
            )
            #expect(listed.items.count == 1 && listed.items[0].password == nil)

            let body =
                #"{"_type":"location","lat":35.6812,"lon":139.7671,"tst":\#(Int(Date().timeIntervalSince1970) - 5),"acc":12,"tid":"an","batt":80}"#
            func post(_ user: String, _ password: String, _ json: String = body) async throws -> TestResponse {
                let basic = Data("\(user):\(password)".utf8).base64EncodedString()
                return try await client.execute(
                    uri: "/v1/owntracks",
                    method: .post,
                    headers: [.authorization: "Basic \(basic)", .contentType: "application/json"],
                    body: .init(string: json)
                )
            }
            let posted = try await post("anna", secret)
            #expect(posted.status == .ok && posted.text == "[]")
            let wrong = try await post("anna", "not-the-secret")
            #expect(wrong.status == .unauthorized && wrong.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            #expect(try await post("max", secret).status == .unauthorized)
            #expect(try await post("anna", secret, #"{"_type":"transition","event":"enter"}"#).text == "[]")
            let history = try await client.send(.get, "/v1/me/locations", token: anna.accessToken)
                .decode(GeoJSONFeatureCollection<HistoryPointProperties>.self)
            #expect(
                history.features.map(\.geometry.coordinates) == [[139.7671, 35.6812]]
                    && history.features[0].properties.accuracy == 12
            )
        }
    }
}
