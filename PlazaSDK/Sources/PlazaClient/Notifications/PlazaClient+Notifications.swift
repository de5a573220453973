import Foundation
import PlazaCore

extension PlazaClient {
    /// Registers this iPhone for push notifications: the APNs device token (as `didRegisterForRemoteNotifications`
    /// hands it over) and the app's bundle id. Call it on every launch; the same token is kept once.
    @discardableResult
    public func registerForPush(deviceToken: Data, topic: String, name: String? = nil) async throws -> Device {
        let token = deviceToken.map { String(format: "%02x", $0) }.joined()
        return try await registerDevice(DeviceRegistration(platform: .apns, token: token, topic: topic, name: name))
    }

    /// Registers an Android app for push notifications through FCM: the registration token Firebase hands over
    /// (`FirebaseMessaging.getToken`, `onNewToken`). Call it whenever the token changes; the same token is kept once.
    @discardableResult
    public func registerForPush(fcmToken: String, name: String? = nil) async throws -> Device {
        try await registerDevice(DeviceRegistration(platform: .fcm, token: fcmToken, name: name))
    }

    /// Registers a device (an APNs or FCM token, or a Web Push subscription) for the caller's push notifications.
    @discardableResult
    public func registerDevice(_ registration: DeviceRegistration) async throws -> Device {
        try await send("POST", "v1/me/devices", body: registration, auth: .required)
    }

    /// The devices that get the caller's push notifications.
    public func devices() async throws -> [Device] {
        let page: Page<Device> = try await send("GET", "v1/me/devices", auth: .required)
        return page.items
    }

    /// Stops push notifications to one of the caller's devices (on log-out from this device, for one).
    public func removeDevice(_ id: UUID) async throws {
        try await sendVoid("DELETE", "v1/me/devices/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Which kinds reach the caller by push or e-mail, and their quiet hours.
    public func notificationPreferences() async throws -> NotificationPreferences {
        try await send("GET", "v1/me/notifications", auth: .required)
    }

    /// Saves the kinds given (the others keep their setting) and the quiet hours (nil: none).
    @discardableResult
    public func setNotificationPreferences(
        _ preferences: NotificationPreferences
    ) async throws -> NotificationPreferences {
        try await send("PUT", "v1/me/notifications", body: preferences, auth: .required)
    }

    /// The key a web view's `pushManager.subscribe` needs (`applicationServerKey`).
    public func webPushKey() async throws -> WebPushKey {
        try await send("GET", "v1/notifications/web-push-key")
    }
}
