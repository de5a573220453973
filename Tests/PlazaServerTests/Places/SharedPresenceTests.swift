import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing
import WSClient

/// Two Plaza processes on one PostgreSQL: a position posted to one shows in the other's live index.
@Suite struct SharedPresenceTests {
    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func aPointPostedToOneProcessMovesTheOtherProcessesIndex() async throws {
        let shopPoint = Coordinate(latitude: -33.8688, longitude: 151.2093)
        try await TestPlaza.withSharedDatabase(.postgres) { first, second in
            let (owner, business, _) = try await PlacesDriver(first).shop(at: shopPoint)
            let anna = try await PlacesDriver(first).sharingCustomer("anna")
            // The second process has built its index (empty) before the customer arrives.
            #expect(try await PlacesDriver(second).present(business: business.id, token: owner.accessToken) == [])
            try await PlacesDriver(first).move(to: shopPoint, ago: 5, token: anna.accessToken)
            var seen: [String] = []
            for _ in 0..<40 where seen.isEmpty {
                seen = try await PlacesDriver(second).present(business: business.id, token: owner.accessToken)
                if seen.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(seen == ["anna"])
            try await PlacesDriver(first).share(.off, token: anna.accessToken)
            for _ in 0..<40 where !seen.isEmpty {
                seen = try await PlacesDriver(second).present(business: business.id, token: owner.accessToken)
                if !seen.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(seen == [])
        }
    }

    /// Who may read a presence list is answered from each process's memory: removing a staff member in one
    /// process takes the list away from them in the other too.
    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func staffRemovedInOneProcessLoseThePresenceListInTheOther() async throws {
        let shopPoint = Coordinate(latitude: -33.8688, longitude: 151.2093)
        try await TestPlaza.withSharedDatabase(.postgres) { first, second in
            let (owner, business, _) = try await PlacesDriver(first).shop(at: shopPoint)
            let staff = try await AccountsDriver(first).signedIn("carla", role: .merchant)
            let path = "/v1/businesses/\(business.id)/presence"
            #expect(try await second.send(.get, path, token: staff.accessToken).status == .forbidden)
            let linked = try await first.send(
                .post,
                "/v1/businesses/\(business.id)/members",
                json: AddMemberRequest(username: "carla", role: .staff),
                token: owner.accessToken
            )
            #expect(linked.status == .ok || linked.status == .created)
            var status = HTTPResponse.Status.forbidden
            for _ in 0..<40 where status != .ok {
                status = try await second.send(.get, path, token: staff.accessToken).status
                if status != .ok { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status == .ok)
            #expect(
                try await first.send(.delete, "/v1/businesses/\(business.id)/members/carla", token: owner.accessToken)
                    .status == .noContent
            )
            for _ in 0..<40 where status == .ok {
                status = try await second.send(.get, path, token: staff.accessToken).status
                if status == .ok { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status == .forbidden)
        }
    }

    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func anEventMadeByOneProcessReachesAListenerOfTheOtherOnce() async throws {
        let shopPoint = Coordinate(latitude: -33.8688, longitude: 151.2093)
        // A live test client connects when its app starts; the second's first request comes only after the setup on the
        // first (seconds, on a loaded machine), so the header timeout must not close it meanwhile.
        try await TestPlaza.withSharedDatabase(.postgres, .live) { first, second in
            let (owner, _, _) = try await PlacesDriver(first).shop(at: shopPoint)
            let anna = try await PlacesDriver(first).sharingCustomer("anna")
            let events = EventBox()
            _ = try await second.ws(
                "/v1/events",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(owner.accessToken)"])
            ) {
                inbound,
                _,
                _ in
                // Two events are awaited but only one is sent: the second wait ends at the 5-second limit.
                events.set(
                    try await EventsTests.collect(inbound, count: 2) {
                        try await PlacesDriver(first).move(to: shopPoint, ago: 1, token: anna.accessToken)
                    }
                )
            }
            #expect(events.value.map(\.type) == [PlazaEventType.presenceEntered])
        }
    }

    /// Notifications are per database: two Plazas in two schemas of one database must not hear each other.
    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func plazasInOtherSchemasOfTheDatabaseDoNotHearEachOther() async throws {
        let shopPoint = Coordinate(latitude: 64.1466, longitude: -21.9426)
        try await TestPlaza.withApp(.postgres) { other, _ in
            let (otherOwner, otherShop, _) = try await PlacesDriver(other).shop(at: shopPoint)
            // The other Plaza's index is built (empty) before anyone moves.
            let before = try await other.send(
                .get,
                "/v1/businesses/\(otherShop.id)/audience",
                token: otherOwner.accessToken
            ).decode(Audience.self)
            #expect(before.count == nil)
            try await TestPlaza.withApp(.postgres) { client, _ in
                let places = PlacesDriver(client)
                let (owner, shop, _) = try await places.shop(at: shopPoint)
                for name in ["ann", "ben", "cid", "dan", "eve"] {
                    try await places.move(
                        to: shopPoint,
                        ago: 5,
                        token: try await places.sharingCustomer(name).accessToken
                    )
                }
                let here = try await client.send(.get, "/v1/businesses/\(shop.id)/audience", token: owner.accessToken)
                    .decode(Audience.self)
                #expect(here.count == 5)
            }
            try await Task.sleep(for: .milliseconds(300))
            let after = try await other.send(
                .get,
                "/v1/businesses/\(otherShop.id)/audience",
                token: otherOwner.accessToken
            ).decode(Audience.self)
            #expect(after.count == nil)
        }
    }
}
