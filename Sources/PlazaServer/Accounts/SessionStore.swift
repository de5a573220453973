import Foundation
import PlazaCore
import PostgresNIO
import SQLKit

/// All SQL about sessions (signed-in devices) and their refresh tokens.
package struct SessionStore: Sendable {
    package init() {}

    package enum Kind: String {
        case api
        case web
    }

    /// What presenting a refresh token found.
    enum Rotation {
        case rotated(sessionID: UUID, userID: UUID)
        /// Unknown, expired, or its session revoked.
        case refused
        /// Already rotated: someone replays an old token, so the whole session is revoked.
        case reused(sessionID: UUID)
    }

    package func create(
        id: UUID = UUID(),
        userID: UUID,
        kind: Kind,
        device: String,
        webTokenHash: String? = nil,
        now: Date,
        expires: Date,
        on db: any SQLDatabase
    ) async throws -> UUID {
        try await db.insert(into: "sessions")
            .columns(
                "id",
                "user_id",
                "kind",
                "device",
                "web_token_hash",
                "created_at",
                "last_seen_at",
                "expires_at",
                "revoked_at"
            )
            .values(
                SQLBind(id),
                SQLBind(userID),
                SQLBind(kind.rawValue),
                SQLBind(device),
                SQLBind(webTokenHash),
                SQLBind(now),
                SQLBind(now),
                SQLBind(expires),
                SQLLiteral.null
            )
            .run()
        return id
    }

    /// Whether the account ever had a session (revoked and expired ones are kept): its first sign-in is no news.
    func hasAny(userID: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("sessions").where("user_id", .equal, userID).limit(1).first() != nil
    }

    func addRefreshToken(hash: String, sessionID: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "refresh_tokens").columns("token_hash", "session_id", "created_at", "used_at")
            .values(SQLBind(hash), SQLBind(sessionID), SQLBind(now), SQLLiteral.null).run()
    }

    /// Marks the token used, once: of two concurrent refreshes with one token, one wins and the other
    /// is treated as re-use. Call inside a transaction, then add the new token.
    func rotate(hash: String, now: Date, lifetime: TimeInterval, on db: any SQLDatabase) async throws -> Rotation {
        guard
            let row = try await db.select().columns(
                SQLColumn("session_id", table: "t"),
                SQLColumn("used_at", table: "t"),
                SQLColumn("user_id", table: "s"),
                SQLColumn("revoked_at", table: "s"),
                SQLColumn("expires_at", table: "s")
            )
            .from(SQLAlias(SQLIdentifier("refresh_tokens"), as: SQLIdentifier("t")))
            .join(
                SQLAlias(SQLIdentifier("sessions"), as: SQLIdentifier("s")),
                on: SQLColumn("session_id", table: "t"),
                .equal,
                SQLColumn("id", table: "s")
            )
            .where(SQLColumn("token_hash", table: "t"), .equal, SQLBind(hash))
            .first()
        else { return .refused }
        let sessionID = try row.decode(column: "session_id", as: UUID.self)
        guard try row.decode(column: "revoked_at", as: Date?.self) == nil,
            try row.decode(column: "expires_at", as: Date.self) > now
        else {
            return .refused
        }
        guard try row.decode(column: "used_at", as: Date?.self) == nil else { return .reused(sessionID: sessionID) }
        let claimed = try await db.update("refresh_tokens").set("used_at", to: now)
            .where("token_hash", .equal, hash).where("used_at", .is, SQLLiteral.null)
            .returning("token_hash").first()
        guard claimed != nil else { return .reused(sessionID: sessionID) }
        // Each refresh extends an active session; one left alone for `lifetime` expires.
        try await db.update("sessions").set("last_seen_at", to: now).set(
            "expires_at",
            to: now.addingTimeInterval(lifetime)
        )
        .where("id", .equal, sessionID).run()
        return .rotated(sessionID: sessionID, userID: try row.decode(column: "user_id", as: UUID.self))
    }

    /// The session's user when the session is live (not revoked, not expired) and the account not erased.
    func activeUser(sessionID: UUID, now: Date, on db: any SQLDatabase) async throws -> UserRecord? {
        try await liveSession(sessionID: sessionID, now: now, on: db)?.user
    }

    /// The live session's user and when the session was last seen (so callers touch it only when due).
    func liveSession(sessionID: UUID, now: Date, on db: any SQLDatabase) async throws -> LiveSession? {
        try await liveSession(
            where: SQLBinaryExpression(SQLColumn("id", table: "s"), .equal, SQLBind(sessionID)),
            now: now,
            on: db
        )
    }

    /// The web session whose cookie hashes to `tokenHash`, its user and when it was last seen.
    func webSession(
        tokenHash: String,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (sessionID: UUID, user: UserRecord, lastSeenAt: Date)? {
        guard
            let row = try await db.select().column("id").from("sessions").where("web_token_hash", .equal, tokenHash)
                .first()
        else { return nil }
        let sessionID = try row.decode(column: "id", as: UUID.self)
        return try await liveSession(sessionID: sessionID, now: now, on: db).map { (sessionID, $0.user, $0.lastSeenAt) }
    }

    /// `liveSession` for many sessions with one statement: the live ones, by id.
    func liveSessions(ids: [UUID], now: Date, on db: any SQLDatabase) async throws -> [UUID: LiveSession] {
        guard !ids.isEmpty else { return [:] }
        if let prepared = db.prepared {
            var found: [UUID: LiveSession] = [:]
            for row in try await prepared.run(LiveSessions(ids: ids, now: now)) {
                let (
                    session, id, email, username, displayName, passwordHash, role, emailVerified, birthDate, gender,
                    student, timeZone, approval,
                    approvalReason, createdAt, updatedAt, language, lastSeenAt
                ) =
                    try row.decode(
                        (
                            UUID, UUID, String, String, String, String, String, Bool, String?, String?, Bool, String?,
                            String?, String?, Date, Date, String?,
                            Date
                        )
                        .self
                    )
                var user = UserRecord(
                    id: id,
                    email: email,
                    username: username,
                    displayName: displayName,
                    passwordHash: passwordHash,
                    role: Role(rawValue: role) ?? .customer,
                    emailVerified: emailVerified,
                    birthDate: birthDate,
                    gender: gender.flatMap(Gender.init(rawValue:)),
                    student: student,
                    now: createdAt
                )
                user.updatedAt = updatedAt
                user.timeZone = timeZone
                user.language = language
                user.approval = approval.flatMap(ApprovalState.init(rawValue:))
                user.approvalReason = approvalReason
                found[session] = LiveSession(user: user, lastSeenAt: lastSeenAt)
            }
            return found
        }
        let rows = try await liveSessionQuery(
            where: SQLBinaryExpression(SQLColumn("id", table: "s"), .in, SQLBind.group(ids)),
            now: now,
            on: db
        )
        .column(SQLColumn("id", table: "s"), as: "session_id").all()
        var found: [UUID: LiveSession] = [:]
        for row in rows { found[try row.decode(column: "session_id", as: UUID.self)] = try LiveSession(row: row) }
        return found
    }

    private func liveSession(
        where condition: any SQLExpression,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> LiveSession? {
        try await liveSessionQuery(where: condition, now: now, on: db).first().map(LiveSession.init(row:))
    }

    private func liveSessionQuery(
        where condition: any SQLExpression,
        now: Date,
        on db: any SQLDatabase
    ) -> SQLSelectBuilder {
        db.select().columns(UserRecord.columns.map { SQLColumn($0, table: "u") })
            .column(SQLColumn("last_seen_at", table: "s"))
            .from(SQLAlias(SQLIdentifier("sessions"), as: SQLIdentifier("s")))
            .join(
                SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("u")),
                on: SQLColumn("user_id", table: "s"),
                .equal,
                SQLColumn("id", table: "u")
            )
            .where(condition)
            .where(SQLColumn("revoked_at", table: "s"), .is, SQLLiteral.null)
            .where(SQLColumn("expires_at", table: "s"), .greaterThan, SQLBind(now))
            .where(SQLColumn("deleted_at", table: "u"), .is, SQLLiteral.null)
    }

    /// Records activity at most once a minute per session, to keep writes off the request path.
    func touch(sessionID: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.update("sessions").set("last_seen_at", to: now)
            .where("id", .equal, sessionID).where("last_seen_at", .lessThan, now.addingTimeInterval(-60)).run()
    }

    /// Revokes one session of `userID`; false when it is not theirs or already gone.
    func revoke(sessionID: UUID, userID: UUID, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("sessions").set("revoked_at", to: now)
            .where("id", .equal, sessionID).where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
            .returning("id").first() != nil
    }

    func revoke(sessionID: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.update("sessions").set("revoked_at", to: now).where("id", .equal, sessionID).where(
            "revoked_at",
            .is,
            SQLLiteral.null
        ).run()
    }

    /// Revokes every session of the user but `keep` (after a password change, or all on deletion).
    func revokeAll(userID: UUID, except keep: UUID?, now: Date, on db: any SQLDatabase) async throws {
        var update = db.update("sessions").set("revoked_at", to: now).where("user_id", .equal, userID).where(
            "revoked_at",
            .is,
            SQLLiteral.null
        )
        if let keep { update = update.where("id", .notEqual, keep) }
        try await update.run()
    }

    /// Live sessions of the user, most recently seen first; `after` is the last session of the previous page.
    func list(
        userID: UUID,
        current: UUID,
        now: Date,
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws -> [SessionInfo] {
        let query = db.select().columns("id", "device", "created_at", "last_seen_at").from("sessions")
            .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null).where(
                "expires_at",
                .greaterThan,
                now
            )
        return try await query.newestFirst(after: after, in: "sessions", by: "last_seen_at").limit(limit).all().map {
            row in
            let id = try row.decode(column: "id", as: UUID.self)
            return SessionInfo(
                id: id,
                device: try row.decode(column: "device", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Date.self),
                lastSeenAt: try row.decode(column: "last_seen_at", as: Date.self),
                current: id == current
            )
        }
    }
}

/// A live session's user, and when the session was last seen.
struct LiveSession: Sendable {
    var user: UserRecord
    var lastSeenAt: Date

    init(user: UserRecord, lastSeenAt: Date) {
        self.user = user
        self.lastSeenAt = lastSeenAt
    }

    init(row: any SQLRow) throws {
        user = try UserRecord(row: row)
        lastSeenAt = try row.decode(column: "last_seen_at", as: Date.self)
    }
}

/// A session to read, as of `now`.
struct SessionRead: Sendable {
    var id: UUID
    var now: Date
}

/// `liveSessions` on PostgreSQL, prepared (see `PostgresStatement`): most requests under load whose token is not cached
/// yet come through here. Rows: the session's id, `UserRecord.columns` in order, `last_seen_at`.
struct LiveSessions: PostgresStatement {
    static let sql =
        "SELECT s.id, \(UserRecord.columns.map { "u.\($0)" }.joined(separator: ", ")), s.last_seen_at FROM sessions s JOIN users u ON s.user_id = u.id "
        + "WHERE s.id = ANY($1::uuid[]) AND s.revoked_at IS NULL AND s.expires_at > $2 AND u.deleted_at IS NULL"
    var ids: [UUID]
    var now: Date

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(ids)
        bindings.append(now)
        return bindings
    }
}
