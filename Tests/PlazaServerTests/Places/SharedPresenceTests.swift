import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import HummingbirdWSTesting
import HummingbirdWebSocket
import WSClient
import Testing

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

    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func anEventMadeByOneProcessReachesAListenerOfTheOtherOnce() async throws {
        let shopPoint = Coordinate(latitude: -33.8688, longitude: 151.2093)
        try await TestPlaza.withSharedDatabase(.postgres, .live) { first, second in
            let (owner, _, _) = try await PlacesDriver(first).shop(at: shopPoint)
            let anna = try await PlacesDriver(first).sharingCustomer("anna")
            let events = EventBox()
            _ = try await second.ws("/v1/events", configuration: .init(additionalHeaders: [.authorization: "Bearer \(owner.accessToken)"])) { inbound, _, _ in
                // Two events are awaited but only one is sent: the second wait ends at the 5-second limit.
                events.set(
                    try await EventsTests.collect(inbound, count: 2) {
                        try await PlacesDriver(first).move(to: shopPoint, ago: 1, token: anna.accessToken)
                    })
            }
            #expect(events.value.map(\.type) == [PlazaEventType.presenceEntered])
        }
    }
}
