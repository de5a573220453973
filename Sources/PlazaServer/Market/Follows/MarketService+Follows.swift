import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Follows, the wish list and saved searches: a followed seller's new listing (at most one alert an hour per seller),
/// a saved listing's price drop or sale, and new listings matching a saved search (at once, or in a daily digest)
/// notify through the platform's alerts, which respect each person's notification preferences.
extension MarketService {
    // MARK: Follows

    func follow(_ identity: Identity, username: String, now: Date = Date()) async throws -> MarketFollow {
        let seller = try await visibleStudent(identity, username: username, now: now)
        guard seller.id != identity.user.id else {
            throw PlazaError.validation(field: "username", phrase("You cannot follow yourself."))
        }
        let since = try await follows.follow(identity.user.id, seller: seller.id, now: now, on: database.sql)
        return MarketFollow(username: seller.username, displayName: seller.displayName, since: since)
    }

    func unfollow(_ identity: Identity, username: String) async throws {
        guard let seller = try await AccountStore().user(login: username, on: database.sql) else {
            throw PlazaError.notFound("student")
        }
        try await follows.unfollow(identity.user.id, seller: seller.id, on: database.sql)
    }

    func following(_ identity: Identity, now: Date = Date()) async throws -> [MarketFollow] {
        _ = try await requireStudent(identity, now: now)
        return try await follows.follows(identity.user.id, on: database.sql)
    }

    // MARK: The wish list

    func save(_ identity: Identity, listing id: UUID, now: Date = Date()) async throws -> WishListEntry {
        let listing = try await listing(identity, id, now: now)
        guard listing.seller.username != identity.user.username else {
            throw PlazaError.validation(field: "listingId", phrase("This is your own listing."))
        }
        let savedAt = try await follows.save(
            identity.user.id,
            listing: id,
            price: listing.price?.amount,
            now: now,
            on: database.sql
        )
        return WishListEntry(listing: listing, savedAt: savedAt)
    }

    func unsave(_ identity: Identity, listing id: UUID) async throws {
        try await follows.unsave(identity.user.id, listing: id, on: database.sql)
    }

    /// My saved listings that I may still see, newest first (sold ones stay, marked sold).
    func wishList(_ identity: Identity, now: Date = Date()) async throws -> [WishListEntry] {
        _ = try await requireStudent(identity, now: now)
        var entries: [WishListEntry] = []
        for (id, savedAt) in try await follows.wishList(identity.user.id, on: database.sql) {
            if let listing = try? await listing(identity, id, now: now) {
                entries.append(WishListEntry(listing: listing, savedAt: savedAt))
            }
        }
        return entries
    }

    func isSaved(_ identity: Identity, listing id: UUID) async throws -> Bool {
        try await follows.isSaved(identity.user.id, listing: id, on: database.sql)
    }

    // MARK: Saved searches

    func saveSearch(_ identity: Identity, _ request: SavedSearchRequest, now: Date = Date()) async throws -> SavedSearch
    {
        _ = try await requireStudent(identity, now: now)
        var request = request
        request.q = request.q?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        request.category = request.category?.nilIfEmpty
        let problems = FollowRules.problems(request)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        guard try await follows.searches(identity.user.id, on: database.sql).count < FollowRules.savedSearchesPerUser
        else {
            throw PlazaError.conflict(
                field: nil,
                say(
                    "You have {count} saved searches: delete one first.",
                    ["count": String(FollowRules.savedSearchesPerUser)]
                )
            )
        }
        let search = SavedSearch(id: UUID(), request, createdAt: now)
        try await follows.insert(search, user: identity.user.id, on: database.sql)
        return search
    }

    func savedSearches(_ identity: Identity, now: Date = Date()) async throws -> [SavedSearch] {
        _ = try await requireStudent(identity, now: now)
        return try await follows.searches(identity.user.id, on: database.sql)
    }

    func deleteSearch(_ identity: Identity, _ id: UUID) async throws {
        guard try await follows.delete(search: id, user: identity.user.id, on: database.sql) else {
            throw PlazaError.notFound("saved search")
        }
    }

    // MARK: Alerts, inside the transaction that made the change

    /// A new listing: its seller's followers (at most once an hour each) and the matching instant searches.
    func newListingAlerts(
        _ record: ListingStore.Record,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [FeedMessage] {
        let link = "/market/listings/\(record.id.uuidString.lowercased())"
        let price = record.price.flatMap { amount in record.currency.map { Money(amount: amount, currency: $0) } }
        // The body is the price, written the reader's way, or "free" in their words.
        let body = price == nil ? phrase("free") : phrase("{money}")
        let amounts = price.map { ["money": $0] } ?? [:]
        var told = Set<UUID>()
        var messages: [FeedMessage] = []
        let followers = try await follows.followersToTell(
            seller: record.sellerId,
            campus: record.campusId,
            interval: FollowRules.followAlertInterval,
            now: now,
            on: db
        )
        for follower in followers where told.insert(follower).inserted {
            messages.append(
                .alert(
                    user: follower,
                    kind: .market,
                    link: link,
                    Wording(
                        title: phrase("{name} listed {title}"),
                        body: body,
                        values: ["name": record.sellerName, "title": record.title],
                        amounts: amounts
                    )
                )
            )
        }
        let words = Self.searchBody(record).split(separator: " ").map(String.init)
        for (user, search) in try await follows.instantSearches(
            campus: record.campusId,
            seller: record.sellerId,
            now: now,
            on: db
        )
        where FollowRules.matches(
            search.request.query,
            words: words,
            category: record.category,
            condition: record.condition,
            price: record.price
        )
            && told.insert(user).inserted
        {
            messages.append(
                .alert(
                    user: user,
                    kind: .market,
                    link: link,
                    Wording(
                        title: (search.q ?? search.category) == nil
                            ? phrase("New for your search: {title}") : phrase("New for “{search}”: {title}"),
                        body: body,
                        values: ["search": search.q ?? search.category ?? "", "title": record.title],
                        amounts: amounts
                    )
                )
            )
        }
        return messages
    }

    /// A saved listing got cheaper, or was sold: those who saved it hear of it.
    func wishListAlerts(
        _ record: ListingStore.Record,
        oldPrice: Int64?,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [FeedMessage] {
        let link = "/market/listings/\(record.id.uuidString.lowercased())"
        if record.state == .sold {
            return try await follows.savers(
                listing: record.id,
                campus: record.campusId,
                seller: record.sellerId,
                now: now,
                on: db
            )
            .filter { $0 != record.soldTo }
            .map {
                .alert(
                    user: $0,
                    kind: .market,
                    link: link,
                    Wording(
                        title: phrase("{title} was sold"),
                        body: phrase("It was on your wish list."),
                        values: ["title": record.title]
                    )
                )
            }
        }
        guard let price = record.price, let currency = record.currency, let oldPrice, price < oldPrice else {
            return []
        }
        return try await follows.savers(
            listing: record.id,
            campus: record.campusId,
            seller: record.sellerId,
            below: price,
            now: now,
            on: db
        )
        .map {
            .alert(
                user: $0,
                kind: .market,
                link: link,
                Wording(
                    title: phrase("{title} now costs {money}"),
                    body: phrase("It was {old} when you saved it."),
                    values: ["title": record.title],
                    amounts: [
                        "money": Money(amount: price, currency: currency),
                        "old": Money(amount: oldPrice, currency: currency),
                    ]
                )
            )
        }
    }

    /// Daily digests due now: one alert per saved search with new matches since its last digest. Run every minute
    /// with the other maintenance; each digest is sent once (a conditional update of its mark).
    @discardableResult
    package func sendDigests(now: Date = Date()) async throws -> Int {
        var sent = 0
        for (user, search, since) in try await follows.dueDigests(now: now, limit: 100, on: database.sql) {
            guard let member = try await store.member(user: user, on: database.sql), member.verifiedUntil > now else {
                continue
            }
            let matches = try await listings.feed(
                campus: member.campusId,
                viewer: user,
                search.request.query,
                agreement: MarketRules.agreementVersion,
                limit: 50,
                offset: 0,
                createdAfter: since,
                on: database.sql
            ).filter { $0.sellerId != user }
            let follows = follows
            // The count picks the title's plural form; the first titles are the body.
            let searched = search.q ?? search.category
            let alert: [FeedMessage] =
                matches.isEmpty
                ? []
                : [
                    .alert(
                        user: user,
                        kind: .market,
                        link: "/market/saved-searches",
                        Wording(
                            key: searched == nil ? "alert.market.digest_any" : "alert.market.digest",
                            values: [
                                "search": searched ?? "",
                                "titles": matches.prefix(3).map(\.title).joined(separator: ", "),
                            ],
                            count: matches.count
                        )
                    )
                ]
            let done: Bool = try await events.transaction(publishing: { db in
                guard try await follows.markChecked(search.id, now: now, on: db) else { return (false, []) }
                return (true, alert)
            })
            if done, !alert.isEmpty { sent += 1 }
        }
        return sent
    }
}
