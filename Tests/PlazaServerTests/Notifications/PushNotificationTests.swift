import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Push notifications end to end: a device registered through the API, a merchant's charge, and the local push
/// service that decrypts what arrives with the subscription's own private key and checks the VAPID signature.
@Suite struct PushNotificationTests {
    @Test(arguments: TestEngine.enabled)
    func aChargeReachesTheCustomersBrowserEncryptedAndSigned(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(engine, .live, configure: { $0.push.hosts = [receiver.origin] }) {
            client,
            services in
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            let subscription = receiver.subscribe()
            let registered = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .webpush, subscription: subscription, name: "Anna's laptop"),
                token: anna
            )
            #expect(registered.status == .created)
            let device = try registered.decode(Device.self)
            #expect(device.name == "Anna's laptop" && device.service == "127.0.0.1")

            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 420, token: bruno)
            let arrived = try await receiver.waitFor(1, to: subscription)
            let message = try #require(arrived.first)
            let payload = try message.payload()
            #expect(
                payload.title == "Corner Cafe asks you to pay $4.20." && payload.link == "/wallet/charges"
                    && payload.kind == .moneyRequests
            )
            #expect(message.urgency == "high" && message.ttl == 600 && message.topic?.count == 32)
            let key = try await client.send(.get, "/v1/notifications/web-push-key").decode(WebPushKey.self)
            #expect(message.vapidKey == key.publicKey, "signed with the key the page subscribes with")
            #expect(receiver.failures.isEmpty)
            // Bruno, who asked, hears nothing of his own charge; the device is listed as delivered (written just after the
            // push service answered, so a loaded machine may take a moment).
            var listed = try await client.send(.get, "/v1/me/devices", token: anna).decode(Page<Device>.self).items
            let deadline = ContinuousClock.now + .seconds(10)
            while listed.first?.lastDeliveredAt == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                listed = try await client.send(.get, "/v1/me/devices", token: anna).decode(Page<Device>.self).items
            }
            #expect(listed.map(\.id) == [device.id] && listed.first?.lastDeliveredAt != nil)
            _ = services
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aGoneSubscriptionIsDroppedAndABusyServiceIsWaitedFor(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(engine, .live, configure: { $0.push.hosts = [receiver.origin] }) {
            client,
            services in
            let accounts = AccountsDriver(client)
            let carla = try await accounts.signedIn("carla").accessToken
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await WalletDriver(client).fund(2_000, token: carla)
            let (busy, gone) = (receiver.subscribe(), receiver.subscribe())
            for subscription in [busy, gone] {
                let answer = try await client.send(
                    .post,
                    "/v1/me/devices",
                    json: DeviceRegistration(platform: .webpush, subscription: subscription),
                    token: anna
                )
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
        try await TestPlaza.withApp(.sqlite, configure: { $0.push.hosts = [receiver.origin] }) { client, _ in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let carla = try await accounts.signedIn("carla").accessToken
            let device = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .webpush, subscription: receiver.subscribe()),
                token: anna
            ).decode(Device.self)
            #expect(try await client.send(.delete, "/v1/me/devices/\(device.id)", token: carla).status == .notFound)
            #expect(try await client.send(.get, "/v1/me/devices", token: carla).decode(Page<Device>.self).items.isEmpty)
            var bad = receiver.subscribe()
            bad.keys.p256dh = "AAAA"
            bad.endpoint = "ftp://127.0.0.1/push"
            let refused = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .webpush, subscription: bad),
                token: anna
            )
            #expect(
                Set(refused.problem?.errors?.map(\.field) ?? []) == [
                    "subscription.endpoint", "subscription.keys.p256dh",
                ]
            )
            let apns = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .apns, token: "zz"),
                token: anna
            )
            #expect(Set(apns.problem?.errors?.map(\.field) ?? []) == ["token", "topic"])
            #expect(try await client.send(.delete, "/v1/me/devices/\(device.id)", token: anna).status == .noContent)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func preferencesTurnAKindOffAndAreKept(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(engine, .live, configure: { $0.push.hosts = [receiver.origin] }) { client, _ in
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            let subscription = receiver.subscribe()
            _ = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .webpush, subscription: subscription),
                token: anna
            )
            let chosen = NotificationPreferences(
                kinds: [KindPreference(kind: .moneyRequests, push: false, email: false)],
                quietHours: nil
            )
            let saved = try await client.send(.put, "/v1/me/notifications", json: chosen, token: anna).decode(
                NotificationPreferences.self
            )
            #expect(
                saved.preference(.moneyRequests).push == false && saved.preference(.moneyReceived).push
                    && saved.timeZone == "UTC"
            )
            let bad = NotificationPreferences(kinds: [], quietHours: QuietHours(from: "25:00", until: "25:00"))
            #expect(
                try await client.send(.put, "/v1/me/notifications", json: bad, token: anna).problem?.errors?.first?
                    .field == "quietHours.from"
            )

            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 300, token: bruno)
            let carla = try await AccountsDriver(client).signedIn("carla").accessToken
            _ = try await WalletDriver(client).fund(1_000, token: carla)
            _ = try await WalletDriver(client).transfer(to: "anna", 100, token: carla)
            _ = try await receiver.waitFor(1, to: subscription)
            try await Task.sleep(for: .milliseconds(300))
            #expect(receiver.messages(to: subscription).count == 1, "the charge's request was not pushed")
            #expect(try receiver.messages(to: subscription).first?.payload().kind == .moneyReceived)

            // Kinds left out keep their setting; quiet hours come and go.
            let quiet = NotificationPreferences(kinds: [], quietHours: QuietHours(from: "22:00", until: "07:00"))
            let kept = try await client.send(.put, "/v1/me/notifications", json: quiet, token: anna).decode(
                NotificationPreferences.self
            )
            #expect(
                kept.quietHours == QuietHours(from: "22:00", until: "07:00")
                    && kept.preference(.moneyRequests).push == false
            )
        }
    }

    /// Quiet hours hold a push that can wait until they end, in the person's time zone; a request to pay goes at once.
    /// A kind with e-mail on is mailed at once.
    @Test(arguments: TestEngine.enabled)
    func quietHoursHoldWhatCanWaitAndMailGoesOut(_ engine: TestEngine) async throws {
        try await TestPlaza.withServices(engine) { services in
            let (store, user) = (services.notifications.store, UUID())
            try await services.database.transaction { db in
                try await AccountStore().insert(
                    UserRecord(
                        id: user,
                        email: "zoe@example.com",
                        username: "zoe",
                        displayName: "Zoe",
                        passwordHash: "",
                        role: .customer,
                        emailVerified: true,
                        now: Date()
                    ),
                    on: db
                )
                try await db.update("users").set("time_zone", to: "Europe/Berlin").where("id", .equal, user).run()
                _ = try await store.saveDevice(
                    DeviceRecord(
                        id: UUID(),
                        userID: user,
                        platform: .webpush,
                        name: "laptop",
                        address: "https://push.example.net/zoe",
                        p256dh: "key",
                        auth: "auth",
                        topic: nil,
                        createdAt: Date(),
                        lastDeliveredAt: nil
                    ),
                    on: db
                )
                try await store.savePreferences(
                    NotificationPreferences(
                        kinds: [KindPreference(kind: .moneyReceived, push: true, email: true)],
                        quietHours: QuietHours(from: "22:00", until: "07:00")
                    ),
                    of: user,
                    on: db
                )
            }
            let received = NotificationContent(
                kind: .moneyReceived,
                title: "Carla K. sent you $1.00.",
                body: "Lunch",
                link: "/wallet"
            )
            let asked = NotificationContent(
                kind: .moneyRequests,
                title: "Bruno's Bakery asks you to pay $4.20.",
                body: "",
                link: "/wallet/charges"
            )
            let (late, due) = (UUID(), UUID())
            try await services.database.transaction { db in
                try await store.enqueue([(late, user, received), (due, user, asked)], now: Date(), on: db)
            }
            // 23:30 in Berlin: quiet until 07:00 there (06:00 UTC).
            let night = try #require(RFC3339.parse("2026-11-24T22:30:00Z"))
            #expect(try await services.notifications.fanOutWaiting(now: night) == 2)
            let rows = try await services.database.sql.select().columns("notification_id", "next_attempt_at").from(
                "push_deliveries"
            ).all()
            let times = try Dictionary(
                uniqueKeysWithValues: rows.map {
                    (
                        try $0.decode(column: "notification_id", as: UUID.self),
                        try $0.decode(column: "next_attempt_at", as: Date.self)
                    )
                }
            )
            let morning = try #require(RFC3339.parse("2026-11-25T06:00:00Z"))
            #expect(times[late].map { abs($0.timeIntervalSince(morning)) < 1 } == true)
            #expect(times[due].map { abs($0.timeIntervalSince(night)) < 1 } == true)
            let mail = try await OutboxStore().recent(on: services.database.sql)
            #expect(mail.map(\.subject) == ["Carla K. sent you $1.00."] && mail.first?.to == "zoe@example.com")
            #expect(mail.first?.text.contains("/account/notifications") == true)
        }
    }

    /// A sign-in from a device the account never used is an account alert; one with the earlier device token is not.
    @Test func aNewDeviceSigningInIsToldAndAKnownOneIsNot() async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.push.hosts = [receiver.origin] }) { client, _ in
            let first = try await AccountsDriver(client).signedIn("anna")
            let subscription = receiver.subscribe()
            _ = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .webpush, subscription: subscription),
                token: first.accessToken
            )
            let known = LoginRequest(
                login: "anna",
                password: AccountsDriver.password,
                device: "Anna's phone",
                deviceToken: first.deviceToken
            )
            #expect(try await client.send(.post, "/v1/auth/login", json: known).status == .ok)
            let stranger = LoginRequest(login: "anna", password: AccountsDriver.password, device: "Unknown laptop")
            #expect(try await client.send(.post, "/v1/auth/login", json: stranger).status == .ok)
            let arrived = try await receiver.waitFor(1, to: subscription)
            try await Task.sleep(for: .milliseconds(300))
            let payloads = try receiver.messages(to: subscription).map { try $0.payload() }
            #expect(
                payloads.count == 1 && payloads.first?.kind == .account
                    && payloads.first?.body.hasPrefix("Unknown laptop signed in") == true
            )
            #expect(arrived.first?.urgency == "high")
        }
    }

    /// The settings page: choices saved by the form, a device removed by its button.
    @Test func theSettingsPageSavesChoicesAndRemovesDevices() async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(.sqlite, configure: { $0.push.hosts = [receiver.origin] }) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let device = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .webpush, subscription: receiver.subscribe(), name: "Anna's laptop"),
                token: anna
            ).decode(Device.self)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let page = try await browser.get("/account/notifications").text
            #expect(page.contains("Anna&#39;s laptop") || page.contains("Anna's laptop"))
            #expect(page.contains("data-push-enable") && page.contains("1 device"))
            let saved = try await browser.submit(
                "/account/notifications",
                to: "/account/notifications",
                [
                    "push-money.received": "on", "email-account": "on", "quiet": "on", "quietFrom": "23:00",
                    "quietUntil": "06:30",
                ]
            )
            #expect(saved.headers[.location] == "/account/notifications?notice=saved")
            let preferences = try await client.send(.get, "/v1/me/notifications", token: anna).decode(
                NotificationPreferences.self
            )
            #expect(!preferences.preference(.moneyRequests).push && preferences.preference(.moneyReceived).push)
            #expect(
                preferences.preference(.account).email
                    && preferences.quietHours == QuietHours(from: "23:00", until: "06:30")
            )
            let refused = try await browser.follow(
                try await browser.submit(
                    "/account/notifications",
                    to: "/account/notifications",
                    ["quiet": "on", "quietFrom": "7", "quietUntil": "07:00"]
                )
            )
            #expect(refused.text.contains("Not saved:") && refused.text.contains("Use HH:MM"))
            let removed = try await browser.submit(
                "/account/notifications",
                to: "/account/notifications/devices/\(device.id.uuidString.lowercased())/delete",
                [:]
            )
            #expect(removed.headers[.location] == "/account/notifications?notice=device-removed")
            #expect(try await client.send(.get, "/v1/me/devices", token: anna).decode(Page<Device>.self).items.isEmpty)
        }
    }
}
