import Foundation

/// An account as its owner sees it.
public struct User: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var email: String
    public var username: String
    public var displayName: String
    public var role: Role
    public var emailVerified: Bool
    /// `YYYY-MM-DD`, when given.
    public var birthDate: String?
    public var gender: Gender?
    public var student: Bool
    /// The IANA time zone the user chose for dates (`Europe/Berlin`); without one, pages use the browser's.
    public var timeZone: String?
    /// The BCP 47 tag of the language the user chose for pages, mails and pushes (`de`, `es`, `en-XA`), one that
    /// `GET /v1/languages` lists; nil: none chosen (the browser's, else the operator's default).
    public var language: String?
    /// Merchants only: whether an admin approved them (until then their businesses are not public and they cannot
    /// charge), with the reason when refused.
    public var merchantApproval: MerchantApproval?
    public var createdAt: Date

    public init(
        id: UUID,
        email: String,
        username: String,
        displayName: String,
        role: Role,
        emailVerified: Bool,
        birthDate: String? = nil,
        gender: Gender? = nil,
        student: Bool = false,
        timeZone: String? = nil,
        language: String? = nil,
        merchantApproval: MerchantApproval? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.email = email
        self.username = username
        self.displayName = displayName
        self.role = role
        self.emailVerified = emailVerified
        self.birthDate = birthDate
        self.gender = gender
        self.student = student
        self.timeZone = timeZone
        self.language = language
        self.merchantApproval = merchantApproval
        self.createdAt = createdAt
    }
}

/// Someone as others see them (`GET /v1/people/{username}`, `GET /v1/me/contacts`): enough to be sure who gets
/// the money before it moves.
public struct Person: Codable, Sendable, Hashable {
    public var username: String
    public var displayName: String

    public init(username: String, displayName: String) {
        self.username = username
        self.displayName = displayName
    }

    /// "CK" for Carla Kim: the letters of a picture when there is no photo.
    public var initials: String {
        let words = displayName.split(whereSeparator: { $0 == " " || $0 == "-" }).prefix(2)
        let letters = words.compactMap(\.first).map { String($0).uppercased() }.joined()
        return letters.isEmpty ? String(username.prefix(1)).uppercased() : letters
    }

    /// "Carla K.": the name as a payment's confirmation says it (the first name and the last name's initial).
    public var shortName: String {
        let words = displayName.split(separator: " ")
        guard words.count > 1, let last = words.last?.first else { return displayName }
        return "\(words.dropLast().joined(separator: " ")) \(last)."
    }
}

/// `POST /v1/auth/register`. Admin accounts are made with `plaza admin create`, never here.
public struct RegisterRequest: Codable, Sendable, Hashable {
    public var email: String
    public var username: String
    public var displayName: String
    public var password: String
    public var role: Role
    public var birthDate: String?
    public var gender: Gender?
    public var student: Bool?
    /// A language tag `GET /v1/languages` lists (`de`), in any case; absent: none chosen.
    public var language: String?

    public init(
        email: String,
        username: String,
        displayName: String,
        password: String,
        role: Role = .customer,
        birthDate: String? = nil,
        gender: Gender? = nil,
        student: Bool? = nil,
        language: String? = nil
    ) {
        self.email = email
        self.username = username
        self.displayName = displayName
        self.password = password
        self.role = role
        self.birthDate = birthDate
        self.gender = gender
        self.student = student
        self.language = language
    }
}

/// `POST /v1/auth/verify-email`.
public struct VerifyEmailRequest: Codable, Sendable, Hashable {
    public var email: String
    public var code: String
    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}

/// `POST /v1/auth/resend-code` and `POST /v1/auth/forgot-password`.
public struct EmailRequest: Codable, Sendable, Hashable {
    public var email: String
    public init(email: String) { self.email = email }
}

/// `POST /v1/auth/login`: `login` is the e-mail address or the username.
public struct LoginRequest: Codable, Sendable, Hashable {
    public var login: String
    public var password: String
    /// A name for this device, shown in the session list ("Anna's iPhone").
    public var device: String?
    /// The `deviceToken` of an earlier log-in of this account on this device: while someone else's wrong
    /// passwords slow the account down, the right password from a device it signed in on before still works.
    public var deviceToken: String?
    public init(login: String, password: String, device: String? = nil, deviceToken: String? = nil) {
        self.login = login
        self.password = password
        self.device = device
        self.deviceToken = deviceToken
    }
}

/// The answer to a log-in or a refresh.
public struct TokenResponse: Codable, Sendable, Hashable {
    public var accessToken: String
    public var refreshToken: String
    /// Seconds until `accessToken` expires.
    public var expiresIn: Int
    public var user: User
    /// From a log-in (not a refresh): keep it on the device and send it with the next log-in (`LoginRequest.deviceToken`).
    public var deviceToken: String?
    public init(accessToken: String, refreshToken: String, expiresIn: Int, user: User, deviceToken: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.user = user
        self.deviceToken = deviceToken
    }
}

/// `POST /v1/auth/refresh` and `POST /v1/auth/logout`.
public struct RefreshRequest: Codable, Sendable, Hashable {
    public var refreshToken: String
    public init(refreshToken: String) { self.refreshToken = refreshToken }
}

/// One signed-in device of the account, in `GET /v1/me/sessions`.
public struct SessionInfo: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var device: String
    public var createdAt: Date
    public var lastSeenAt: Date
    /// True for the session the request itself was made with.
    public var current: Bool
    public init(id: UUID, device: String, createdAt: Date, lastSeenAt: Date, current: Bool) {
        self.id = id
        self.device = device
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.current = current
    }
}

/// `PATCH /v1/me`: only the fields present change; `clear` lists optional fields to erase.
public struct ProfileUpdate: Codable, Sendable, Hashable {
    public var displayName: String?
    public var birthDate: String?
    public var gender: Gender?
    public var student: Bool?
    /// An IANA time zone (`America/New_York`); an empty string goes back to the browser's.
    public var timeZone: String?
    /// A language tag `GET /v1/languages` lists (`de`), in any case; an empty string: none chosen.
    public var language: String?
    public init(
        displayName: String? = nil,
        birthDate: String? = nil,
        gender: Gender? = nil,
        student: Bool? = nil,
        timeZone: String? = nil,
        language: String? = nil
    ) {
        self.displayName = displayName
        self.birthDate = birthDate
        self.gender = gender
        self.student = student
        self.timeZone = timeZone
        self.language = language
    }

    /// A field left out stays as it is; `null` is refused (see `decodeUnlessNull`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try container.decodeUnlessNull(String.self, forKey: .displayName)
        birthDate = try container.decodeUnlessNull(String.self, forKey: .birthDate)
        gender = try container.decodeUnlessNull(Gender.self, forKey: .gender)
        student = try container.decodeUnlessNull(Bool.self, forKey: .student)
        timeZone = try container.decodeUnlessNull(String.self, forKey: .timeZone)
        language = try container.decodeUnlessNull(String.self, forKey: .language)
    }
}

/// `POST /v1/me/password`.
public struct ChangePasswordRequest: Codable, Sendable, Hashable {
    public var currentPassword: String
    public var newPassword: String
    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}

/// `POST /v1/me/email`: the new address must be verified again.
public struct ChangeEmailRequest: Codable, Sendable, Hashable {
    public var email: String
    public var password: String
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// `DELETE /v1/me`: the password confirms that the owner, not a stolen token, asks.
public struct DeleteAccountRequest: Codable, Sendable, Hashable {
    public var password: String
    public init(password: String) { self.password = password }
}

/// `POST /v1/auth/reset-password`.
public struct ResetPasswordRequest: Codable, Sendable, Hashable {
    public var email: String
    public var code: String
    public var newPassword: String
    public init(email: String, code: String, newPassword: String) {
        self.email = email
        self.code = code
        self.newPassword = newPassword
    }
}

/// A plain acknowledgement (`{"status": "ok"}`) for calls with nothing else to say.
public struct Acknowledgement: Codable, Sendable, Hashable {
    public var status: String
    public init(status: String = "ok") { self.status = status }
}
