import Foundation
import PlazaClient
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// Push notifications with the SDK: an app registers its device and chooses what reaches it.
@Suite struct NotificationsClientTests {
    @Test(arguments: TestEngine.enabled)
    func anAppRegistersItsDeviceAndChoosesWhatReachesIt(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await PlacesClientTests.withClients(engine, configure: { $0.push.hosts = [receiver.origin] }) {
            bruno,
            anna,
            _ in
            let phone = try await anna.registerForPush(
                deviceToken: Data((0..<32).map { UInt8($0) }),
                topic: "com.example.plaza",
                name: "Anna's iPhone"
            )
            #expect(phone.platform == .apns && phone.name == "Anna's iPhone" && phone.service == "api.push.apple.com")
            #expect(
                try await anna.registerForPush(
                    deviceToken: Data((0..<32).map { UInt8($0) }),
                    topic: "com.example.plaza"
                ).id == phone.id
            )
            #expect(try await anna.devices().count == 1, "the same token registered again is one device")

            let subscription = receiver.subscribe()
            let browser = try await anna.registerDevice(
                DeviceRegistration(platform: .webpush, subscription: subscription, name: "Web view")
            )
            #expect(try await anna.webPushKey().publicKey.count == 87)
            _ = try await bruno.requestPayment(
                CreatePaymentRequest(to: "anna", amount: 650, currency: "USD", note: "Pizza")
            )
            let arrived = try await receiver.waitFor(1, to: subscription)
            let payload = try #require(try arrived.first?.payload())
            #expect(
                payload.title == "Bruno asks you to pay $6.50." && payload.body == "Pizza"
                    && payload.link == "/wallet/charges"
            )

            var chosen = try await anna.notificationPreferences()
            #expect(chosen.kinds.count == NotificationKind.allCases.count)
            chosen.kinds = [KindPreference(kind: .moneyAnswers, push: false, email: true)]
            chosen.quietHours = QuietHours(from: "21:30", until: "06:00")
            let saved = try await anna.setNotificationPreferences(chosen)
            #expect(saved.preference(.moneyAnswers) == KindPreference(kind: .moneyAnswers, push: false, email: true))
            #expect(saved.preference(.moneyRequests).push && saved.quietHours?.from == "21:30")

            try await anna.removeDevice(browser.id)
            #expect(try await anna.devices().map(\.id) == [phone.id])
            await #expect(throws: PlazaClientError.self) { try await bruno.removeDevice(phone.id) }
        }
    }
}
