import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// FCM end to end through the outbox: an Android app's registration token registered through the API, alerts that
/// reach it through a stand-in for Google's token endpoint and FCM (which checks the assertion, the bearer token and
/// the message), the bearer token renewed, gone tokens dropped, and preferences and quiet hours holding back.
@Suite struct FCMDeliveryTests {
    static let token = "cKx1Example-Token_Part:APA91bFakeRegistrationTokenForTheStandIn.0123456789"

    static func configure(_ fcm: FCMStandIn) -> @Sendable (inout PlazaConfiguration) -> Void {
        let settings = try? FCMSettings.parse(serviceAccount: fcm.serviceAccountJSON, apiURL: fcm.baseURL).get()
        return { $0.push.fcm = settings }
    }

    static func register(_ client: any TestClientProtocol, token: String) async throws -> Device {
        let response = try await client.send(
            .post,
            "/v1/me/devices",
            json: DeviceRegistration(platform: .fcm, token: Self.token, name: "Anna's Pixel"),
            token: token
        )
        #expect(response.status == .created)
        return try response.decode(Device.self)
    }

    @Test(arguments: TestEngine.enabled)
    func alertsReachTheAndroidAppAndTheBearerTokenIsRenewed(_ engine: TestEngine) async throws {
        let fcm = try await FCMStandIn.start()
        defer { Task { await fcm.stop() } }
        try await TestPlaza.withApp(engine, .live, configure: Self.configure(fcm)) { client, _ in
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            let device = try await Self.register(client, token: anna)
            #expect(device.platform == .fcm && device.service == "fcm.googleapis.com")
            let wallet = WalletDriver(client)

            _ = try await wallet.charge(business: business.id, customer: "anna", 420, token: bruno)
            let first = try #require(try await fcm.waitFor(1).first)
            #expect(first.token == Self.token, "the registration token exactly as the app gave it")
            #expect(first.title == "Corner Cafe asks you to pay $4.20." && first.data["link"] == "/wallet/charges")
            #expect(first.data["kind"] == "money.requests" && fcm.exchanges == 1)

            // The token was revoked: FCM answers 401, the sender fetches a new one and sends again at once.
            fcm.revokeTokens()
            fcm.issueTokens(living: 2)
            _ = try await wallet.charge(business: business.id, customer: "anna", 100, token: bruno)
            let second = try await fcm.waitFor(2)
            #expect(second.count == 2 && second.last?.title == "Corner Cafe asks you to pay $1.00.")
            #expect(fcm.unauthorized == 1 && fcm.exchanges == 2 && second.last?.bearer != first.bearer)

            // That token lives two seconds: renewed before it runs out, without a 401.
            try await Task.sleep(for: .seconds(2))
            _ = try await wallet.charge(business: business.id, customer: "anna", 200, token: bruno)
            let third = try await fcm.waitFor(3)
            #expect(third.count == 3 && fcm.exchanges == 3 && fcm.unauthorized == 1)
            #expect(fcm.refusedAssertions.isEmpty, "every assertion was signed and scoped right")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aBusyFCMIsWaitedForAndGoneTokensAreDropped(_ engine: TestEngine) async throws {
        let fcm = try await FCMStandIn.start()
        defer { Task { await fcm.stop() } }
        try await TestPlaza.withApp(engine, .live, configure: Self.configure(fcm)) { client, _ in
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            _ = try await Self.register(client, token: anna)
            fcm.answer(Self.token, with: .tooManyRequests(retryAfter: 1))
            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 420, token: bruno)
            // Refused once with 429, then sent again after the second FCM asked for: the same notification twice.
            let tries = try await fcm.waitFor(2)
            #expect(tries.count == 2 && tries[0].data["id"] == tries[1].data["id"])

            // FCM says the app is gone from the phone: the device goes.
            fcm.answer(Self.token, with: .unregistered)
            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 100, token: bruno)
            _ = try await fcm.waitFor(3)
            #expect(try await Self.waitUntilNoDevices(client, token: anna))

            // A token FCM calls invalid goes too.
            let other = "dOther-Token_Part:APA91bAnotherRegistrationTokenForTheStandIn.9876543210"
            let again = DeviceRegistration(platform: .fcm, token: other, name: "Anna's Pixel")
            #expect(try await client.send(.post, "/v1/me/devices", json: again, token: anna).status == .created)
            fcm.answer(other, with: .invalidToken)
            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 200, token: bruno)
            #expect(try await fcm.waitFor(4).last?.token == other)
            #expect(try await Self.waitUntilNoDevices(client, token: anna))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func preferencesAndQuietHoursHoldBackAsForWebPush(_ engine: TestEngine) async throws {
        let fcm = try await FCMStandIn.start()
        defer { Task { await fcm.stop() } }
        try await TestPlaza.withApp(engine, .live, configure: Self.configure(fcm)) { client, services in
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            _ = try await Self.register(client, token: anna)
            let db = services.database.sql
            let annaID = try #require(
                try await db.select().column("id").from("users").where("username", .equal, "anna").first()?.decode(
                    column: "id",
                    as: UUID.self
                )
            )
            // Requests to pay by push off: the charge's alert is fanned out to no device.
            let off = NotificationPreferences(
                kinds: [KindPreference(kind: .moneyRequests, push: false, email: false)],
                quietHours: nil
            )
            #expect(try await client.send(.put, "/v1/me/notifications", json: off, token: anna).status == .ok)
            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 420, token: bruno)
            try await Self.waitUntilFannedOut(db)

            // Quiet hours around now (anna's zone is UTC): money received waits for their end; a request to pay does not.
            let calendar = Calendar(identifier: .gregorian)
            var utc = calendar
            utc.timeZone = .gmt
            let format = { (date: Date) in
                let parts = utc.dateComponents([.hour, .minute], from: date)
                return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
            }
            let now = Date()
            let quiet = NotificationPreferences(
                kinds: [KindPreference(kind: .moneyRequests, push: true, email: false)],
                quietHours: QuietHours(
                    from: format(now.addingTimeInterval(-3_600)),
                    until: format(now.addingTimeInterval(3_600))
                )
            )
            #expect(try await client.send(.put, "/v1/me/notifications", json: quiet, token: anna).status == .ok)
            let received = NotificationContent(
                kind: .moneyReceived,
                title: "Carla K. sent you $1.00.",
                body: "",
                link: "/wallet"
            )
            try await services.events.transaction(publishing: { _ in
                ((), [FeedMessage.alert(user: annaID, content: received)])
            })
            try await Self.waitUntilFannedOut(db)
            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 250, token: bruno)
            let arrived = try await fcm.waitFor(1)
            try await Task.sleep(for: .seconds(2))
            #expect(fcm.received.map(\.title) == ["Corner Cafe asks you to pay $2.50."])
            #expect(arrived.first?.title == "Corner Cafe asks you to pay $2.50.")
            let held = try await db.select().column("next_attempt_at").from("push_deliveries")
                .where("sent_at", .is, SQLLiteral.null).all().map {
                    try $0.decode(column: "next_attempt_at", as: Date.self)
                }
            #expect(held.count == 1 && held.allSatisfy { $0 > now.addingTimeInterval(3_000) })
        }
    }

    /// Waits until the caller has no push device left; false if one stays.
    static func waitUntilNoDevices(_ client: any TestClientProtocol, token: String) async throws -> Bool {
        for _ in 0..<250 {
            let devices = try await client.send(.get, "/v1/me/devices", token: token).decode(Page<Device>.self).items
            if devices.isEmpty { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits until every queued notification was fanned out to devices (or to none).
    static func waitUntilFannedOut(_ db: any SQLDatabase) async throws {
        for _ in 0..<500 {
            let waiting = try await db.select().column("id").from("notifications")
                .where("fanned_out_at", .is, SQLLiteral.null).all()
            if waiting.isEmpty { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("notifications still waiting to be fanned out")
    }
}
