import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Synchronization
import Testing

@testable import PlazaServer

/// Staff's "when a customer you know walks in" push: off by default; on, a known customer's arrival pushes once, not
/// again within the window; a customer the business does not know, or who stopped sharing, never.
@Suite struct PresencePushTests {
    static let far = Coordinate(latitude: 48.16, longitude: 11.62)

    /// Moves `token`'s holder with times that always go forward (one second apart, from now on).
    final class Walker: Sendable {
        let places: PlacesDriver
        let start = Date().timeIntervalSince1970.rounded(.down)
        private let steps = Mutex(0)

        init(_ client: any TestClientProtocol) { places = PlacesDriver(client) }

        @discardableResult
        func move(to point: Coordinate, token: String) async throws -> TestResponse {
            let step = steps.withLock {
                $0 += 1
                return $0
            }
            let time = Date(timeIntervalSince1970: start + Double(step))
            let located = LocationPoint(
                latitude: point.latitude,
                longitude: point.longitude,
                accuracy: 10,
                recordedAt: time
            )
            return try await places.upload([located], token: token)
        }

        /// Leaves the shop and comes back in.
        func comeBack(token: String) async throws {
            #expect(try await move(to: PresencePushTests.far, token: token).status == .ok)
            #expect(try await move(to: ChargeTests.shopPoint, token: token).status == .ok)
        }
    }

    static func presencePushes(_ db: any SQLDatabase) async throws -> [String] {
        try await db.select().column("title").from("notifications").where("kind", .equal, "presence").all().map {
            try $0.decode(column: "title", as: String.self)
        }
    }

    /// A customer who shares, is in the shop with money, and has paid the business: known there.
    static func payingCustomer(
        _ name: String,
        business: UUID,
        merchant: String,
        client: any TestClientProtocol,
        walker: Walker
    ) async throws -> String {
        let token = try await PlacesDriver(client).sharingCustomer(name).accessToken
        try await walker.move(to: ChargeTests.shopPoint, token: token)
        _ = try await WalletDriver(client).fund(1_000, token: token)
        let wallet = WalletDriver(client)
        let charge = try await wallet.charge(business: business, customer: name, 300, token: merchant).decode(
            Charge.self
        )
        #expect(try await wallet.approve(charge, token: token).status == .ok)
        return token
    }

    @Test(arguments: TestEngine.enabled)
    func aKnownCustomerWalkingInIsPushedOnceToStaffWhoChoseIt(_ engine: TestEngine) async throws {
        let fcm = try await FCMStandIn.start()
        defer { Task { await fcm.stop() } }
        try await TestPlaza.withApp(engine, .live, configure: FCMDeliveryTests.configure(fcm)) { client, services in
            let db = services.database.sql
            let walker = Walker(client)
            let shop = try await PlacesDriver(client).shop(at: ChargeTests.shopPoint)
            let bruno = shop.tokens.accessToken
            let phone = DeviceRegistration(platform: .fcm, token: FCMDeliveryTests.token, name: "Shop phone")
            #expect(try await client.send(.post, "/v1/me/devices", json: phone, token: bruno).status == .created)
            let anna = try await Self.payingCustomer(
                "anna",
                business: shop.business.id,
                merchant: bruno,
                client: client,
                walker: walker
            )

            // Off by default: anna comes back, bruno hears nothing.
            let standard = try await client.send(.get, "/v1/me/notifications", token: bruno)
                .decode(NotificationPreferences.self)
            #expect(standard.preference(.presence).push == false)
            try await walker.comeBack(token: anna)
            #expect(try await Self.presencePushes(db).isEmpty)

            // On: the next arrival is one push, to bruno's phone.
            let on = NotificationPreferences(
                kinds: [KindPreference(kind: .presence, push: true, email: false)],
                quietHours: nil
            )
            #expect(try await client.send(.put, "/v1/me/notifications", json: on, token: bruno).status == .ok)
            try await walker.comeBack(token: anna)
            #expect(try await Self.presencePushes(db) == ["Anna just walked in"])
            // Bruno's phone heard of anna's payment (money.answers) before.
            let pushed = try #require(try await fcm.waitFor(2).first { $0.data["kind"] == "presence" })
            #expect(
                pushed.title == "Anna just walked in" && pushed.body == "A customer you know is at Corner Cafe now."
            )
            #expect(pushed.data["link"] == "/businesses/\(shop.business.id.uuidString.lowercased())/presence")

            // Within the window: no second push.
            try await walker.comeBack(token: anna)
            #expect(try await Self.presencePushes(db).count == 1)

            // A customer who never paid here is not one bruno knows.
            let carol = try await PlacesDriver(client).sharingCustomer("carol").accessToken
            try await walker.move(to: ChargeTests.shopPoint, token: carol)
            #expect(try await Self.presencePushes(db).count == 1)
            #expect(try await PlacesDriver(client).present(business: shop.business.id, token: bruno).contains("carol"))

            // The hourly limit: with one an hour, carol's claim after anna's is refused.
            let ids = try await db.select().columns("id", "username").from("users").all().reduce(into: [String: UUID]())
            {
                $0[try $1.decode(column: "username", as: String.self)] = try $1.decode(column: "id", as: UUID.self)
            }
            let store = services.notifications.store
            let claimed = try await store.claimPresenceAlert(
                staff: try #require(ids["bruno"]),
                business: shop.business.id,
                customer: try #require(ids["carol"]),
                now: Date(),
                perHour: 1,
                on: db
            )
            #expect(!claimed)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aCustomerWhoStoppedSharingIsNeverPushed(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let db = services.database.sql
            let walker = Walker(client)
            let shop = try await PlacesDriver(client).shop(at: ChargeTests.shopPoint)
            let bruno = shop.tokens.accessToken
            let phone = DeviceRegistration(platform: .fcm, token: FCMDeliveryTests.token, name: "Shop phone")
            #expect(try await client.send(.post, "/v1/me/devices", json: phone, token: bruno).status == .created)
            let on = NotificationPreferences(
                kinds: [KindPreference(kind: .presence, push: true, email: false)],
                quietHours: nil
            )
            #expect(try await client.send(.put, "/v1/me/notifications", json: on, token: bruno).status == .ok)
            let dave = try await Self.payingCustomer(
                "dave",
                business: shop.business.id,
                merchant: bruno,
                client: client,
                walker: walker
            )
            let store = services.notifications.store
            #expect(try await store.knownCustomer(username: "dave", business: shop.business.id, on: db) != nil)

            // Dave stops sharing: the business may no longer see him, so he is nobody it knows, and his points are refused.
            #expect(try await PlacesDriver(client).share(.off, token: dave).status == .ok)
            #expect(try await store.knownCustomer(username: "dave", business: shop.business.id, on: db) == nil)
            #expect(try await walker.move(to: Self.far, token: dave).status == .conflict)
            #expect(try await walker.move(to: ChargeTests.shopPoint, token: dave).status == .conflict)
            #expect(try await Self.presencePushes(db).isEmpty)

            // Even an arrival published for him (an old process, a late message) pushes nothing.
            let arrival = PresenceChange(
                businessId: shop.business.id,
                locationId: shop.location.id,
                username: "dave",
                displayName: "Dave"
            )
            let staff = try #require(
                try await db.select().column("id").from("users").where("username", .equal, "bruno").first()?.decode(
                    column: "id",
                    as: UUID.self
                )
            )
            let event = PlazaEvent(
                type: PlazaEventType.presenceEntered,
                occurredAt: Date(),
                data: try JSONValue(encoding: arrival)
            )
            let alerts = try await PresencePush().alerts(
                for: [.event(audience: [staff], event: event)],
                now: Date(),
                on: db
            )
            #expect(alerts.isEmpty)
        }
    }
}
