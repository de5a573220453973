import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// The customer's offers: what reached them (current and used), search among them, opening, dismissing and claiming
/// coupons. An offer that did not reach the customer is 404 on every route.
extension OffersService {
    /// `GET /v1/me/offers` and `GET /v1/offers/search`: newest first.
    func offers(
        _ identity: Identity,
        history: Bool,
        text: String? = nil,
        category: BusinessCategory? = nil,
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<Offer> {
        let after = try cursor.map { try RowCursor.decode($0).id }
        let user = identity.user.id
        let rows = try await store.offers(
            user: user,
            history: history,
            search: (text, category),
            now: now,
            limit: limit + 1,
            after: after,
            on: database.sql
        )
        let page = Array(rows.prefix(limit))
        let items = try await dtos(page, user: user, now: now, on: database.sql)
        return Page(
            items: items,
            nextCursor: rows.count > limit ? page.last.map { RowCursor(id: $0.campaign.id).encoded } : nil
        )
    }

    /// One offer; the first look counts as opened (the merchant's statistics).
    func offer(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws -> Offer {
        let user = identity.user.id
        guard let received = try await store.offer(id, user: user, on: database.sql) else {
            throw PlazaError.notFound("offer")
        }
        if received.openedAt == nil { try await store.markOpened(id, user: user, at: now, on: database.sql) }
        return try await dtos([received], user: user, now: now, on: database.sql)[0]
    }

    /// Dismisses the offer for good, and mutes its business when asked (none of its offers come again).
    func dismiss(_ identity: Identity, _ id: UUID, muteBusiness: Bool, now: Date = Date()) async throws {
        let (user, store) = (identity.user.id, store)
        try await database.transaction { db in
            guard let received = try await store.offer(id, user: user, on: db) else {
                throw PlazaError.notFound("offer")
            }
            try await store.dismiss(id, user: user, at: now, on: db)
            guard muteBusiness else { return }
            var settings = try await store.settings(user: user, on: db) ?? OfferSettings()
            guard !settings.muted.contains(received.campaign.businessId) else { return }
            settings.muted.append(received.campaign.businessId)
            try await store.saveSettings(settings, user: user, now: now, on: db)
        }
    }

    /// Claims a coupon: the unused claim the customer holds already (`created` false), or a new one holding one of the
    /// campaign's `totalRedemptions` and of the customer's `perCustomer`; past them, 409 `offer_exhausted`.
    func claim(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws -> (claim: CouponClaim, created: Bool)
    {
        let (user, store) = (identity.user.id, store)
        return try await database.transaction { db in
            let (claim, created) = try await Self.claim(id, user: user, store: store, now: now, on: db)
            return (claim.dto, created)
        }
    }

    /// Claims a coupon inside the caller's transaction (claiming it on a charge runs in the charge's): the unused claim
    /// the customer holds already, or a new one holding one of the campaign's `totalRedemptions` and of the customer's
    /// `perCustomer`; past them, 409 `offer_exhausted`. 404 for an offer that did not reach them.
    static func claim(
        _ id: UUID,
        user: UUID,
        store: OffersStore,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (claim: ClaimRecord, created: Bool) {
        // The campaign's row first, locked: one customer's two taps are one claim.
        guard let campaign = try await store.campaign(id, forUpdate: true, on: db),
            try await store.offer(id, user: user, on: db) != nil
        else { throw PlazaError.notFound("offer") }
        let content = campaign.running
        guard content.kind == .coupon else {
            throw PlazaError.validation(field: "id", phrase("This offer is an ad: there is nothing to claim."))
        }
        // Stopped by Plaza: nothing of it is claimed any more, not even a claim held before (no counter takes it).
        if campaign.stoppedAt != nil {
            throw stateConflict(
                .ended,
                phrase("Plaza stopped this offer."),
                detail: phrase("It cannot be claimed any more.")
            )
        }
        let claims = try await store.claims(user: user, campaigns: [id], on: db)
        if let unused = claims.first(where: { $0.status == .claimed }) { return (unused, false) }
        guard [.active, .paused].contains(campaign.state), now < content.endsAt else {
            throw stateConflict(.ended, phrase("This offer has ended."), detail: nil)
        }
        let mine = claims.filter { $0.status != .expired }.count
        guard mine < (content.perCustomer ?? 1),
            try await store.takeClaim(campaign: id, total: content.totalRedemptions, on: db)
        else {
            throw PlazaError(.conflict, .offerExhausted, phrase("No coupon of this offer is left for you."))
        }
        let claim = ClaimRecord(
            id: UUID(),
            campaignId: id,
            userId: user,
            code: Secrets.readableCode(),
            status: .claimed,
            expiresAt: content.endsAt,
            chargeId: nil,
            discountAmount: nil,
            createdAt: now
        )
        try await store.insert(claim, on: db)
        return (claim, true)
    }

    /// The offers as the customer sees them: the running version, the business's name, their latest claim.
    private func dtos(
        _ received: [ReceivedOffer],
        user: UUID,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [Offer] {
        let ids = received.map(\.campaign.id)
        let names = try await businesses.store.businesses(ids: Array(Set(received.map(\.campaign.businessId))), on: db)
        var claims: [UUID: ClaimRecord] = [:]
        for claim in try await store.claims(user: user, campaigns: ids, on: db) where claims[claim.campaignId] == nil {
            claims[claim.campaignId] = claim
        }
        return received.map { row in
            let (content, business) = (row.campaign.running, row.campaign.businessId)
            var claim = claims[row.campaign.id]?.dto
            if claim?.status == .claimed, let expires = claim?.expiresAt, expires <= now { claim?.status = .expired }
            return Self.offer(
                row.campaign.id,
                content,
                business: Party(kind: .business, id: business, name: names[business]?.name ?? "A business"),
                receivedAt: row.receivedAt,
                claim: claim,
                reasons: row.reasons
            )
        }
    }

}
