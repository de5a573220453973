import Foundation
import SQLKit

/// All SQL about the six-digit codes sent by e-mail (verification and password reset).
struct CodeStore: Sendable {
    enum Purpose: String {
        case verifyEmail = "verify_email"
        case resetPassword = "reset_password"
        /// A university address the signed-in user claims (the campus marketplace).
        case campusEmail = "campus_email"
    }

    enum Outcome: Equatable {
        case accepted(email: String)
        case invalid
        case expired
    }

    /// Replaces any earlier code of this purpose: only the newest code works.
    func issue(
        userID: UUID,
        purpose: Purpose,
        email: String,
        codeHash: String,
        now: Date,
        expires: Date,
        on db: any SQLDatabase
    ) async throws {
        try await db.delete(from: "email_codes").where("user_id", .equal, userID).where(
            "purpose",
            .equal,
            purpose.rawValue
        ).run()
        try await db.insert(into: "email_codes")
            .columns(
                "id",
                "user_id",
                "purpose",
                "email",
                "code_hash",
                "attempts",
                "created_at",
                "expires_at",
                "consumed_at"
            )
            .values(
                SQLBind(UUID()),
                SQLBind(userID),
                SQLBind(purpose.rawValue),
                SQLBind(email),
                SQLBind(codeHash),
                SQLBind(0),
                SQLBind(now),
                SQLBind(expires),
                SQLLiteral.null
            )
            .run()
    }

    /// The account this very code (by its hash, unexpired) was sent to `email` for: a change of address waiting for its
    /// code must not stand in the way of anyone else's code for the same address.
    func holder(
        email: String,
        purpose: Purpose,
        codeHash: String,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> UUID? {
        try await db.select().column("user_id").from("email_codes").where("email", .equal, email).where(
            "purpose",
            .equal,
            purpose.rawValue
        )
        .where("code_hash", .equal, codeHash).where("consumed_at", .is, SQLLiteral.null).where(
            "expires_at",
            .greaterThan,
            now
        )
        .first().map { try $0.decode(column: "user_id", as: UUID.self) }
    }

    /// Checks a code. A wrong guess counts against the code; after `maxAttempts` it is dead.
    func consume(
        userID: UUID,
        purpose: Purpose,
        codeHash: String,
        maxAttempts: Int,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Outcome {
        guard
            let row = try await db.select().columns("id", "email", "code_hash", "attempts", "expires_at").from(
                "email_codes"
            )
            .where("user_id", .equal, userID).where("purpose", .equal, purpose.rawValue).where(
                "consumed_at",
                .is,
                SQLLiteral.null
            )
            .first()
        else { return .invalid }
        let id = try row.decode(column: "id", as: UUID.self)
        guard try row.decode(column: "attempts", as: Int.self) < maxAttempts else { return .invalid }
        guard try row.decode(column: "expires_at", as: Date.self) > now else { return .expired }
        guard Secrets.constantTimeEquals(try row.decode(column: "code_hash", as: String.self), codeHash) else {
            try await db.update("email_codes").set(SQLIdentifier("attempts"), to: SQLRaw("attempts + 1")).where(
                "id",
                .equal,
                id
            ).run()
            return .invalid
        }
        let claimed = try await db.update("email_codes").set("consumed_at", to: now)
            .where("id", .equal, id).where("consumed_at", .is, SQLLiteral.null).returning("id").first()
        return claimed == nil ? .invalid : .accepted(email: try row.decode(column: "email", as: String.self))
    }
}
