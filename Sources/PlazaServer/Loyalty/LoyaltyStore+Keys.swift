import Foundation
import PlazaCore
import SQLKit

/// Loyalty's SQL for signing: the businesses' keys, the token counters, and the short codes that stand for tokens.
extension LoyaltyStore {
    /// The business's keys, current (not retired) first, newest first.
    func keys(business: UUID, on db: any SQLDatabase) async throws -> [LoyaltySigningKey] {
        try await db.select().columns("key_id", "public_key", "retired_at").from("loyalty_keys").where(
            "business_id",
            .equal,
            business
        )
        .orderBy(SQLRaw("CASE WHEN retired_at IS NULL THEN 0 ELSE 1 END")).orderBy("created_at", .descending).all()
        .map {
            LoyaltySigningKey(
                keyId: try $0.decode(column: "key_id", as: String.self),
                publicKey: try $0.decode(column: "public_key", as: String.self),
                retiredAt: try $0.decode(column: "retired_at", as: Date?.self)
            )
        }
    }

    func insertKey(_ key: LoyaltySigningKey, business: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "loyalty_keys").columns(
            "key_id",
            "business_id",
            "public_key",
            "created_at",
            "retired_at"
        )
        .values(SQLBind(key.keyId), SQLBind(business), SQLBind(key.publicKey), SQLBind(now), SQLBind(nil as Date?))
        .run()
    }

    func retireKeys(business: UUID, at: Date, on db: any SQLDatabase) async throws {
        try await db.update("loyalty_keys").set("retired_at", to: at).where("business_id", .equal, business).where(
            "retired_at",
            .is,
            SQLLiteral.null
        )
        .run()
    }

    /// The business's next token counter (1, 2, ...), in the caller's transaction.
    func nextCounter(business: UUID, on db: any SQLDatabase) async throws -> Int64 {
        let row = try await db.insert(into: "loyalty_token_counters").columns("business_id", "counter").values(
            SQLBind(business),
            SQLBind(1)
        )
        .onConflict(with: ["business_id"]) { $0.set("counter", to: SQLRaw("loyalty_token_counters.counter + 1")) }
        .returning("counter").first()
        return try row?.decode(column: "counter", as: Int64.self) ?? 1
    }

    /// Files the six digits of a token; false when the program has the same digits live already (draw again).
    func insertCode(
        _ code: String,
        program: UUID,
        token: String,
        expiresAt: Date,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.delete(from: "loyalty_punch_codes").where("program_id", .equal, program).where(
            "expires_at",
            .lessThan,
            now
        ).run()
        return try await db.insert(into: "loyalty_punch_codes").columns("program_id", "code", "token", "expires_at")
            .values(SQLBind(program), SQLBind(code), SQLBind(token), SQLBind(expiresAt)).ignoringConflicts(with: [
                "program_id", "code",
            ])
            .returning("code").first() != nil
    }

    /// The token behind typed digits, while its window lasts.
    func token(code: String, program: UUID, now: Date, on db: any SQLDatabase) async throws -> String? {
        try await db.select().column("token").from("loyalty_punch_codes").where("program_id", .equal, program).where(
            "code",
            .equal,
            code
        )
        .where("expires_at", .greaterThan, now).first()?.decode(column: "token", as: String.self)
    }
}
