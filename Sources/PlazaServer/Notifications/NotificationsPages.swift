import Foundation
import Hummingbird
import PlazaCore

/// `/account/notifications`: which alerts reach the user, by push or e-mail, quiet hours, and the devices that get
/// them. A browser is added only when the person turns notifications on (the permission prompt follows that tap).
struct NotificationsPages: Sendable {
    let notifications: NotificationService
    let renderer: PageRenderer
    let maxBody: Int

    static let notices: [String: String] = [
        "saved": phrase("Your notification choices were saved."),
        "device-added": phrase("Notifications are on for this device."),
        "device-removed": phrase("That device gets no more notifications."),
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("account/notifications", context: AuthenticatedContext.self)
        signedIn.get("", use: page)
        signedIn.post("", use: save)
        signedIn.post("devices", use: addDevice)
        signedIn.post("devices/:id/delete", use: removeDevice)
    }

    struct KindRow: Sendable {
        var kind: String
        var label: String
        var push: Bool
        var email: Bool
        var urgent: Bool
        /// A line under the label (`presence`: whom it is about and how often).
        var hint: String?
    }

    struct DeviceRow: Sendable {
        var id: String
        var name: String
        var service: String
        var added: String
        var lastDelivered: String?
    }

    struct SettingsPage: Sendable {
        var shell: Shell
        var kinds: [KindRow]
        var quiet: Bool
        var quietFrom: String
        var quietUntil: String
        var timeZone: String
        var devices: [DeviceRow]
        var hasDevices: Bool
        var devicesLabel: String
        var publicKey: String
    }

    @Sendable func page(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let reader = context.reader
        let preferences = try await notifications.preferences(context.identity)
        let devices = try await notifications.devices(context.identity)
        // Only people who work at a business are offered the push about its customers.
        let staff = try await notifications.worksAtABusiness(context.identity)
        let notice = request.uri.queryParameters.get("notice").flatMap { Self.notices[$0] }.map { say($0) }
        let page = SettingsPage(
            shell: Shell(title: say("Notifications"), context: context, notice: notice),
            kinds: preferences.kinds.filter { staff || $0.kind != .presence }.map {
                KindRow(
                    kind: $0.kind.rawValue,
                    label: Self.kindName($0.kind),
                    push: $0.push,
                    email: $0.email,
                    urgent: $0.kind.urgent,
                    hint: $0.kind == .presence ? Self.presenceHint : nil
                )
            },
            quiet: preferences.quietHours != nil,
            quietFrom: preferences.quietHours?.from ?? "22:00",
            quietUntil: preferences.quietHours?.until ?? "07:00",
            timeZone: preferences.timeZone ?? "UTC",
            devices: devices.map {
                DeviceRow(
                    id: $0.id.uuidString.lowercased(),
                    name: $0.name,
                    service: $0.service,
                    added: reader.when($0.createdAt),
                    lastDelivered: $0.lastDeliveredAt.map { reader.when($0) }
                )
            },
            hasDevices: !devices.isEmpty,
            devicesLabel: reader.count(devices.count, "count.device"),
            publicKey: notifications.webPushKey.publicKey
        )
        return renderer.render("notifications/settings", page)
    }

    static var presenceHint: String {
        say(
            "For staff: someone who paid here before arrives and shares their location with businesses. "
                + "At most once per customer every {hours} hours, {count} an hour.",
            [
                "hours": "\(Int(NotificationRules.presenceRepeatWindow / 3_600))",
                "count": "\(NotificationRules.presencePerHour)",
            ]
        )
    }

    /// `NotificationKind.label` in the reader's words.
    static func kindName(_ kind: NotificationKind) -> String {
        switch kind {
        case .moneyRequests: say("Requests to pay")
        case .moneyAnswers: say("Answers to my charges and requests")
        case .moneyReceived: say("Money received")
        case .account: say("Account and security")
        case .loyalty: say("Loyalty cards")
        case .offers: say("Offers and coupons")
        case .market: say("Campus marketplace")
        case .presence: say("When a customer you know walks in")
        }
    }

    /// The form: each kind's two boxes, and quiet hours when their box is ticked.
    @Sendable func save(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let kinds = NotificationKind.allCases.map {
            KindPreference(
                kind: $0,
                push: form["push-\($0.rawValue)"] == "on",
                email: form["email-\($0.rawValue)"] == "on"
            )
        }
        let quiet = form["quiet"] == "on" ? QuietHours(from: form["quietFrom"], until: form["quietUntil"]) : nil
        do {
            _ = try await notifications.savePreferences(
                context.identity,
                NotificationPreferences(kinds: kinds, quietHours: quiet)
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                alert: say("Not saved: {reason}", ["reason": error.sentence]),
                returnTo: "/account/notifications#quiet"
            )
        }
        return PageRenderer.seeOther("/account/notifications?notice=saved")
    }

    /// The page script's: this browser's push subscription (JSON, with the CSRF header).
    @Sendable func addDevice(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let registration = try await request.decodeJSON(as: DeviceRegistration.self, limit: maxBody)
        return try .json(
            try await notifications.register(context.identity, registration, userAgent: request.headers[.userAgent]),
            status: .created
        )
    }

    @Sendable func removeDevice(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        try await notifications.deleteDevice(context.identity, id: try Query.id(context.parameters, "id", "device"))
        return PageRenderer.seeOther("/account/notifications?notice=device-removed")
    }
}
