import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The places pages as a visitor reads them: the list says what is open and how long the line is, and a second line
/// report says when the first was (issue 39).
@Suite struct PlacesPagesTests {
    let shopPoint = Coordinate(latitude: 48.1374, longitude: 11.5755)
    let everyDay = (1...7).map { OpeningPeriod(day: $0, opens: "00:00", closes: "23:59") }
    let oneMinuteADay = (1...7).map { OpeningPeriod(day: $0, opens: "00:00", closes: "00:01") }

    func location(
        _ client: any TestClientProtocol,
        _ shop: (tokens: TokenResponse, business: Business, location: BusinessLocation),
        hours: [OpeningPeriod]
    ) async throws {
        let changed = try await client.send(
            .put,
            "/v1/businesses/\(shop.business.id)/locations/\(shop.location.id)",
            json: LocationRequest(
                name: shop.location.name,
                address: "1 Main Street",
                latitude: shop.location.latitude,
                longitude: shop.location.longitude,
                radiusMeters: shop.location.radiusMeters,
                openingHours: hours
            ),
            token: shop.tokens.accessToken
        )
        #expect(changed.status == .ok, "\(changed.text)")
    }

    @Test(arguments: TestEngine.enabled)
    func theListSaysWhatIsOpenAndTheLine(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let cafe = try await places.shop(name: "Corner Cafe", at: shopPoint)
            try await location(client, cafe, hours: everyDay)
            let night = try await places.shop(
                owner: "nadia",
                name: "Night Bar",
                at: Coordinate(latitude: 48.1400, longitude: 11.5800)
            )
            try await location(client, night, hours: oneMinuteADay)
            let anna = try await places.sharingCustomer("anna")
            try await places.move(to: shopPoint, token: anna.accessToken)
            let reported = try await client.send(
                .post,
                "/v1/locations/\(cafe.location.id)/line-waits",
                json: LineWaitReport(minutes: 12),
                token: anna.accessToken
            )
            #expect(reported.status == .created)

            let list = try await PageSession(client).get("/places").text
            let cafeRow = try #require(
                list.firstMatch(of: #/<li><a[^>]*><strong>Corner Cafe</strong>.*?</li>/#)?.output
            )
            #expect(cafeRow.contains("Open now · closes 23:59"))
            #expect(cafeRow.contains("Line: 12 min"))
            let barRow = try #require(list.firstMatch(of: #/<li><a[^>]*><strong>Night Bar</strong>.*?</li>/#)?.output)
            #expect(barRow.contains("Closed · opens"))
            #expect(!barRow.contains("Line:"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aSecondLineReportSaysWhenTheFirstWas(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let places = PlacesDriver(client)
            let cafe = try await places.shop(at: shopPoint)
            let anna = try await places.sharingCustomer("anna")
            try await places.move(to: shopPoint, token: anna.accessToken)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let page = "/places/businesses/\(cafe.business.id.uuidString.lowercased())"
            let action = "/places/locations/\(cafe.location.id.uuidString.lowercased())/line-waits"
            let first = try await browser.follow(try await browser.submit(page, to: action, ["minutes": "5"]))
            #expect(!first.text.contains("Too many attempts"))
            let again = try await browser.follow(try await browser.submit(page, to: action, ["minutes": "6"]))
            #expect(again.text.contains("You reported this line a moment ago."))
            #expect(!again.text.contains("Too many attempts"))

            // Ten minutes later, still too soon: the words say how long ago.
            let user = try #require(try await AccountStore().user(login: "anna", on: services.database.sql))
            let error = await #expect(throws: PlazaError.self) {
                try await services.places.reportLineWait(
                    Identity(user: user, sessionID: UUID()),
                    location: cafe.location.id,
                    LineWaitReport(minutes: 7),
                    now: Date().addingTimeInterval(600)
                )
            }
            #expect(error?.title == "You reported this line 10 minutes ago.")
            #expect(error?.status == .tooManyRequests)
        }
    }
}
