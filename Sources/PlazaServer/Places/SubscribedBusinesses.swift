import Foundation

/// What places asks of offers to show only the businesses a customer subscribed to (`subscribed=true` on the nearby
/// list and the map): offers answer it (`OffersSubscriptions`, wired in `PlazaServices`), so places know no offer.
protocol SubscribedBusinesses: Sendable {
    /// The businesses whose ads or coupons the user subscribed to.
    func businesses(subscribedBy user: UUID) async throws -> Set<UUID>
}

extension PlacesService {
    /// The businesses a list or map keeps when the caller asks for their subscriptions only; nil keeps all. Asking
    /// signed out is 401.
    func subscribedOnly(_ viewer: Identity?, _ asked: Bool?) async throws -> Set<UUID>? {
        guard asked == true else { return nil }
        guard let viewer else { throw PlazaError.unauthorized }
        return try await subscriptions?.businesses(subscribedBy: viewer.user.id) ?? []
    }
}
