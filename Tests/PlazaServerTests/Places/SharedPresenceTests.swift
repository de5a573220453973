import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
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
}
