import Foundation
import PlazaCore
import SQLKit

/// The marketplace's verified students and the agreement they sign: who may use it, where, and whether suspended.
extension MarketStore {
    // MARK: Verified students

    /// A student's membership: which campus, until when.
    struct Member: Sendable {
        var campusId: UUID
        var email: String
        var verifiedUntil: Date
    }

    func member(user: UUID, on db: any SQLDatabase) async throws -> Member? {
        try await db.select().columns("campus_id", "email", "verified_until").from("campus_members").where(
            "user_id",
            .equal,
            user
        ).first()
            .map { row in
                Member(
                    campusId: try row.decode(column: "campus_id", as: UUID.self),
                    email: try row.decode(column: "email", as: String.self),
                    verifiedUntil: try row.decode(column: "verified_until", as: Date.self)
                )
            }
    }

    /// Where a student stands, in one statement: their campus (its id and name), until when their address is
    /// verified, the agreement version they signed and whether they are suspended. Nil without a membership.
    struct Standing: Sendable {
        var campusId: UUID
        var campusName: String
        var verifiedUntil: Date
        var signedVersion: Int?
        var suspended: Bool
    }

    func standing(user: UUID, on db: any SQLDatabase) async throws -> Standing? {
        try await db.kept.raw(
            """
            SELECT m.campus_id, c.name, m.verified_until, a.signed_version, a.suspended_at FROM campus_members m \
            JOIN campuses c ON c.id = m.campus_id LEFT JOIN market_agreements a ON a.user_id = m.user_id \
            WHERE m.user_id = \(bind: user)
            """
        ).first().map { row in
            Standing(
                campusId: try row.decode(column: "campus_id", as: UUID.self),
                campusName: try row.decode(column: "name", as: String.self),
                verifiedUntil: try row.decode(column: "verified_until", as: Date.self),
                signedVersion: try row.decode(column: "signed_version", as: Int?.self),
                suspended: try row.decode(column: "suspended_at", as: Date?.self) != nil
            )
        }
    }

    /// The account a campus address verifies, if any.
    func holder(email: String, on db: any SQLDatabase) async throws -> UUID? {
        try await db.select().column("user_id").from("campus_members").where("email", .equal, email).first()
            .map { try $0.decode(column: "user_id", as: UUID.self) }
    }

    /// Records (or renews) the user's membership; false when another account took the address meanwhile.
    func verify(
        user: UUID,
        campus: UUID,
        email: String,
        now: Date,
        until: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        if let holder = try await holder(email: email, on: db), holder != user { return false }
        try await db.insert(into: "campus_members").columns(
            "user_id",
            "campus_id",
            "email",
            "verified_at",
            "verified_until"
        )
        .values(SQLBind(user), SQLBind(campus), SQLBind(email), SQLBind(now), SQLBind(until))
        .onConflict(with: ["user_id"]) {
            $0.set(excludedValueOf: "campus_id").set(excludedValueOf: "email").set(excludedValueOf: "verified_at")
                .set(excludedValueOf: "verified_until")
        }
        .run()
        return true
    }

    // MARK: The agreement

    /// The user's signature of the agreement and whether an upheld report suspended them from the marketplace.
    func signature(user: UUID, on db: any SQLDatabase) async throws -> (version: Int?, at: Date?, suspended: Bool) {
        guard
            let row = try await db.select().columns("signed_version", "signed_at", "suspended_at").from(
                "market_agreements"
            )
            .where("user_id", .equal, user).first()
        else { return (nil, nil, false) }
        return (
            try row.decode(column: "signed_version", as: Int?.self),
            try row.decode(column: "signed_at", as: Date?.self),
            try row.decode(column: "suspended_at", as: Date?.self) != nil
        )
    }

    /// Suspends the user from the marketplace (`at` nil lifts it); their listings leave the feed with them.
    func suspend(user: UUID, at: Date?, reason: String?, on db: any SQLDatabase) async throws {
        try await db.insert(into: "market_agreements").columns("user_id", "suspended_at", "suspension_reason")
            .values(SQLBind(user), SQLBind(at), SQLBind(reason))
            .onConflict(with: ["user_id"]) {
                $0.set(excludedValueOf: "suspended_at").set(excludedValueOf: "suspension_reason")
            }
            .run()
    }

    func sign(user: UUID, version: Int?, now: Date, on db: any SQLDatabase) async throws {
        let signedAt: Date? = version == nil ? nil : now
        let unsignedAt: Date? = version == nil ? now : nil
        try await db.insert(into: "market_agreements").columns("user_id", "signed_version", "signed_at", "unsigned_at")
            .values(SQLBind(user), SQLBind(version), SQLBind(signedAt), SQLBind(unsignedAt))
            .onConflict(with: ["user_id"]) {
                $0.set(excludedValueOf: "signed_version").set(excludedValueOf: "signed_at").set(
                    excludedValueOf: "unsigned_at"
                )
            }
            .run()
    }
}
