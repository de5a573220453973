import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Ratings: after a confirmed handshake each side rates the other once, 1 to 5 stars and a comment. A rating stays
/// hidden from the other side until they have rated too, or a week has passed, so that nobody rates in retaliation.
/// Profiles count only ratings already shown.
extension MarketService {
    func rate(
        _ identity: Identity,
        listing id: UUID,
        _ request: RatingRequest,
        now: Date = Date()
    ) async throws -> MarketRating {
        _ = try await requireStudent(identity, now: now)
        let (listing, side) = try await ratingSide(identity, listing: id)
        guard let side else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("Ratings follow a confirmed handshake."),
                detail: phrase("Once the buyer confirms the seller's code at the meetup, both may rate each other.")
            )
        }
        let problems = RatingRules.problems(request)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let comment = request.comment?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        let ratee = side == .buyer ? listing.sellerId : listing.soldTo ?? listing.sellerId
        let (trust, title) = (trust, listing.title)
        let link = "/market/listings/\(id.uuidString.lowercased())"
        return try await events.transaction(publishing: { db in
            guard
                try await trust.rate(
                    listing: id,
                    rater: identity.user.id,
                    ratee: ratee,
                    role: side,
                    stars: request.stars,
                    comment: comment,
                    now: now,
                    on: db
                )
            else {
                throw PlazaError(
                    .conflict,
                    .stateConflict,
                    phrase("You rated this deal already."),
                    detail: phrase("A rating cannot be changed.")
                )
            }
            guard
                let mine = try await trust.ratings(listing: id, on: db).first(where: { $0.rater == identity.user.id })?
                    .rating
            else {
                throw PlazaError.notFound("rating")
            }
            let wording = Wording(
                title: phrase("{name} rated your deal for {title}"),
                body: mine.shownAt <= now
                    ? phrase("Both of you have rated: read it on your profile.") : phrase("Rate them too to read it."),
                values: ["name": Self.name(identity.user), "title": title]
            )
            return (mine, [.alert(user: ratee, kind: .market, link: link, wording)])
        })
    }

    /// What the caller gave and got for a listing's sale: theirs only once shown.
    func dealRatings(_ identity: Identity, listing id: UUID, now: Date = Date()) async throws -> DealRatings {
        _ = try await requireStudent(identity, now: now)
        let (_, side) = try await ratingSide(identity, listing: id)
        let all = try await trust.ratings(listing: id, on: database.sql)
        let mine = all.first { $0.rater == identity.user.id }?.rating
        let theirs = all.first { $0.rater != identity.user.id }?.rating
        return DealRatings(
            canRate: side != nil && mine == nil,
            mine: mine,
            theirs: theirs.flatMap { $0.shownAt <= now ? $0 : nil },
            theirsWaiting: theirs.map { $0.shownAt > now } ?? false
        )
    }

    /// A student's shown ratings, newest first (404 as for their profile).
    func ratings(
        _ identity: Identity,
        username: String,
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<MarketRating> {
        let student = try await visibleStudent(identity, username: username, now: now)
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let rows = try await trust.ratings(of: student.id, now: now, limit: limit + 1, offset: offset, on: database.sql)
        return Page(
            items: Array(rows.prefix(limit)),
            nextCursor: rows.count > limit ? PlaceCursor.encode(offset: offset + limit) : nil
        )
    }

    /// The listing and the caller's side of its completed handshake (nil: none yet). Anyone but its seller and buyer: 404.
    private func ratingSide(_ identity: Identity, listing id: UUID) async throws -> (ListingStore.Record, DealSide?) {
        guard let listing = try await listings.listing(id, on: database.sql),
            [listing.sellerId, listing.soldTo].contains(identity.user.id)
        else { throw PlazaError.notFound("listing") }
        guard listing.state == .sold, let buyer = listing.soldTo,
            try await deals.handshakeDone(listing: id, buyer: buyer, on: database.sql)
        else {
            return (listing, nil)
        }
        return (listing, listing.sellerId == identity.user.id ? .seller : .buyer)
    }
}
