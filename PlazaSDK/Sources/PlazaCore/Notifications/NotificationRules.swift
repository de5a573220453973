import Foundation

/// What a device registration and notification preferences must satisfy, and when quiet hours end.
public enum NotificationRules {
    /// Devices per user: enough for every phone, tablet and browser a person has.
    public static let maxDevices = 20

    /// Every problem of `registration`'s shape. Which push services an endpoint may name is the server's to decide.
    public static func registrationProblems(_ registration: DeviceRegistration) -> [FieldError] {
        var validator = Validator()
        validator.check((registration.name ?? "").count <= 60, "name", "Use at most 60 characters.")
        switch registration.platform {
        case .webpush:
            guard let subscription = registration.subscription else {
                validator.check(false, "subscription", "Send the browser's push subscription (endpoint and keys).")
                return validator.errors
            }
            validator.apply(endpointProblem(subscription.endpoint), to: "subscription.endpoint")
            let key = Data(base64URL: subscription.keys.p256dh)
            validator.check(
                key?.count == 65 && key?.first == 4,
                "subscription.keys.p256dh",
                "This is not a P-256 public key (65 bytes, base64url)."
            )
            validator.check(
                Data(base64URL: subscription.keys.auth)?.count == 16,
                "subscription.keys.auth",
                "The auth secret is 16 bytes, base64url."
            )
        case .apns:
            let token = registration.token ?? ""
            validator.check(
                (64...200).contains(token.count) && token.count.isMultiple(of: 2) && token.allSatisfy(\.isHexDigit),
                "token",
                "Send the device token as hexadecimal digits."
            )
            let topic = registration.topic ?? ""
            validator.check(
                (3...200).contains(topic.count)
                    && topic.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) },
                "topic",
                "Send the app's bundle id, such as com.example.plaza."
            )
        case .fcm:
            validator.check(
                fcmTokenIsWellFormed(registration.token ?? ""),
                "token",
                "Send the registration token Firebase gave the app."
            )
        }
        return validator.errors
    }

    /// An FCM registration token: 32 to 4,096 characters of letters, digits and `-_:.` (Firebase's are about 160).
    public static func fcmTokenIsWellFormed(_ token: String) -> Bool {
        (32...4096).contains(token.count)
            && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_:.".contains($0)) }
    }

    /// A `presence` push for the same customer at the same business reaches a staff member once in this many seconds.
    public static let presenceRepeatWindow: TimeInterval = 3 * 3_600
    /// `presence` pushes a staff member gets in an hour at most (a busy shop's regulars do not flood a phone).
    public static let presencePerHour = 6

    /// How a `presence` push names the customer: "Anna Keller" → "Anna K." (one name stays as it is).
    public static func shortName(_ displayName: String) -> String {
        let words = displayName.split(separator: " ")
        guard let first = words.first else { return "A customer" }
        guard words.count > 1, let initial = words.last?.first else { return String(first) }
        return "\(first) \(initial)."
    }

    /// An endpoint must be an absolute address with a host, at most 1,000 characters.
    public static func endpointProblem(_ endpoint: String) -> String? {
        guard endpoint.count <= 1000, let url = URL(string: endpoint), url.scheme != nil, let host = url.host,
            !host.isEmpty
        else {
            return "This is not a push service address."
        }
        return nil
    }

    /// Every problem of a preferences update.
    public static func preferencesProblems(_ preferences: NotificationPreferences) -> [FieldError] {
        var validator = Validator()
        let kinds = preferences.kinds.map(\.kind)
        validator.check(Set(kinds).count == kinds.count, "kinds", "Name each kind once.")
        if let quiet = preferences.quietHours {
            let (from, until) = (minutes(quiet.from), minutes(quiet.until))
            validator.check(from != nil, "quietHours.from", "Use HH:MM, such as 22:00.")
            validator.check(until != nil, "quietHours.until", "Use HH:MM, such as 07:00.")
            if let from, let until {
                validator.check(
                    from != until,
                    "quietHours.until",
                    "Quiet hours need an end different from their start."
                )
            }
        }
        return validator.errors
    }

    /// `HH:MM` from 00:00 to 23:59, in minutes.
    public static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int(parts[0]),
            let minutes = Int(parts[1]),
            (0...23).contains(hours), (0...59).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    /// When the quiet hours that `now` falls in end, in `timeZone`; `nil` when `now` is not quiet.
    public static func quietUntil(_ quiet: QuietHours?, now: Date, timeZone: TimeZone) -> Date? {
        guard let quiet, let from = minutes(quiet.from), let until = minutes(quiet.until) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        let current = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        // "22:00 to 07:00" runs over midnight; "13:00 to 14:00" does not.
        let quietNow = from < until ? (from <= current && current < until) : (current >= from || current < until)
        guard quietNow else { return nil }
        let end = DateComponents(hour: until / 60, minute: until % 60)
        return calendar.nextDate(after: now, matching: end, matchingPolicy: .nextTime)
    }
}
