import Foundation
import PlazaCore
import SQLKit

/// A row of `users`, as the server works with it (the API shows `User`).
package struct UserRecord: Sendable, Equatable {
    package var id: UUID
    package var email: String
    package var username: String
    package var displayName: String
    package var passwordHash: String
    package var role: Role
    package var emailVerified: Bool
    package var birthDate: String?
    package var gender: Gender?
    package var student: Bool
    package var timeZone: String?
    /// An offered language tag the user chose (`de`); nil: none chosen.
    package var language: String?
    /// A merchant's standing (nil for everyone else): pending until an admin decides.
    package var approval: ApprovalState?
    package var approvalReason: String?
    package var createdAt: Date
    package var updatedAt: Date

    package static let columns = [
        "id", "email", "username", "display_name", "password_hash", "role", "email_verified", "birth_date", "gender",
        "student",
        "time_zone", "approval", "approval_reason", "created_at", "updated_at", "language",
    ]

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        email = try row.decode(column: "email", as: String.self)
        username = try row.decode(column: "username", as: String.self)
        displayName = try row.decode(column: "display_name", as: String.self)
        passwordHash = try row.decode(column: "password_hash", as: String.self)
        role = Role(rawValue: try row.decode(column: "role", as: String.self)) ?? .customer
        emailVerified = try row.decode(column: "email_verified", as: Bool.self)
        birthDate = try row.decode(column: "birth_date", as: String?.self)
        gender = try row.decode(column: "gender", as: String?.self).flatMap(Gender.init(rawValue:))
        student = try row.decode(column: "student", as: Bool.self)
        timeZone = try row.decode(column: "time_zone", as: String?.self)
        approval = try row.decode(column: "approval", as: String?.self).flatMap(ApprovalState.init(rawValue:))
        approvalReason = try row.decode(column: "approval_reason", as: String?.self)
        createdAt = try row.decode(column: "created_at", as: Date.self)
        updatedAt = try row.decode(column: "updated_at", as: Date.self)
        language = try row.decode(column: "language", as: String?.self)
    }

    package init(
        id: UUID = UUID(),
        email: String,
        username: String,
        displayName: String,
        passwordHash: String,
        role: Role,
        emailVerified: Bool = false,
        birthDate: String? = nil,
        gender: Gender? = nil,
        student: Bool = false,
        language: String? = nil,
        now: Date
    ) {
        self.id = id
        self.email = email
        self.username = username
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.role = role
        self.emailVerified = emailVerified
        self.birthDate = birthDate
        self.gender = gender
        self.student = student
        self.language = language
        // A merchant starts pending; who creates one approved (the operator's CLI, the demo) says so.
        approval = role == .merchant ? .pending : nil
        createdAt = now
        updatedAt = now
    }

    /// A merchant an admin has not approved: their businesses are not public, they cannot charge or advertise, and what
    /// they change of their businesses goes to the admin's review (a refused merchant who changes it asks again).
    package var awaitsApproval: Bool {
        role == .merchant && (approval == .pending || approval == .rejected)
    }

    /// The values in `columns` order, for inserts.
    package var values: [any SQLExpression] {
        [
            SQLBind(id), SQLBind(email), SQLBind(username), SQLBind(displayName), SQLBind(passwordHash),
            SQLBind(role.rawValue),
            SQLBind(emailVerified), SQLBind(birthDate), SQLBind(gender?.rawValue), SQLBind(student), SQLBind(timeZone),
            SQLBind(approval?.rawValue),
            SQLBind(approvalReason), SQLBind(createdAt),
            SQLBind(updatedAt), SQLBind(language),
        ]
    }

    var dto: User {
        User(
            id: id,
            email: email,
            username: username,
            displayName: displayName,
            role: role,
            emailVerified: emailVerified,
            birthDate: birthDate,
            gender: gender,
            student: student,
            timeZone: timeZone,
            language: language,
            merchantApproval: approval.map { MerchantApproval(state: $0, reason: approvalReason) },
            createdAt: createdAt
        )
    }
}
