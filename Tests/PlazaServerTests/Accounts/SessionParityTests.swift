import Foundation
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// A session's lookup is a prepared statement on PostgreSQL and SQLKit's query on SQLite: both find the same live
/// sessions with the same user, and neither a revoked nor an expired one.
@Suite struct SessionParityTests {
    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func bothEnginesFindTheSameLiveSessions() async throws {
        let sqlite = try await Self.lookup(.sqlite)
        let postgres = try await Self.lookup(.postgres)
        #expect(sqlite.count == 2 && sqlite == postgres)
    }

    /// Three sessions (live, revoked, expired) of a user with every profile field set; what the lookup finds, ids aside.
    static func lookup(_ engine: TestEngine) async throws -> [String] {
        try await TestPlaza.withServices(engine) { services in
            let db = services.database.sql
            let now = Date()
            var user = UserRecord(
                email: "zoe@example.com",
                username: "zoe",
                displayName: "Zoë Z",
                passwordHash: "$2b$04$hash",
                role: .merchant,
                emailVerified: true,
                birthDate: "1990-02-03",
                gender: .female,
                student: true,
                now: Date(timeIntervalSince1970: 1_790_000_000)
            )
            user.updatedAt = Date(timeIntervalSince1970: 1_790_000_100)
            try await AccountStore().insert(user, on: db)
            let store = SessionStore()
            let live = try await store.create(
                userID: user.id,
                kind: .api,
                device: "phone",
                now: now,
                expires: now.addingTimeInterval(3_600),
                on: db
            )
            let web = try await store.create(
                userID: user.id,
                kind: .web,
                device: "laptop",
                now: now,
                expires: now.addingTimeInterval(3_600),
                on: db
            )
            let revoked = try await store.create(
                userID: user.id,
                kind: .api,
                device: "old",
                now: now,
                expires: now.addingTimeInterval(3_600),
                on: db
            )
            try await db.update("sessions").set("revoked_at", to: now).where("id", .equal, revoked).run()
            let expired = try await store.create(
                userID: user.id,
                kind: .api,
                device: "gone",
                now: now,
                expires: now.addingTimeInterval(-1),
                on: db
            )
            let found = try await store.liveSessions(ids: [live, web, revoked, expired], now: now, on: db)
            return found.values.map { session in
                let user = session.user
                return [
                    user.email, user.username, user.displayName, user.passwordHash, user.role.rawValue,
                    "\(user.emailVerified)",
                    user.birthDate ?? "-", user.gender?.rawValue ?? "-", "\(user.student)",
                    "\(Int(user.createdAt.timeIntervalSince1970))",
                    "\(Int(user.updatedAt.timeIntervalSince1970))",
                ].joined(separator: "|")
            }.sorted()
        }
    }
}
