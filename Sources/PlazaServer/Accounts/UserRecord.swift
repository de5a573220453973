import Foundation
import PlazaCore
import SQLKit

/// A row of `users`, as the server works with it (the API shows `User`).
struct UserRecord: Sendable, Equatable {
    var id: UUID
    var email: String
    var username: String
    var displayName: String
    var passwordHash: String
    var role: Role
    var emailVerified: Bool
    var birthDate: String?
    var gender: Gender?
    var student: Bool
    var createdAt: Date
    var updatedAt: Date

    static let columns = [
        "id", "email", "username", "display_name", "password_hash", "role", "email_verified", "birth_date", "gender", "student",
        "created_at", "updated_at",
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
        createdAt = try row.decode(column: "created_at", as: Date.self)
        updatedAt = try row.decode(column: "updated_at", as: Date.self)
    }

    init(
        id: UUID = UUID(), email: String, username: String, displayName: String, passwordHash: String, role: Role,
        emailVerified: Bool = false, birthDate: String? = nil, gender: Gender? = nil, student: Bool = false, now: Date
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
        createdAt = now
        updatedAt = now
    }

    /// The values in `columns` order, for inserts.
    var values: [any SQLExpression] {
        [
            SQLBind(id), SQLBind(email), SQLBind(username), SQLBind(displayName), SQLBind(passwordHash), SQLBind(role.rawValue),
            SQLBind(emailVerified), SQLBind(birthDate), SQLBind(gender?.rawValue), SQLBind(student), SQLBind(createdAt), SQLBind(updatedAt),
        ]
    }

    var dto: User {
        User(
            id: id, email: email, username: username, displayName: displayName, role: role, emailVerified: emailVerified,
            birthDate: birthDate, gender: gender, student: student, createdAt: createdAt)
    }
}
