import Foundation
import PlazaCore

extension LoyaltyService {
    // MARK: Analytics

    /// Owners and staff: a program's last `months` months, cut in `zone`; counts over fewer than 5 customers withheld.
    func analytics(
        _ identity: Identity,
        business: UUID,
        program id: UUID,
        months: Int,
        zone: TimeZone,
        now: Date = Date()
    ) async throws
        -> LoyaltyAnalytics
    {
        _ = try await businesses.requireMember(identity, of: business)
        guard let program = try await store.program(id, on: database.sql), program.businessId == business else {
            throw PlazaError.validation(field: "programId", phrase("This business runs no such program."))
        }
        let facts = try await store.facts(program: program.id, on: database.sql)
        return LoyaltyAnalytics(
            programId: id,
            timeZone: zone.identifier,
            months: LoyaltyAnalyticsRules.months(facts, count: months, now: now, zone: zone)
        )
    }

    // MARK: Sharing

    /// A customer lets a business see their own card history there, or stops.
    package func setSharing(
        _ identity: Identity,
        business: UUID,
        share: Bool,
        now: Date = Date()
    ) async throws -> LoyaltySharing {
        let record = try await businesses.business(business, viewer: identity)
        try await store.setSharing(share, user: identity.user.id, business: record.id, now: now, on: database.sql)
        return LoyaltySharing(businessId: record.id, share: share)
    }

    func sharing(_ identity: Identity, business: UUID) async throws -> Bool {
        try await store.shares(user: identity.user.id, business: business, on: database.sql)
    }

    /// Owners and staff: the customers who share their history with the business, and only those.
    func regulars(_ identity: Identity, business: UUID) async throws -> [LoyaltyRegular] {
        _ = try await businesses.requireMember(identity, of: business)
        return try await store.sharingCustomers(business: business, on: database.sql)
    }
}
