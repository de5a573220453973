import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Listings: verified students post, edit, mark sold or remove theirs; members of the same campus read the feed and
/// search it. Another campus's listing, a removed one, or one whose seller withdrew from the agreement is 404.
extension MarketService {
    package func createListing(
        _ identity: Identity,
        _ request: ListingRequest,
        now: Date = Date()
    ) async throws -> Listing {
        let membership = try await requireStudent(identity, now: now)
        try await check(request)
        if let terms = request.biddable {
            let problems = BiddingRules.problems(terms, start: request.price?.amount, now: now)
            guard problems.isEmpty else { throw PlazaError.validation(problems) }
        }
        let id = UUID()
        let record = ListingStore.Record(
            id: id,
            campusId: membership.campus.id,
            sellerId: identity.user.id,
            state: .active,
            title: request.title.trimmingCharacters(in: .whitespacesAndNewlines),
            description: request.description.trimmingCharacters(in: .whitespacesAndNewlines),
            price: request.price?.amount,
            currency: request.price?.currency,
            category: request.category,
            condition: request.condition,
            photoIds: request.photoIds,
            soldTo: nil,
            createdAt: now,
            updatedAt: now,
            sellerUsername: identity.user.username,
            sellerName: identity.user.displayName,
            auction: request.biddable.map {
                AuctionState(
                    startPrice: request.price?.amount ?? 0,
                    reserve: $0.reservePrice,
                    currentPrice: request.price?.amount ?? 0,
                    leader: nil,
                    leaderMax: 0,
                    bidCount: 0,
                    endsAt: $0.endsAt
                )
            }
        )
        let (listings, media, body, service) = (listings, media, Self.searchBody(record), self)
        try await events.transaction(publishing: { db in
            try await listings.insert(record, searchBody: body, on: db)
            try await media.attach(
                request.photoIds,
                owner: identity.user.id,
                to: Self.subject(id),
                field: "photoIds",
                on: db
            )
            return ((), try await service.newListingAlerts(record, now: now, on: db))
        })
        return try await view(record, viewer: identity.user.id, now: now)
    }

    /// One listing, for members of its campus (its seller sees it in any state).
    func listing(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws -> Listing {
        let membership = try await requireStudent(identity, now: now)
        return try await view(
            try await visible(id, to: identity, campus: membership.campus.id),
            viewer: identity.user.id,
            now: now
        )
    }

    func changeListing(
        _ identity: Identity,
        _ id: UUID,
        _ change: ListingChange,
        now: Date = Date()
    ) async throws -> Listing {
        _ = try await requireStudent(identity, now: now)
        var record = try await own(id, identity)
        guard [.active, .reserved].contains(record.state) else { throw Self.finished(record.state) }
        if let auction = record.auction, auction.bidCount > 0, change.price != nil || change.free != nil {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("People have bid on it: the price cannot change."),
                detail: phrase("The bidding sets it.")
            )
        }
        let asked = MarketRules.applying(change, to: Self.request(record))
        try await check(asked)
        let (old, oldPrice) = (record.photoIds, record.price)
        record.title = asked.title.trimmingCharacters(in: .whitespacesAndNewlines)
        record.description = asked.description.trimmingCharacters(in: .whitespacesAndNewlines)
        (record.price, record.currency) = (asked.price?.amount, asked.price?.currency)
        (record.category, record.condition, record.photoIds, record.updatedAt) = (
            asked.category, asked.condition, asked.photoIds, now
        )
        let (listings, media, body, changed, service) = (listings, media, Self.searchBody(record), record, self)
        try await events.transaction(publishing: { db in
            guard try await listings.update(changed, searchBody: body, on: db) else {
                throw Self.finished(try await listings.listing(id, on: db)?.state ?? .removed)
            }
            try await media.attach(
                changed.photoIds,
                owner: identity.user.id,
                to: Self.subject(id),
                field: "photoIds",
                on: db
            )
            try await media.detach(old.filter { !changed.photoIds.contains($0) }, from: Self.subject(id), on: db)
            return ((), try await service.wishListAlerts(changed, oldPrice: oldPrice, now: now, on: db))
        })
        return try await view(record, viewer: identity.user.id, now: now)
    }

    /// Takes a listing off the marketplace for good (kept for reports).
    func removeListing(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws {
        _ = try await requireStudent(identity, now: now)
        var record = try await own(id, identity)
        guard record.state != .removed else { return }
        (record.state, record.updatedAt) = (.removed, now)
        try await finish(record, from: ListingState.allCases.filter { $0 != .removed }, now: now)
    }

    /// Saves a listing that left the market (sold another way, or removed): its open offers end and held money goes back.
    /// The move is conditional on the states it may leave (`from`), never a copy written back.
    private func finish(_ record: ListingStore.Record, from states: [ListingState], now: Date) async throws {
        let (listings, deals, service) = (listings, deals, self)
        try await events.transaction(publishing: { db in
            try await deals.lockOpenOffers(listing: record.id, on: db)
            guard
                try await listings.move(
                    record.id,
                    from: states,
                    to: record.state,
                    soldTo: record.soldTo,
                    now: now,
                    on: db
                )
            else {
                throw Self.finished(try await listings.listing(record.id, on: db)?.state ?? record.state)
            }
            try await service.closeOffers(listing: record.id, now: now, on: db)
            return ((), try await service.wishListAlerts(record, oldPrice: nil, now: now, on: db))
        })
    }

    /// Marks a listing sold: to a member of the campus (by username), or elsewhere.
    func markSold(_ identity: Identity, _ id: UUID, _ sale: ListingSale, now: Date = Date()) async throws -> Listing {
        let membership = try await requireStudent(identity, now: now)
        var record = try await own(id, identity)
        guard [.active, .reserved].contains(record.state) else { throw Self.finished(record.state) }
        if let name = sale.buyer?.trimmingCharacters(in: .whitespaces), !name.isEmpty {
            guard let buyer = try await AccountStore().user(login: name, on: database.sql),
                buyer.id != identity.user.id,
                try await store.member(user: buyer.id, on: database.sql)?.campusId == membership.campus.id
            else { throw PlazaError.validation(field: "buyer", phrase("No student of your campus has this username.")) }
            (record.soldTo, record.buyerUsername) = (buyer.id, buyer.username)
        }
        (record.state, record.updatedAt) = (.sold, now)
        try await finish(record, from: [.active, .reserved], now: now)
        return try await view(record, viewer: identity.user.id, now: now)
    }

    /// The campus's feed: active listings, filtered and sorted, a page at a time.
    func feed(
        _ identity: Identity,
        _ query: ListingQuery,
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<Listing> {
        let membership = try await requireStudent(identity, now: now)
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let rows = try await listings.feed(
            campus: membership.campus.id,
            viewer: identity.user.id,
            query,
            agreement: MarketRules.agreementVersion,
            limit: limit + 1,
            offset: offset,
            sellersAt: now,
            on: database.sql
        )
        return Page(
            items: try await views(Array(rows.prefix(limit)), viewer: nil, now: now),
            nextCursor: rows.count > limit ? PlaceCursor.encode(offset: offset + limit) : nil
        )
    }

    /// My listings (the Sell view), newest first, in `states` (all when empty).
    func myListings(
        _ identity: Identity,
        states: [ListingState],
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<Listing> {
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let rows = try await listings.listings(
            seller: identity.user.id,
            states: states.isEmpty ? ListingState.allCases : states,
            limit: limit + 1,
            offset: offset,
            on: database.sql
        )
        return Page(
            items: try await views(Array(rows.prefix(limit)), viewer: nil, now: now),
            nextCursor: rows.count > limit ? PlaceCursor.encode(offset: offset + limit) : nil
        )
    }

    /// My selling history (`selling`) or buying history: sold listings, newest first, with the other side and the price.
    func history(
        _ identity: Identity,
        selling: Bool,
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<MarketSale> {
        _ = try await requireStudent(identity, now: now)
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let rows = try await listings.sold(
            seller: selling ? identity.user.id : nil,
            buyer: selling ? nil : identity.user.id,
            limit: limit + 1,
            offset: offset,
            on: database.sql
        )
        let shown = try await views(rows.prefix(limit).map(\.record), viewer: nil, now: now)
        let items = zip(rows.prefix(limit), shown).map { row, listing -> MarketSale in
            let other: ListingSeller? =
                selling
                ? row.record.buyerUsername.map { ListingSeller(username: $0, displayName: row.buyerName ?? $0) }
                : ListingSeller(username: row.record.sellerUsername, displayName: row.record.sellerName)
            let amount = row.amount ?? row.record.price
            return MarketSale(
                listing: listing,
                counterpart: other,
                price: amount.flatMap { value in row.record.currency.map { Money(amount: value, currency: $0) } },
                paidThroughPlaza: row.paid,
                soldAt: row.record.updatedAt
            )
        }
        return Page(items: items, nextCursor: rows.count > limit ? PlaceCursor.encode(offset: offset + limit) : nil)
    }

    // MARK: Helpers

    private func check(_ request: ListingRequest) async throws {
        var problems = MarketRules.problems(request, currency: currency)
        if !(try await categories()).contains(where: { $0.slug == request.category }) {
            problems.append(FieldError(field: "category", message: phrase("Pick one of the marketplace's categories.")))
        }
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
    }

    /// The listing as `identity` may see it on `campus`; 404 otherwise.
    private func visible(_ id: UUID, to identity: Identity, campus: UUID) async throws -> ListingStore.Record {
        guard let record = try await listings.listing(id, on: database.sql), record.campusId == campus else {
            throw PlazaError.notFound("listing")
        }
        if record.sellerId == identity.user.id { return record }
        let seller = try await store.signature(user: record.sellerId, on: database.sql)
        guard record.state != .removed, seller.version == MarketRules.agreementVersion, !seller.suspended,
            !(try await store.blocked(identity.user.id, record.sellerId, on: database.sql))
        else {
            throw PlazaError.notFound("listing")
        }
        return record
    }

    /// The caller's own listing; 404 for anyone else's.
    private func own(_ id: UUID, _ identity: Identity) async throws -> ListingStore.Record {
        guard let record = try await listings.listing(id, on: database.sql), record.sellerId == identity.user.id else {
            throw PlazaError.notFound("listing")
        }
        return record
    }

    static func finished(_ state: ListingState) -> PlazaError {
        let title: String =
            switch state {
            case .active: phrase("This listing is active: it cannot change any more.")
            case .reserved: phrase("This listing is reserved: it cannot change any more.")
            case .sold: phrase("This listing is sold: it cannot change any more.")
            case .removed: phrase("This listing is removed: it cannot change any more.")
            }
        var error = PlazaError(
            .conflict,
            .stateConflict,
            title
        )
        error.currentState = state.rawValue
        return error
    }
}
