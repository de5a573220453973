import Foundation
import PlazaCore
import SQLKit

/// All SQL about app passwords (HTTP Basic credentials for tracker apps). Only keyed hashes are stored.
struct AppPasswordStore: Sendable {
    static let maximumPerUser = 10

    /// `ownTracksDevice`: the device id of an app password made for OwnTracks (`POST /v1/me/owntracks`).
    func insert(
        id: UUID,
        user: UUID,
        name: String,
        secretHash: String,
        ownTracksDevice: String? = nil,
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        try await db.insert(into: "app_passwords").columns(
            "id",
            "user_id",
            "name",
            "secret_hash",
            "created_at",
            "last_used_at",
            "owntracks_device"
        )
        .values(
            SQLBind(id),
            SQLBind(user),
            SQLBind(name),
            SQLBind(secretHash),
            SQLBind(now),
            SQLLiteral.null,
            SQLBind(ownTracksDevice)
        ).run()
    }

    /// The app passwords made for OwnTracks, oldest first, with when each last sent an accepted message.
    func ownTracksDevices(user: UUID, on db: any SQLDatabase) async throws -> [OwnTracksDevice] {
        try await db.select().columns("id", "name", "created_at", "last_message_at").from("app_passwords")
            .where("user_id", .equal, user).where("owntracks_device", .isNot, SQLLiteral.null)
            .orderBy("created_at").orderBy("id").all()
            .map { row in
                OwnTracksDevice(
                    appPasswordId: try row.decode(column: "id", as: UUID.self),
                    name: try row.decode(column: "name", as: String.self),
                    createdAt: try row.decode(column: "created_at", as: Date.self),
                    lastSeenAt: try row.decode(column: "last_message_at", as: Date?.self)
                )
            }
    }

    /// A message sent with this app password was accepted.
    func heard(id: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.update("app_passwords").set("last_message_at", to: now).where("id", .equal, id).run()
    }

    func list(user: UUID, on db: any SQLDatabase) async throws -> [AppPassword] {
        try await db.select().columns("id", "name", "created_at", "last_used_at").from("app_passwords").where(
            "user_id",
            .equal,
            user
        )
        .orderBy("created_at").orderBy("id").all()
        .map { row in
            AppPassword(
                id: try row.decode(column: "id", as: UUID.self),
                name: try row.decode(column: "name", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Date.self),
                lastUsedAt: try row.decode(column: "last_used_at", as: Date?.self)
            )
        }
    }

    func delete(id: UUID, user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "app_passwords").where("id", .equal, id).where("user_id", .equal, user).returning(
            "id"
        ).first() != nil
    }

    /// The app password with this hash and its owner, recording its use at most once a minute.
    func owner(secretHash: String, now: Date, on db: any SQLDatabase) async throws -> (id: UUID, user: UUID)? {
        guard
            let row = try await db.select().columns("id", "user_id").from("app_passwords").where(
                "secret_hash",
                .equal,
                secretHash
            ).first()
        else {
            return nil
        }
        let id = try row.decode(column: "id", as: UUID.self)
        try await db.update("app_passwords").set("last_used_at", to: now).where("id", .equal, id)
            .where {
                $0.where("last_used_at", .is, SQLLiteral.null).orWhere(
                    "last_used_at",
                    .lessThan,
                    now.addingTimeInterval(-60)
                )
            }.run()
        return (id, try row.decode(column: "user_id", as: UUID.self))
    }
}
