import Foundation
import SQLKit

/// Remembers, per caller and `Idempotency-Key`, the request's hash and the response it got.
struct IdempotencyStore: Sendable {
    let database: PlazaDatabase
    /// How long a key is remembered.
    let retention: TimeInterval = 24 * 3600

    enum Start: Equatable {
        /// The key is new: run the request, then `finish`.
        case started
        /// Same key, same request, finished: send this again.
        case replay(status: Int, contentType: String, body: String)
        /// Same key, another request.
        case mismatch
        /// Same key, same request, still running elsewhere.
        case inProgress
    }

    func start(scope: String, key: String, requestHash: String, now: Date = Date()) async throws -> Start {
        let retention = self.retention
        return try await database.transaction { db in
            try await db.delete(from: "idempotency_keys").where("scope", .equal, scope).where("key", .equal, key)
                .where("created_at", .lessThan, now.addingTimeInterval(-retention)).run()
            let inserted = try await db.insert(into: "idempotency_keys")
                .columns("scope", "key", "request_hash", "created_at")
                .values(SQLBind(scope), SQLBind(key), SQLBind(requestHash), SQLBind(now))
                .ignoringConflicts(with: ["scope", "key"])
                .returning("key")
                .first()
            if inserted != nil { return .started }
            guard let row = try await db.select().columns("request_hash", "status", "content_type", "body").from("idempotency_keys")
                .where("scope", .equal, scope).where("key", .equal, key).first()
            else { return .inProgress }
            guard try row.decode(column: "request_hash", as: String.self) == requestHash else { return .mismatch }
            guard let status = try row.decode(column: "status", as: Int?.self) else { return .inProgress }
            return .replay(
                status: status,
                contentType: try row.decode(column: "content_type", as: String?.self) ?? "application/json",
                body: try row.decode(column: "body", as: String?.self) ?? ""
            )
        }
    }

    func finish(scope: String, key: String, status: Int, contentType: String, body: String) async throws {
        try await database.sql.update("idempotency_keys")
            .set("status", to: status).set("content_type", to: contentType).set("body", to: body)
            .where("scope", .equal, scope).where("key", .equal, key)
            .run()
    }

    /// Forgets a key whose request failed on our side, so that a retry runs it again.
    func abandon(scope: String, key: String) async throws {
        try await database.sql.delete(from: "idempotency_keys").where("scope", .equal, scope).where("key", .equal, key).run()
    }

    func prune(now: Date = Date()) async throws {
        try await database.sql.delete(from: "idempotency_keys").where("created_at", .lessThan, now.addingTimeInterval(-retention)).run()
    }
}
