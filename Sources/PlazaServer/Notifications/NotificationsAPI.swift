import Foundation
import Hummingbird
import PlazaCore

/// `/v1/me/devices*`, `/v1/me/notifications` and `/v1/notifications/web-push-key` of `openapi.yaml`: where a user's
/// push notifications go, and which ones they get.
struct NotificationsAPI: Sendable {
    let notifications: NotificationService
    let maxBody: Int

    func addRoutes(to v1: RouterGroup<AppRequestContext>, authenticated: RouterGroup<AuthenticatedContext>) {
        v1.get("notifications/web-push-key", use: webPushKey)
        authenticated.get("me/devices", use: devices)
        authenticated.post("me/devices", use: register)
        authenticated.delete("me/devices/:id", use: deleteDevice)
        authenticated.get("me/notifications", use: preferences)
        authenticated.put("me/notifications", use: savePreferences)
    }

    /// Anyone: the key browsers subscribe with (`applicationServerKey`).
    @Sendable func webPushKey(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(notifications.webPushKey)
    }

    @Sendable func devices(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await notifications.devices(context.identity), nextCursor: nil))
    }

    /// Signed in: a browser's subscription or a phone's token; 201 with the device.
    @Sendable func register(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let registration = try await request.decodeJSON(as: DeviceRegistration.self, limit: maxBody)
        return try .json(
            try await notifications.register(context.identity, registration, userAgent: request.headers[.userAgent]),
            status: .created
        )
    }

    @Sendable func deleteDevice(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await notifications.deleteDevice(context.identity, id: try Query.id(context.parameters, "id", "device"))
        return .noContent
    }

    @Sendable func preferences(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await notifications.preferences(context.identity))
    }

    @Sendable func savePreferences(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let preferences = try await request.decodeJSON(as: NotificationPreferences.self, limit: maxBody)
        return try .json(try await notifications.savePreferences(context.identity, preferences))
    }
}
