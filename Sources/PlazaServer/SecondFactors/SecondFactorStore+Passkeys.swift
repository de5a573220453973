import Foundation
import PlazaCore
import SQLKit

/// All SQL about passkeys' challenges and counters. A passkey is a `second_factors` row of kind `passkey` whose
/// `secret` holds its credential id and public key (`PasskeyKey`, nothing secret) and whose `last_step` is the
/// authenticator's signature counter.
extension SecondFactorStore {
    /// What a passkey row keeps to check its assertions.
    struct PasskeyKey: Codable, Sendable {
        /// The credential id, base64url, as the browser names it.
        var credentialId: String
        /// The P-256 public key, uncompressed (X9.63), base64url.
        var publicKey: String
    }

    enum ChallengePurpose: String {
        case register
        case assert
    }

    /// Keeps a challenge given to `user` for `purpose`, forgetting the user's spent and expired ones.
    func insertChallenge(
        _ challenge: String,
        user: UUID,
        purpose: ChallengePurpose,
        expiresAt: Date,
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        try await db.delete(from: "passkey_challenges").where("user_id", .equal, user)
            .where { $0.where("used_at", .isNot, SQLLiteral.null).orWhere("expires_at", .lessThan, now) }.run()
        try await db.insert(into: "passkey_challenges")
            .columns("challenge", "user_id", "purpose", "expires_at", "used_at")
            .values(SQLBind(challenge), SQLBind(user), SQLBind(purpose.rawValue), SQLBind(expiresAt), SQLLiteral.null)
            .run()
    }

    /// Spends a challenge: true only for the one request that marks it used, if it was given to `user` for
    /// `purpose` and has not expired.
    func spendChallenge(
        _ challenge: String,
        user: UUID,
        purpose: ChallengePurpose,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.update("passkey_challenges").set("used_at", to: now).where("challenge", .equal, challenge)
            .where("user_id", .equal, user).where("purpose", .equal, purpose.rawValue)
            .where("used_at", .is, SQLLiteral.null).where("expires_at", .greaterThan, now)
            .returning("challenge").first() != nil
    }

    /// Moves a passkey's counter to `count`: true if the authenticator keeps none (0 after 0) or `count` is past the
    /// stored one, decided by the row, so a cloned authenticator's replayed or older counter fails.
    func advanceCounter(_ id: UUID, to count: Int64, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("second_factors").set("last_step", to: count).set("last_used_at", to: now)
            .where("id", .equal, id).where("confirmed", .equal, true)
            .where {
                if count == 0 {
                    $0.where("last_step", .is, SQLLiteral.null).orWhere("last_step", .equal, 0)
                } else {
                    $0.where("last_step", .is, SQLLiteral.null).orWhere("last_step", .lessThan, count)
                }
            }
            .returning("id").first() != nil
    }

    /// The user's passkeys with their keys.
    func passkeys(user: UUID, on db: any SQLDatabase) async throws -> [(factor: SecondFactor, key: PasskeyKey)] {
        try await list(user: user, on: db).compactMap { record in
            guard record.factor.kind == .passkey,
                let key = try? JSONDecoder().decode(PasskeyKey.self, from: Data(record.secret.utf8))
            else { return nil }
            return (record.factor, key)
        }
    }
}
