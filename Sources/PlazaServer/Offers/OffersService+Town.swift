import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Offers running in town (issue 39: search found only what had reached the customer): every active campaign of a
/// listed business, browsable by anyone signed in. Its own targeting still decides who may claim it; the customer's
/// offer settings do not (they say what may come to them unasked, and browsing is asking).
extension OffersService {
    /// The customer's offer settings as they saved them; nil when they never chose (the defaults apply).
    func chosenSettings(_ identity: Identity) async throws -> OfferSettings? {
        try await store.settings(user: identity.user.id, on: database.sql)
    }

    /// `GET /v1/offers/town`: ending soonest first, each saying whether the customer may claim it.
    func townOffers(
        _ identity: Identity,
        text: String? = nil,
        category: BusinessCategory? = nil,
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<TownOffer> {
        let after = try cursor.map { try RowCursor.decode($0).id }
        let (user, db) = (identity.user.id, database.sql)
        let rows = try await store.townCampaigns(
            search: (text, category),
            now: now,
            limit: limit + 1,
            after: after,
            on: db
        )
        let page = Array(rows.prefix(limit))
        let ids = page.map(\.id)
        let names = try await businesses.store.businesses(ids: Array(Set(page.map(\.businessId))), on: db)
        let received = try await store.received(user: user, of: ids, on: db)
        let claims = try await store.claims(user: user, campaigns: ids, on: db)
        var items: [TownOffer] = []
        for record in page {
            let name = names[record.businessId]?.name ?? "A business"
            let mine = claims.filter { $0.campaignId == record.id }
            let refusal = try await refusal(record, businessName: name, user: user, claims: mine, now: now, on: db)
            let content = record.running
            items.append(
                TownOffer(
                    id: record.id,
                    kind: content.kind,
                    title: content.title,
                    body: content.body,
                    business: Party(kind: .business, id: record.businessId, name: name),
                    discount: content.discount,
                    minimumSpend: content.minimumSpend,
                    maxDiscount: content.maxDiscount,
                    endsAt: content.endsAt,
                    received: received.contains(record.id),
                    claim: mine.first { $0.status == .claimed }?.dto,
                    claimable: refusal == nil,
                    notClaimable: refusal
                )
            )
        }
        return Page(
            items: items,
            nextCursor: rows.count > limit ? page.last.map { RowCursor(id: $0.id).encoded } : nil
        )
    }

    /// `POST /v1/offers/town/{id}/claim`: a coupon running in town whose targeting admits the customer joins their
    /// offers (with the reasons it admits them for) and is claimed, in one transaction; one that does not is 403
    /// `forbidden`, saying no more than the offer does.
    func claimInTown(
        _ identity: Identity,
        _ id: UUID,
        now: Date = Date()
    ) async throws -> (claim: CouponClaim, created: Bool) {
        let user = identity.user.id
        return try await database.transaction { db in
            guard let record = try await store.townCampaign(id, now: now, on: db) else {
                throw PlazaError.notFound("offer")
            }
            let name = try await businesses.store.businesses(ids: [record.businessId], on: db)[record.businessId]?.name
            let claims = try await store.claims(user: user, campaigns: [id], on: db)
            switch try await refusal(record, businessName: name ?? "", user: user, claims: claims, now: now, on: db) {
            case .ad?:
                throw PlazaError.validation(field: "id", phrase("This offer is an ad: there is nothing to claim."))
            case .used?, .noneLeft?:
                throw PlazaError(.conflict, .offerExhausted, phrase("No coupon of this offer is left for you."))
            case let refused?:
                throw PlazaError(.forbidden, .forbidden, refused.sentence(business: name ?? "The business"))
            case nil:
                break
            }
            let reasons = try await admits(record, businessName: name ?? "", user: user, now: now, on: db) ?? []
            _ = try await store.insertOffer(
                campaign: id,
                user: user,
                business: record.businessId,
                reasons: reasons,
                at: now,
                on: db
            )
            let (claim, created) = try await Self.claim(id, user: user, store: store, now: now, on: db)
            return (claim.dto, created)
        }
    }

    /// Why the customer may not claim the campaign now, or nil when they may (or hold an unused claim of it).
    private func refusal(
        _ record: CampaignRecord,
        businessName: String,
        user: UUID,
        claims: [ClaimRecord],
        now: Date,
        on db: any SQLDatabase
    ) async throws -> TownOfferRefusal? {
        let content = record.running
        guard content.kind == .coupon else { return .ad }
        if claims.contains(where: { $0.status == .claimed }) { return nil }
        if claims.filter({ $0.status != .expired }).count >= (content.perCustomer ?? 1) { return .used }
        if let total = content.totalRedemptions, record.claimed >= total { return .noneLeft }
        var anytime = content
        anytime.schedule = nil
        guard try await admits(anytime, record, businessName: businessName, user: user, now: now, on: db) != nil else {
            return .notForYou
        }
        guard try await admits(record, businessName: businessName, user: user, now: now, on: db) != nil else {
            return .notNow
        }
        return nil
    }

    /// The reasons the campaign's targeting admits the customer for, wherever they are (nil: it does not).
    private func admits(
        _ record: CampaignRecord,
        businessName: String,
        user: UUID,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [OfferReason]? {
        try await admits(record.running, record, businessName: businessName, user: user, now: now, on: db)
    }

    private func admits(
        _ content: CampaignContent,
        _ record: CampaignRecord,
        businessName: String,
        user: UUID,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [OfferReason]? {
        guard let facts = try await store.audienceFacts(user: user, on: db) else { return nil }
        let settings = try await store.settings(user: user, on: db) ?? OfferSettings()
        let subscription = try await store.subscriptions(user: user, businesses: [record.businessId], on: db)[
            record.businessId
        ]
        let lastPaid =
            content.target.pastCustomers == nil
            ? nil : try await store.lastPaid(user: user, business: record.businessId, on: db)
        let audience = OfferAudience(
            age: OfferRules.age(birthDate: facts.birthDate, now: now),
            gender: facts.gender,
            student: facts.student,
            use: settings.use,
            subscribed: (content.kind == .ad ? subscription?.ads : subscription?.coupons) ?? false,
            lastPaid: lastPaid
        )
        let occasion = OfferOccasion(businessName: businessName, distance: nil, at: now, calendar: calendar)
        return OfferRules.reasons(content, for: audience, on: occasion)
    }
}
