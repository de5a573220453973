import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Students as others on the campus see them: profiles, finding one by name, my bio and photo, and blocks.
extension MarketService {
    // MARK: Profiles

    /// A student of my campus, as I may see them (404 for anyone else, or across a block).
    func profile(_ identity: Identity, username: String, now: Date = Date()) async throws -> MarketProfile {
        let user = try await visibleStudent(identity, username: username, now: now)
        let counts = try await listings.counts(seller: user.id, on: database.sql)
        let extras = try await store.profile(user: user.id, on: database.sql)
        return MarketProfile(
            username: user.username,
            displayName: user.displayName,
            memberSince: user.createdAt,
            itemsSold: counts.sold,
            activeListings: counts.active,
            rating: try await trust.summary(of: user.id, now: now, on: database.sql),
            bio: extras.bio,
            photo: extras.photo.map(MediaService.photo)
        )
    }

    /// Students of my campus whose username or name contains `text` (at least 2 characters), at most 20, as profiles.
    func searchStudents(_ identity: Identity, text: String, now: Date = Date()) async throws -> [MarketProfile] {
        let membership = try await requireStudent(identity, now: now)
        let raw = text
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "@", with: "")
        guard text.count >= 2, raw.count <= 60 else {
            throw PlazaError.validation(field: "q", phrase("Type two to 60 letters of a name or username."))
        }
        let names = try await store.students(
            campus: membership.campus.id,
            matching: text,
            viewer: identity.user.id,
            now: now,
            limit: 20,
            on: database.sql
        )
        var found: [MarketProfile] = []
        for name in names { found.append(try await profile(identity, username: name, now: now)) }
        return found
    }

    /// Changes my bio and profile photo (a picture I uploaded; the old one is let go).
    func updateProfile(
        _ identity: Identity,
        _ change: MarketProfileChange,
        now: Date = Date()
    ) async throws -> MarketProfile {
        _ = try await requireStudent(identity, now: now)
        let current = try await store.profile(user: identity.user.id, on: database.sql)
        var bio = current.bio
        if let asked = change.bio {
            let trimmed = asked.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.count <= 300 else {
                throw PlazaError.validation(field: "bio", phrase("Keep it under 300 characters."))
            }
            bio = trimmed.nilIfEmpty
        }
        let photo = change.removePhoto == true ? nil : change.photoId ?? current.photo
        let (store, media, subject, newBio) = (store, media, "profile:\(identity.user.id.uuidString.lowercased())", bio)
        try await database.transaction { db in
            if let photo, photo != current.photo {
                try await media.attach([photo], owner: identity.user.id, to: subject, field: "photoId", on: db)
            }
            if let old = current.photo, old != photo { try await media.detach([old], from: subject, on: db) }
            try await store.saveProfile(user: identity.user.id, bio: newBio, photo: photo, now: now, on: db)
        }
        return try await profile(identity, username: identity.user.username, now: now)
    }

    /// A student of my campus I may see (404 for anyone else, or across a block).
    func visibleStudent(_ identity: Identity, username: String, now: Date = Date()) async throws -> UserRecord {
        let membership = try await requireStudent(identity, now: now)
        guard let user = try await AccountStore().user(login: username, on: database.sql),
            let member = try await store.member(user: user.id, on: database.sql),
            member.campusId == membership.campus.id,
            !(try await store.blocked(identity.user.id, user.id, on: database.sql))
        else { throw PlazaError.notFound("student") }
        return user
    }

    // MARK: Blocks

    /// Blocks a student: neither sees the other's listings any more, and no message passes either way.
    func block(_ identity: Identity, username: String, now: Date = Date()) async throws -> MarketBlock {
        _ = try await requireStudent(identity, now: now, allowSuspended: true)
        guard let user = try await AccountStore().user(login: username, on: database.sql), user.id != identity.user.id
        else {
            throw PlazaError.notFound("user")
        }
        let since = try await store.block(identity.user.id, user.id, now: now, on: database.sql)
        return MarketBlock(username: user.username, displayName: user.displayName, since: since)
    }

    func unblock(_ identity: Identity, username: String) async throws {
        guard let user = try await AccountStore().user(login: username, on: database.sql) else {
            throw PlazaError.notFound("user")
        }
        try await store.unblock(identity.user.id, user.id, on: database.sql)
    }

    func blocks(_ identity: Identity) async throws -> [MarketBlock] {
        try await store.blocks(identity.user.id, on: database.sql)
    }

    static let blockedError = PlazaError(
        .forbidden,
        .blocked,
        phrase("One of you blocked the other."),
        detail: phrase("Nothing passes between you; unblock them first if it was you.")
    )
}
