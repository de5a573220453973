import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Push notifications end to end: a device registered through the API, a merchant's charge, and the local push
/// service that decrypts what arrives with the subscription's own private key and checks the VAPID signature.
@Suite struct PushNotificationTests {
    @Test(arguments: TestEngine.enabled)
    func aChargeReachesTheCustomersBrowserEncryptedAndSigned(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            let subscription = receiver.subscribe()
            let registered = try await client.send(
                .post, "/v1/me/devices", json: DeviceRegistration(platform: .webpush, subscription: subscription, name: "Anna's laptop"), token: anna)
            #expect(registered.status == .created)
            let device = try registered.decode(Device.self)
            #expect(device.name == "Anna's laptop" && device.service == "127.0.0.1")

            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 420, token: bruno)
            let arrived = try await receiver.waitFor(1, to: subscription)
            let message = try #require(arrived.first)
            let payload = try message.payload()
            #expect(payload.title == "Corner Cafe asks you to pay $4.20." && payload.link == "/wallet/charges" && payload.kind == .moneyRequests)
            #expect(message.urgency == "high" && message.ttl == 600 && message.topic?.count == 32)
            let key = try await client.send(.get, "/v1/notifications/web-push-key").decode(WebPushKey.self)
            #expect(message.vapidKey == key.publicKey, "signed with the key the page subscribes with")
            #expect(receiver.failures.isEmpty)
            // Bruno, who asked, hears nothing of his own charge; the device is listed as delivered.
            let listed = try await client.send(.get, "/v1/me/devices", token: anna).decode(Page<Device>.self).items
            #expect(listed.map(\.id) == [device.id] && listed.first?.lastDeliveredAt != nil)
            _ = services
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aGoneSubscriptionIsDroppedAndABusyServiceIsWaitedFor(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(engine, .live) { client, services in
            let accounts = AccountsDriver(client)
            let carla = try await accounts.signedIn("carla").accessToken
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await WalletDriver(client).fund(2_000, token: carla)
            let (busy, gone) = (receiver.subscribe(), receiver.subscribe())
            for subscription in [busy, gone] {
                let answer = try await client.send(
                    .post, "/v1/me/devices", json: DeviceRegistration(platform: .webpush, subscription: subscription), token: anna)
                #expect(answer.status == .created)
            }
            receiver.answer(busy, with: 429, retryAfter: "1")
            receiver.answer(gone, with: 410)
            let started = Date()
            #expect(try await WalletDriver(client).transfer(to: "anna", 725, token: carla).status == .created)
            let arrived = try await receiver.waitFor(1, to: busy)
            #expect(try arrived.first?.payload().title == "Carla sent you $7.25.")
            #expect(Date().timeIntervalSince(started) >= 1, "the push service's Retry-After was honoured")
            let devices = try await client.send(.get, "/v1/me/devices", token: anna).decode(Page<Device>.self).items
            #expect(devices.count == 1, "the device whose subscription is gone was removed")
            #expect(receiver.messages(to: gone).isEmpty && receiver.failures.isEmpty)
            _ = services
        }
    }

    @Test func devicesAreTheirOwnersAndAddressesAreChecked() async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let carla = try await accounts.signedIn("carla").accessToken
            let device = try await client.send(
                .post, "/v1/me/devices", json: DeviceRegistration(platform: .webpush, subscription: receiver.subscribe()), token: anna
            ).decode(Device.self)
            #expect(try await client.send(.delete, "/v1/me/devices/\(device.id)", token: carla).status == .notFound)
            #expect(try await client.send(.get, "/v1/me/devices", token: carla).decode(Page<Device>.self).items.isEmpty)
            var bad = receiver.subscribe()
            bad.keys.p256dh = "AAAA"
            bad.endpoint = "ftp://127.0.0.1/push"
            let refused = try await client.send(.post, "/v1/me/devices", json: DeviceRegistration(platform: .webpush, subscription: bad), token: anna)
            #expect(Set(refused.problem?.errors?.map(\.field) ?? []) == ["subscription.endpoint", "subscription.keys.p256dh"])
            let apns = try await client.send(.post, "/v1/me/devices", json: DeviceRegistration(platform: .apns, token: "zz"), token: anna)
            #expect(Set(apns.problem?.errors?.map(\.field) ?? []) == ["token", "topic"])
            #expect(try await client.send(.delete, "/v1/me/devices/\(device.id)", token: anna).status == .noContent)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func preferencesTurnAKindOffAndAreKept(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            let subscription = receiver.subscribe()
            _ = try await client.send(.post, "/v1/me/devices", json: DeviceRegistration(platform: .webpush, subscription: subscription), token: anna)
            let chosen = NotificationPreferences(
                kinds: [KindPreference(kind: .moneyRequests, push: false, email: false)], quietHours: QuietHours(from: "22:00", until: "07:00"))
            let saved = try await client.send(.put, "/v1/me/notifications", json: chosen, token: anna).decode(NotificationPreferences.self)
            #expect(saved.preference(.moneyRequests).push == false && saved.preference(.moneyReceived).push)
            #expect(saved.quietHours == QuietHours(from: "22:00", until: "07:00") && saved.timeZone == "UTC")
            let bad = NotificationPreferences(kinds: [], quietHours: QuietHours(from: "25:00", until: "25:00"))
            #expect(try await client.send(.put, "/v1/me/notifications", json: bad, token: anna).problem?.errors?.first?.field == "quietHours.from")

            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 300, token: bruno)
            let carla = try await AccountsDriver(client).signedIn("carla").accessToken
            _ = try await WalletDriver(client).fund(1_000, token: carla)
            _ = try await WalletDriver(client).transfer(to: "anna", 100, token: carla)
            // Money received still has push on: it arrives (or waits for quiet hours to end, by the clock).
            let quiet = NotificationRules.quietUntil(saved.quietHours, now: Date(), timeZone: .gmt) != nil
            if !quiet { _ = try await receiver.waitFor(1, to: subscription) }
            try await Task.sleep(for: .milliseconds(300))
            #expect(receiver.messages(to: subscription).allSatisfy { (try? $0.payload().kind) == .moneyReceived })
            #expect(receiver.messages(to: subscription).count == (quiet ? 0 : 1), "the charge's request was not pushed")
        }
    }

    /// A sign-in from a device the account never used is an account alert; one with the earlier device token is not.
    @Test func aNewDeviceSigningInIsToldAndAKnownOneIsNot() async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let first = try await AccountsDriver(client).signedIn("anna")
            let subscription = receiver.subscribe()
            _ = try await client.send(
                .post, "/v1/me/devices", json: DeviceRegistration(platform: .webpush, subscription: subscription), token: first.accessToken)
            let known = LoginRequest(login: "anna", password: AccountsDriver.password, device: "Anna's phone", deviceToken: first.deviceToken)
            #expect(try await client.send(.post, "/v1/auth/login", json: known).status == .ok)
            let stranger = LoginRequest(login: "anna", password: AccountsDriver.password, device: "Unknown laptop")
            #expect(try await client.send(.post, "/v1/auth/login", json: stranger).status == .ok)
            let arrived = try await receiver.waitFor(1, to: subscription)
            try await Task.sleep(for: .milliseconds(300))
            let payloads = try receiver.messages(to: subscription).map { try $0.payload() }
            #expect(payloads.count == 1 && payloads.first?.kind == .account && payloads.first?.body.hasPrefix("Unknown laptop signed in") == true)
            #expect(arrived.first?.urgency == "high")
        }
    }

    /// The settings page: choices saved by the form, a device removed by its button.
    @Test func theSettingsPageSavesChoicesAndRemovesDevices() async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let device = try await client.send(
                .post, "/v1/me/devices", json: DeviceRegistration(platform: .webpush, subscription: receiver.subscribe(), name: "Anna's laptop"),
                token: anna
            ).decode(Device.self)
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            let page = try await browser.get("/account/notifications").text
            #expect(page.contains("Anna&#39;s laptop") || page.contains("Anna's laptop"))
            #expect(page.contains("data-push-enable") && page.contains("1 device"))
            let saved = try await browser.submit(
                "/account/notifications", to: "/account/notifications",
                ["push-money.received": "on", "email-account": "on", "quiet": "on", "quietFrom": "23:00", "quietUntil": "06:30"])
            #expect(saved.headers[.location] == "/account/notifications?notice=saved")
            let preferences = try await client.send(.get, "/v1/me/notifications", token: anna).decode(NotificationPreferences.self)
            #expect(!preferences.preference(.moneyRequests).push && preferences.preference(.moneyReceived).push)
            #expect(preferences.preference(.account).email && preferences.quietHours == QuietHours(from: "23:00", until: "06:30"))
            let refused = try await browser.follow(
                try await browser.submit(
                    "/account/notifications", to: "/account/notifications", ["quiet": "on", "quietFrom": "7", "quietUntil": "07:00"]))
            #expect(refused.text.contains("Not saved:") && refused.text.contains("Use HH:MM"))
            let removed = try await browser.submit(
                "/account/notifications", to: "/account/notifications/devices/\(device.id.uuidString.lowercased())/delete", [:])
            #expect(removed.headers[.location] == "/account/notifications?notice=device-removed")
            #expect(try await client.send(.get, "/v1/me/devices", token: anna).decode(Page<Device>.self).items.isEmpty)
        }
    }
}
