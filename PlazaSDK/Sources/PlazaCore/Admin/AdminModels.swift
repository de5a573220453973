import Foundation

/// An account as an admin sees it (`GET /v1/admin/users`): who it is and its standing, never its location history,
/// messages or payments.
public struct AdminUser: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var username: String
    public var displayName: String
    public var email: String
    public var role: Role
    public var emailVerified: Bool
    public var createdAt: Date
    /// When an admin suspended it, and why (the user is told the reason).
    public var suspendedAt: Date?
    public var suspensionReason: String?
    /// Merchants only: approved, pending or refused (with the reason).
    public var merchantApproval: MerchantApproval?

    public init(
        id: UUID,
        username: String,
        displayName: String,
        email: String,
        role: Role,
        emailVerified: Bool,
        createdAt: Date,
        suspendedAt: Date?,
        suspensionReason: String?,
        merchantApproval: MerchantApproval? = nil
    ) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.email = email
        self.role = role
        self.emailVerified = emailVerified
        self.createdAt = createdAt
        self.suspendedAt = suspendedAt
        self.suspensionReason = suspensionReason
        self.merchantApproval = merchantApproval
    }
}

/// `POST /v1/admin/users/{id}/suspend`: the reason the user is told.
public struct SuspendRequest: Codable, Sendable, Hashable {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// `PUT /v1/admin/users/{id}/role`.
public struct RoleChange: Codable, Sendable, Hashable {
    public var role: Role

    public init(role: Role) {
        self.role = role
    }
}

/// One line of the audit log: who did what to which object, why, when. Entries are never changed or removed.
public struct AuditEntry: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var at: Date
    public var admin: String
    /// `user.suspend`, `user.reinstate`, `user.role`, ...
    public var action: String
    public var objectKind: String
    public var objectId: String
    public var reason: String?
    public var detail: String?

    public init(
        id: UUID,
        at: Date,
        admin: String,
        action: String,
        objectKind: String,
        objectId: String,
        reason: String?,
        detail: String?
    ) {
        self.id = id
        self.at = at
        self.admin = admin
        self.action = action
        self.objectKind = objectKind
        self.objectId = objectId
        self.reason = reason
        self.detail = detail
    }
}

/// What an admin's decisions must satisfy.
public enum AdminRules {
    /// A reason the user will read: 3 to 500 characters.
    public static func reasonProblem(_ reason: String) -> String? {
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        return (3...500).contains(trimmed.count) ? nil : "Give the reason the person will read, 3 to 500 characters."
    }
}

extension AdminRules {
    /// An audit log action in words ("user.suspend" → "Suspended an account").
    public static func actionLabel(_ action: String) -> String {
        switch action {
        case "user.suspend": "Suspended an account"
        case "user.reinstate": "Reinstated an account"
        case "user.role": "Changed a role"
        case "review.approve": "Approved"
        case "review.reject": "Rejected"
        default: action
        }
    }

    /// An audit log action done to a named person ("user.suspend" → "Suspended"), followed on the page by the name.
    public static func actionVerb(_ action: String) -> String {
        switch action {
        case "user.suspend": "Suspended"
        case "user.reinstate": "Reinstated"
        case "user.role": "Changed the role of"
        default: actionLabel(action)
        }
    }
}
