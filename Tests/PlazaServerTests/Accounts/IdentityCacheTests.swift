import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

@Suite struct IdentityCacheTests {
    static func identity() -> Identity {
        Identity(
            user: UserRecord(
                id: UUID(),
                email: "zoe@example.com",
                username: "zoe",
                displayName: "Zoe",
                passwordHash: "",
                role: .customer,
                emailVerified: true,
                now: Date()
            ),
            sessionID: UUID()
        )
    }

    @Test func keepsAnIdentityForItsLifetimeButNeverPastTheTokensExpiry() {
        let cache = IdentityCache(lifetime: 5)
        let now = Date()
        let zoe = Self.identity()
        cache.store(
            zoe,
            for: "long",
            tokenExpires: now.addingTimeInterval(900),
            now: now,
            generation: cache.identity(for: "long", now: now).generation
        )
        cache.store(
            zoe,
            for: "short",
            tokenExpires: now.addingTimeInterval(2),
            now: now,
            generation: cache.identity(for: "short", now: now).generation
        )
        #expect(cache.identity(for: "long", now: now.addingTimeInterval(4)).0?.sessionID == zoe.sessionID)
        #expect(cache.identity(for: "short", now: now.addingTimeInterval(1)).0 != nil)
        #expect(cache.identity(for: "short", now: now.addingTimeInterval(3)).0 == nil)
        #expect(cache.identity(for: "long", now: now.addingTimeInterval(6)).0 == nil)
    }

    /// A read that began before a log-out must not put the signed-out session back.
    @Test func aReadBegunBeforeAClearDoesNotStoreWhatItRead() {
        let cache = IdentityCache(lifetime: 5)
        let now = Date()
        let (_, generation) = cache.identity(for: "token", now: now)
        cache.clear()
        cache.store(
            Self.identity(),
            for: "token",
            tokenExpires: now.addingTimeInterval(900),
            now: now,
            generation: generation
        )
        #expect(cache.identity(for: "token", now: now).0 == nil)
    }
}
