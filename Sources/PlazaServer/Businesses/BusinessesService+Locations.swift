import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// A business's locations: owners add, change and remove where they receive customers.
extension BusinessesService {
    package func addLocation(
        _ identity: Identity,
        business: UUID,
        _ request: LocationRequest,
        now: Date = Date()
    ) async throws -> BusinessLocation {
        _ = try await requireMember(identity, of: business, owner: true)
        let (location, owner) = (try Self.location(from: request, id: UUID(), business: business), identity.user)
        try await events.transaction { db in
            try await store.insertLocation(location, now: now, on: db)
            return ((), [.catalogChanged] + (try await merchantReview(owner, on: db)))
        }
        return location
    }

    func updateLocation(
        _ identity: Identity,
        business: UUID,
        location id: UUID,
        _ request: LocationRequest
    ) async throws -> BusinessLocation {
        _ = try await requireMember(identity, of: business, owner: true)
        guard let existing = try await store.location(id: id, on: database.sql), existing.businessId == business else {
            throw PlazaError.notFound("location")
        }
        let (location, owner) = (try Self.location(from: request, id: id, business: business), identity.user)
        try await events.transaction { db in
            try await store.updateLocation(location, on: db)
            return ((), [.catalogChanged] + (try await merchantReview(owner, on: db)))
        }
        return location
    }

    func deleteLocation(_ identity: Identity, business: UUID, location id: UUID) async throws {
        _ = try await requireMember(identity, of: business, owner: true)
        let owner = identity.user
        let deleted = try await events.transaction { db in
            let deleted = try await store.deleteLocation(id: id, business: business, on: db)
            return (deleted, deleted ? [.catalogChanged] + (try await merchantReview(owner, on: db)) : [])
        }
        guard deleted else { throw PlazaError.notFound("location") }
    }

    private static func location(from request: LocationRequest, id: UUID, business: UUID) throws -> BusinessLocation {
        let errors = BusinessRules.locationProblems(request)
        guard errors.isEmpty else { throw PlazaError.validation(errors) }
        return BusinessLocation(
            id: id,
            businessId: business,
            name: request.name.trimmingCharacters(in: .whitespacesAndNewlines),
            address: request.address.trimmingCharacters(in: .whitespacesAndNewlines),
            latitude: request.latitude,
            longitude: request.longitude,
            radiusMeters: request.radiusMeters ?? BusinessRules.defaultLocationRadius,
            openingHours: request.openingHours ?? []
        )
    }
}
