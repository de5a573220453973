import Foundation

/// The rules an account's fields follow, shared by the server, the web pages and the SDK.
///
/// Each rule returns a message for the user, or `nil` when the value is acceptable.
public enum AccountRules {
    public static let passwordMinimumLength = 10
    public static let passwordMaximumLength = 128
    public static let usernameLength = 3...30
    public static let displayNameLength = 1...60
    public static let emailMaximumLength = 254
    public static let minimumAge = 13

    /// Usernames are stored lower-case; this is what the user typed, trimmed and folded.
    public static func normalizedUsername(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// A person named the way payment apps do: `carla`, `@carla` or `$carla` all mean the username `carla`.
    public static func handle(_ raw: String) -> String {
        let trimmed = normalizedUsername(raw)
        guard let first = trimmed.first, first == "@" || first == "$" else { return trimmed }
        return String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces)
    }

    /// E-mail addresses compare case-insensitively; stored trimmed and lower-cased.
    public static func normalizedEmail(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespaces).lowercased()
    }

    public static func usernameProblem(_ username: String) -> String? {
        guard usernameLength.contains(username.count) else { return "Use 3 to 30 characters." }
        let allowed = username.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "."
        }
        return allowed ? nil : "Use only lower-case letters, digits, '_' and '.'."
    }

    /// A pragmatic check: one `@`, a non-empty local part, a dotted domain, no spaces or control characters.
    public static func emailProblem(_ email: String) -> String? {
        guard !email.isEmpty, email.count <= emailMaximumLength else { return "Enter an e-mail address." }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return "Enter a valid e-mail address." }
        let domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 }) else {
            return "Enter a valid e-mail address."
        }
        let forbidden = email.unicodeScalars.contains {
            $0.properties.isWhitespace || $0.value < 0x20 || "<>(),;:\"[]\\".unicodeScalars.contains($0)
        }
        return forbidden ? "Enter a valid e-mail address." : nil
    }

    public static func displayNameProblem(_ name: String) -> String? {
        ShownText.problem(name.trimmingCharacters(in: .whitespacesAndNewlines), length: displayNameLength)
    }

    /// Length rules only; the server also refuses the most common passwords.
    public static func passwordProblem(_ password: String) -> String? {
        if password.count < passwordMinimumLength { return "Use at least \(passwordMinimumLength) characters." }
        if password.utf8.count > passwordMaximumLength { return "Use at most \(passwordMaximumLength) bytes." }
        return nil
    }

    /// `YYYY-MM-DD`, a real date, in the past, and the user at least 13 years old at `now`.
    public static func birthDateProblem(_ text: String, now: Date) -> String? {
        guard let date = parseBirthDate(text) else { return "Use the form YYYY-MM-DD." }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let adult = calendar.date(byAdding: .year, value: minimumAge, to: date), adult <= now else {
            return "You must be at least \(minimumAge) years old."
        }
        guard let oldest = calendar.date(byAdding: .year, value: -130, to: now), date >= oldest else {
            return "Enter a real birth date."
        }
        return nil
    }

    /// The date at UTC midnight, or `nil` when `text` is not a valid `YYYY-MM-DD`.
    public static func parseBirthDate(_ text: String) -> Date? {
        let parts = text.split(separator: "-")
        guard text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2])
        else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date
    }

    /// Verification and reset codes are six digits.
    public static func isCodeShaped(_ code: String) -> Bool {
        code.count == 6 && code.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension RegisterRequest {
    /// Every field problem of this sign-up, in form order; `languages`, the server's, checks `language`.
    public func fieldErrors(now: Date, languages: LanguageList? = nil) -> [FieldError] {
        var validator = Validator()
        validator.apply(AccountRules.emailProblem(AccountRules.normalizedEmail(email)), to: "email")
        validator.apply(AccountRules.usernameProblem(AccountRules.normalizedUsername(username)), to: "username")
        validator.apply(AccountRules.displayNameProblem(displayName), to: "displayName")
        validator.apply(AccountRules.passwordProblem(password), to: "password")
        validator.check(
            role == .customer || role == .merchant,
            "role",
            "Choose customer or merchant (an admin makes designers and admins)."
        )
        if let birthDate { validator.apply(AccountRules.birthDateProblem(birthDate, now: now), to: "birthDate") }
        if let language, let languages { validator.apply(languages.problem(choosing: language), to: "language") }
        return validator.errors
    }
}

extension ProfileUpdate {
    /// Every field problem of this profile change; `languages`, the server's, checks `language`.
    public func fieldErrors(now: Date, languages: LanguageList? = nil) -> [FieldError] {
        var validator = Validator()
        if let displayName { validator.apply(AccountRules.displayNameProblem(displayName), to: "displayName") }
        if let birthDate, !birthDate.isEmpty {
            validator.apply(AccountRules.birthDateProblem(birthDate, now: now), to: "birthDate")
        }
        if let timeZone, !timeZone.isEmpty {
            validator.check(
                TimeZone(identifier: timeZone) != nil,
                "timeZone",
                "Choose a time zone from the list, such as Europe/Berlin."
            )
        }
        if let language, let languages { validator.apply(languages.problem(choosing: language), to: "language") }
        return validator.errors
    }
}
