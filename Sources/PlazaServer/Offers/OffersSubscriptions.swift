import Foundation
import PlazaCore

/// Offers' answer to places' `SubscribedBusinesses`: the map and the nearby list can show a customer's subscriptions only.
struct OffersSubscriptions: SubscribedBusinesses {
    let database: PlazaDatabase
    let store = OffersStore()

    func businesses(subscribedBy user: UUID) async throws -> Set<UUID> {
        try await store.subscribedBusinesses(user: user, on: database.sql)
    }
}
