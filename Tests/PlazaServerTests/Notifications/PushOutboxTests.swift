import Foundation
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// The push outbox shared by several processes: each notification reaches the device once.
@Suite struct PushOutboxTests {
    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func twoProcessesSendingTheSameOutboxSendEachNotificationOnce() async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withSharedServices(.postgres, configure: { $0.push.hosts = [receiver.origin] }) {
            first,
            second in
            let subscription = receiver.subscribe()
            let user = UUID()
            let store = first.notifications.store
            try await first.database.transaction { db in
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
                _ = try await store.saveDevice(
                    DeviceRecord(
                        id: UUID(),
                        userID: user,
                        platform: .webpush,
                        name: "Zoe's laptop",
                        address: subscription.endpoint,
                        p256dh: subscription.keys.p256dh,
                        auth: subscription.keys.auth,
                        topic: nil,
                        createdAt: Date(),
                        lastDeliveredAt: nil
                    ),
                    on: db
                )
            }
            let content = NotificationContent(
                kind: .moneyReceived,
                title: "Carla K. sent you $1.00.",
                body: "",
                link: "/wallet"
            )
            let alerts = (0..<120).map { _ in (id: UUID(), user: user, content: content) }
            try await first.database.transaction { db in try await store.enqueue(alerts, now: Date(), on: db) }
            // Both processes work the same outbox at once, twice over.
            for _ in 0..<2 {
                async let one: Void = first.notificationDelivery.round()
                async let two: Void = second.notificationDelivery.round()
                _ = await (one, two)
            }
            let arrived = try await receiver.waitFor(120, to: subscription)
            try await Task.sleep(for: .milliseconds(300))
            let ids = try receiver.messages(to: subscription).map { try $0.payload().id }
            #expect(
                ids.count == 120 && Set(ids) == Set(alerts.map(\.id)),
                "each notification once: \(ids.count) arrived"
            )
            #expect(Set(ids).count == ids.count, "no notification twice")
            #expect(arrived.count == 120 && receiver.failures.isEmpty)
        }
    }
}
