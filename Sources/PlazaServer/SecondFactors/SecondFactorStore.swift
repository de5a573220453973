import Foundation
import PlazaCore
import SQLKit

/// All SQL about second factors and recovery codes. TOTP secrets are stored sealed, recovery codes as keyed hashes.
struct SecondFactorStore: Sendable {
    /// A stored factor with what checking it needs.
    struct Record: Sendable {
        var factor: SecondFactor
        var secret: String
        var confirmed: Bool
    }

    static let maximumPerUser = 10

    func insert(
        _ factor: SecondFactor,
        secret: String,
        confirmed: Bool,
        user: UUID,
        on db: any SQLDatabase
    ) async throws {
        try await db.insert(into: "second_factors")
            .columns("id", "user_id", "kind", "name", "secret", "confirmed", "last_step", "created_at", "last_used_at")
            .values(
                SQLBind(factor.id),
                SQLBind(user),
                SQLBind(factor.kind.rawValue),
                SQLBind(factor.name),
                SQLBind(secret),
                SQLBind(confirmed),
                SQLLiteral.null,
                SQLBind(factor.createdAt),
                SQLLiteral.null
            )
            .run()
    }

    /// The user's factors, oldest first; `confirmedOnly` leaves out apps set up but never confirmed.
    func list(user: UUID, confirmedOnly: Bool = true, on db: any SQLDatabase) async throws -> [Record] {
        var query = db.select().columns("id", "kind", "name", "secret", "confirmed", "created_at", "last_used_at")
            .from("second_factors").where("user_id", .equal, user)
        if confirmedOnly { query = query.where("confirmed", .equal, true) }
        return try await query.orderBy("created_at").orderBy("id").all().compactMap { row in
            guard let kind = SecondFactorKind(rawValue: try row.decode(column: "kind", as: String.self)) else {
                return nil
            }
            let factor = SecondFactor(
                id: try row.decode(column: "id", as: UUID.self),
                kind: kind,
                name: try row.decode(column: "name", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Date.self),
                lastUsedAt: try row.decode(column: "last_used_at", as: Date?.self)
            )
            return Record(
                factor: factor,
                secret: try row.decode(column: "secret", as: String.self),
                confirmed: try row.decode(column: "confirmed", as: Bool.self)
            )
        }
    }

    /// Forgets the user's unconfirmed apps (a new setup replaces one left half-done).
    func deleteUnconfirmed(user: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "second_factors").where("user_id", .equal, user).where("confirmed", .equal, false)
            .run()
    }

    /// Marks the app confirmed with the step its first code came from; false if it is not an unconfirmed app of `user`.
    func confirm(_ id: UUID, user: UUID, step: Int64, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("second_factors").set("confirmed", to: true).set("last_step", to: step)
            .set("last_used_at", to: now).where("id", .equal, id).where("user_id", .equal, user)
            .where("confirmed", .equal, false).returning("id").first() != nil
    }

    /// Takes time step `step` of a confirmed factor: true only for the one request that moves `last_step` past it,
    /// decided by the row itself so two requests with one code cannot both pass.
    func use(_ id: UUID, step: Int64, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("second_factors").set("last_step", to: step).set("last_used_at", to: now)
            .where("id", .equal, id).where("confirmed", .equal, true)
            .where { $0.where("last_step", .is, SQLLiteral.null).orWhere("last_step", .lessThan, step) }
            .returning("id").first() != nil
    }

    func delete(_ id: UUID, user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "second_factors").where("id", .equal, id).where("user_id", .equal, user)
            .where("confirmed", .equal, true).returning("id").first() != nil
    }

    /// How many of the user's recovery codes are unused.
    func recoveryCodesLeft(user: UUID, on db: any SQLDatabase) async throws -> Int {
        let row = try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("recovery_codes").where("user_id", .equal, user).where("used_at", .is, SQLLiteral.null).first()
        return try row?.decode(column: "n", as: Int.self) ?? 0
    }

    /// Replaces every recovery code of the user by these hashes.
    func replaceRecoveryCodes(user: UUID, hashes: [String], now: Date, on db: any SQLDatabase) async throws {
        try await db.delete(from: "recovery_codes").where("user_id", .equal, user).run()
        var insert = db.insert(into: "recovery_codes").columns("id", "user_id", "code_hash", "used_at", "created_at")
        for hash in hashes {
            insert = insert.values(SQLBind(UUID()), SQLBind(user), SQLBind(hash), SQLLiteral.null, SQLBind(now))
        }
        try await insert.run()
    }

    /// Uses the recovery code with this hash: true for the one request that marks it used.
    func useRecoveryCode(user: UUID, hash: String, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("recovery_codes").set("used_at", to: now).where("user_id", .equal, user)
            .where("code_hash", .equal, hash).where("used_at", .is, SQLLiteral.null).returning("id").first() != nil
    }

    /// Forgets the user's recovery codes (their last factor is gone).
    func deleteRecoveryCodes(user: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "recovery_codes").where("user_id", .equal, user).run()
    }
}
