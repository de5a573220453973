import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// Answers that do not depend on what warmed up first (issue 36): a second process on the database, started after
/// the shop exists and never asked anything, gets each kind of request as its very first and answers it as the first
/// process would. (Its first campaign naming the bakery's own location was refused: the location catalogue had only
/// ever been loaded by other paths.)
@Suite struct FirstRequestTests {
    static let shopPoint = Coordinate(latitude: 48.1374, longitude: 11.5755)

    /// The shop, made through the first process; then `first` runs on the second, untouched one.
    static func fresh(
        _ engine: TestEngine,
        first: @escaping @Sendable (any TestClientProtocol, String, Business, BusinessLocation) async throws -> Void
    ) async throws {
        try await TestPlaza.withSharedDatabase(engine) { warm in
            let (owner, business, location) = try await PlacesDriver(warm).shop(
                owner: "bruno",
                name: "Bruno's Bakery",
                at: Self.shopPoint
            )
            return (owner.accessToken, business, location)
        } cold: { cold, made in
            try await first(cold, made.0, made.1, made.2)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aCampaignNamingTheShopsOwnLocationFirst(_ engine: TestEngine) async throws {
        try await Self.fresh(engine) { cold, owner, business, location in
            let own = CampaignTests.coupon(target: CampaignTarget(locationIds: [location.id]))
            let created = try await cold.send(.post, "/v1/businesses/\(business.id)/campaigns", json: own, token: owner)
            #expect(created.status == .created, "\(created.text)")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func nearbyBusinessesFirst(_ engine: TestEngine) async throws {
        try await Self.fresh(engine) { cold, owner, _, _ in
            let path =
                "/v1/nearby/businesses?latitude=\(Self.shopPoint.latitude)&longitude=\(Self.shopPoint.longitude)&radius=500"
            let nearby = try await cold.send(.get, path, token: owner)
            #expect(nearby.status == .ok && nearby.text.contains("Bruno's Bakery"), "\(nearby.text)")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func thePresenceListFirst(_ engine: TestEngine) async throws {
        try await Self.fresh(engine) { cold, owner, business, _ in
            let presence = try await cold.send(.get, "/v1/businesses/\(business.id)/presence", token: owner)
            #expect(presence.status == .ok, "\(presence.text)")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aLocationUploadInTheShopFirst(_ engine: TestEngine) async throws {
        try await Self.fresh(engine) { cold, owner, business, _ in
            let anna = try await PlacesDriver(cold).sharingCustomer("anna")
            #expect(
                try await PlacesDriver(cold).move(to: Self.shopPoint, ago: 5, token: anna.accessToken).status == .ok
            )
            #expect(
                try await PlacesDriver(cold).present(business: business.id, token: owner) == ["anna"],
                "she entered the shop"
            )
        }
    }
}
