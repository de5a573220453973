import Foundation
import PlazaCore

/// The customer's side: how far offers may reach them, and the businesses they subscribed to.
extension OffersService {
    func settings(_ identity: Identity) async throws -> OfferSettings {
        try await store.settings(user: identity.user.id, on: database.sql) ?? OfferSettings()
    }

    /// Changes the fields sent; muted businesses are kept as given (at most 500).
    func changeSettings(
        _ identity: Identity,
        _ change: OfferSettingsChange,
        now: Date = Date()
    ) async throws -> OfferSettings {
        var validator = Validator()
        if let maxPerDay = change.maxPerDay {
            validator.check((1...20).contains(maxPerDay), "maxPerDay", phrase("Use 1 to 20 offers a day."))
        }
        if case .some(.some(let quiet)) = change.quietHours {
            validator.check(
                NotificationRules.minutes(quiet.from) != nil,
                "quietHours.from",
                phrase("Use a time such as 22:00.")
            )
            validator.check(
                NotificationRules.minutes(quiet.until) != nil,
                "quietHours.until",
                phrase("Use a time such as 07:00.")
            )
            validator.check(quiet.from != quiet.until, "quietHours.until", phrase("Must differ from the start."))
        }
        if let muted = change.muted {
            validator.check(muted.count <= 500, "muted", phrase("Mute at most 500 businesses."))
        }
        guard validator.isValid else { throw PlazaError.validation(validator.errors) }
        let store = store
        return try await database.transaction { db in
            var settings = change.applied(
                to: try await store.settings(user: identity.user.id, on: db) ?? OfferSettings()
            )
            var seen = Set<UUID>()
            settings.muted = settings.muted.filter { seen.insert($0).inserted }
            try await store.saveSettings(settings, user: identity.user.id, now: now, on: db)
            return settings
        }
    }

    /// Subscribes to a business anyone may see (or changes which kinds the subscription covers).
    package func subscribe(
        _ identity: Identity,
        business id: UUID,
        _ request: SubscriptionRequest,
        now: Date = Date()
    ) async throws
        -> OfferSubscription
    {
        let business = try await businesses.business(id, viewer: identity)
        let since = try await store.subscribe(user: identity.user.id, business: id, request, now: now, on: database.sql)
        return OfferSubscription(
            business: Party(kind: .business, id: id, name: business.name),
            ads: request.ads,
            coupons: request.coupons,
            since: since
        )
    }

    func unsubscribe(_ identity: Identity, business: UUID) async throws {
        try await store.unsubscribe(user: identity.user.id, business: business, on: database.sql)
    }

    func subscriptions(_ identity: Identity, limit: Int, cursor: String?) async throws -> Page<OfferSubscription> {
        let after = try cursor.map { try RowCursor.decode($0).id }
        let rows = try await store.subscriptions(
            user: identity.user.id,
            limit: limit + 1,
            after: after,
            on: database.sql
        )
        let page = Array(rows.prefix(limit))
        let names = try await businesses.store.businesses(ids: page.map(\.business), on: database.sql)
        return Page(
            items: page.map { business, kinds, since in
                OfferSubscription(
                    business: Party(kind: .business, id: business, name: names[business]?.name ?? "A business"),
                    ads: kinds.ads,
                    coupons: kinds.coupons,
                    since: since
                )
            },
            nextCursor: rows.count > limit ? page.last.map { RowCursor(id: $0.business).encoded } : nil
        )
    }

    /// Whether the customer subscribed to the business (for its page's button), and to which kinds.
    func subscription(_ identity: Identity, business: UUID) async throws -> SubscriptionRequest? {
        try await store.subscriptions(user: identity.user.id, businesses: [business], on: database.sql)[business]
    }

    /// Businesses' names by id (muted ones on the settings page).
    func businessNames(_ ids: [UUID]) async throws -> [UUID: String] {
        try await businesses.store.businesses(ids: ids, on: database.sql).mapValues(\.name)
    }
}
