import Foundation
import PlazaCore
import SQLKit
import Synchronization

/// The right to run one request under one `Idempotency-Key`, held until its response is recorded or its lease lapses.
///
/// A *deferred* claim holds nothing yet: its handler writes the key, with the response, in the transaction that does
/// the work, and finds out there whether the key was free (`IdempotencyKeyTaken` when it was not). A new key then
/// costs no statement of its own, and a request that dies leaves no key behind.
final class IdempotencyClaim: Sendable {
    let scope: String
    let key: String
    /// Names this claim; for a deferred one only in memory.
    let lease: String
    let requestHash: String
    let deferred: Bool
    private let recordedFlag = Mutex(false)

    init(scope: String, key: String, lease: String = UUID.random().text, requestHash: String, deferred: Bool = false) {
        self.scope = scope
        self.key = key
        self.lease = lease
        self.requestHash = requestHash
        self.deferred = deferred
    }

    /// Whether the handler recorded the response itself, inside the transaction that did the work.
    var recorded: Bool { recordedFlag.withLock { $0 } }
    func markRecorded() { recordedFlag.withLock { $0 = true } }
}

/// Remembers, per caller and `Idempotency-Key`, the request's hash and the response it got.
struct IdempotencyStore: Sendable {
    let database: PlazaDatabase
    /// Keys the request hash: bodies carry card numbers and CVCs, which a plain SHA-256 beside the stored last four
    /// digits would give back to anyone with a database dump.
    let secrets: Secrets
    /// How long a key is remembered.
    let retention: TimeInterval = 24 * 3600
    /// How long an unfinished request holds its key; after that a retry may run it again. Short, because a request
    /// whose process died holds it until then; safe, because a first run still going after its lease fails to record
    /// its response and rolls back (see `record`), so a slow request can lose its key but never act twice.
    var lease: TimeInterval = 10

    enum Start {
        /// The key is free: run the request, then `record`.
        case started(IdempotencyClaim)
        /// Same key, same request, finished: send this again.
        case replay(status: Int, contentType: String, body: String)
        /// Same key, another request.
        case mismatch
        /// Same key, same request, still running elsewhere.
        case inProgress
    }

    /// A keyed hash of the request (method, path and body).
    func requestHash(_ request: Data) -> String {
        secrets.hash(bytes: request)
    }

    /// Claims `key` for `lease` seconds (`self.lease` for handlers that record with their work, else `retention`).
    func start(
        scope: String,
        key: String,
        requestHash: String,
        lease: TimeInterval,
        now: Date = Date()
    ) async throws -> Start {
        let (retention, leaseEnd) = (retention, now.addingTimeInterval(lease))
        let lease = UUID.random().text
        let claim = IdempotencyClaim(scope: scope, key: key, lease: lease, requestHash: requestHash)
        // The common case, a new key, is one statement; only a key seen before needs the transaction below.
        let fresh = try await database.sql.insert(into: "idempotency_keys")
            .columns("scope", "key", "request_hash", "created_at", "lease_id", "leased_until")
            .values(SQLBind(scope), SQLBind(key), SQLBind(requestHash), SQLBind(now), SQLBind(lease), SQLBind(leaseEnd))
            .ignoringConflicts(with: ["scope", "key"])
            .returning("key")
            .first()
        if fresh != nil { return .started(claim) }
        return try await database.transaction { db in
            try await db.delete(from: "idempotency_keys").where("scope", .equal, scope).where("key", .equal, key)
                .where("created_at", .lessThan, now.addingTimeInterval(-retention)).run()
            let inserted = try await db.insert(into: "idempotency_keys")
                .columns("scope", "key", "request_hash", "created_at", "lease_id", "leased_until")
                .values(
                    SQLBind(scope),
                    SQLBind(key),
                    SQLBind(requestHash),
                    SQLBind(now),
                    SQLBind(lease),
                    SQLBind(leaseEnd)
                )
                .ignoringConflicts(with: ["scope", "key"])
                .returning("key")
                .first()
            if inserted != nil { return .started(claim) }
            guard
                let row = try await db.select().columns("request_hash", "status", "content_type", "body").from(
                    "idempotency_keys"
                )
                .where("scope", .equal, scope).where("key", .equal, key).first()
            else { return .inProgress }
            guard try row.decode(column: "request_hash", as: String.self) == requestHash else { return .mismatch }
            if let status = try row.decode(column: "status", as: Int?.self) {
                return .replay(
                    status: status,
                    contentType: try row.decode(column: "content_type", as: String?.self) ?? "application/json",
                    body: try row.decode(column: "body", as: String?.self) ?? ""
                )
            }
            // Unfinished: take the key over only when its holder's lease has lapsed.
            let taken = try await db.update("idempotency_keys").set("lease_id", to: lease).set(
                "leased_until",
                to: leaseEnd
            )
            .where("scope", .equal, scope).where("key", .equal, key).where("status", .is, SQLLiteral.null)
            .where("leased_until", .lessThan, now)
            .returning("key").first()
            return taken != nil ? .started(claim) : .inProgress
        }
    }

    /// Stores the response for replays, if `claim` still holds the key. Inside a handler's transaction this makes
    /// the work and its record one commit: a crash leaves both or neither.
    @discardableResult
    func record(
        _ claim: IdempotencyClaim,
        status: Int,
        contentType: String,
        body: String,
        on db: any SQLDatabase
    ) async throws -> Bool {
        let updated = try await db.update("idempotency_keys")
            .set("status", to: status).set("content_type", to: contentType).set("body", to: body)
            .where("scope", .equal, claim.scope).where("key", .equal, claim.key).where("lease_id", .equal, claim.lease)
            .where("status", .is, SQLLiteral.null)
            .returning("key").first()
        return updated != nil
    }

    /// Records `value` as the JSON answer to `claim`'s request inside the transaction that does the work, or fails
    /// (rolling the work back) when the claim lost its key meanwhile.
    func record(_ value: some Encodable, status: Int, claim: IdempotencyClaim, on db: any SQLDatabase) async throws {
        let body = String(decoding: try PlazaJSON.encoder().encode(value), as: UTF8.self)
        guard
            try await record(claim, status: status, contentType: "application/json; charset=utf-8", body: body, on: db)
        else {
            throw PlazaError.idempotencyLeaseLost
        }
        claim.markRecorded()
    }

    /// `record` for many claims as one statement (for `pipeline`; `leases` reads its rows: the claims that still held
    /// their key); nil for none.
    func recordStatement(
        _ responses: [(claim: IdempotencyClaim, body: String)],
        status: Int,
        contentType: String
    ) -> SQLQueryString? {
        guard !responses.isEmpty else { return nil }
        let values = responses.map { response -> SQLQueryString in
            "(\(bind: response.claim.scope), \(bind: response.claim.key), \(bind: response.claim.lease), \(bind: response.body))"
        }
        return """
            WITH v(s, k, l, b) AS (VALUES \(values.joined(separator: ", "))) \
            UPDATE idempotency_keys SET status = \(bind: status), content_type = \(bind: contentType), body = v.b FROM v \
            WHERE idempotency_keys.scope = v.s AND idempotency_keys.key = v.k AND idempotency_keys.lease_id = v.l \
            AND idempotency_keys.status IS NULL RETURNING lease_id
            """
    }

    /// The leases a `record` or `insert` statement kept.
    static func leases(_ rows: [any SQLRow]) throws -> Set<String> {
        Set(try rows.map { try $0.decode(column: "lease_id", as: String.self) })
    }

    /// Writes the keys of deferred claims with their responses, one statement: the leases of the claims whose key
    /// was free. The others' keys were there already (a retry of a finished request, or its twin just now).
    func insert(
        _ responses: [(claim: IdempotencyClaim, body: String)],
        status: Int,
        contentType: String,
        now: Date = Date(),
        on db: any SQLDatabase
    )
        async throws -> Set<String>
    {
        guard let statement = insertStatement(responses, status: status, contentType: contentType, now: now, on: db)
        else { return [] }
        return try Self.leases(await db.raw("\(statement)").all())
    }

    /// The statement of `insert` (for `pipeline`; `leases` reads its rows); nil for none.
    func insertStatement(
        _ responses: [(claim: IdempotencyClaim, body: String)],
        status: Int,
        contentType: String,
        now: Date = Date(),
        on db: any SQLDatabase
    )
        -> (any SQLExpression)?
    {
        guard !responses.isEmpty else { return nil }
        var insert = db.insert(into: "idempotency_keys")
            .columns(
                "scope",
                "key",
                "request_hash",
                "status",
                "content_type",
                "body",
                "created_at",
                "lease_id",
                "leased_until"
            )
        for (claim, body) in responses {
            insert = insert.values(
                SQLBind(claim.scope),
                SQLBind(claim.key),
                SQLBind(claim.requestHash),
                SQLBind(status),
                SQLBind(contentType),
                SQLBind(body),
                SQLBind(now),
                SQLBind(claim.lease),
                SQLBind(now)
            )
        }
        return insert.ignoringConflicts(with: ["scope", "key"]).returning("lease_id").query
    }

    /// Forgets a key whose request failed on our side, so that a retry runs it again.
    func abandon(_ claim: IdempotencyClaim) async throws {
        try await database.sql.delete(from: "idempotency_keys").where("scope", .equal, claim.scope).where(
            "key",
            .equal,
            claim.key
        )
        .where("lease_id", .equal, claim.lease).where("status", .is, SQLLiteral.null).run()
    }

    func prune(now: Date = Date()) async throws {
        try await database.sql.delete(from: "idempotency_keys").where(
            "created_at",
            .lessThan,
            now.addingTimeInterval(-retention)
        ).run()
    }
}
