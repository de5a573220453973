import Foundation
import PlazaCore
import SQLKit

/// A coupon claim as it is stored, for `plaza bench chaos` to compare with the claims it was answered: its id and
/// who holds it.
package struct CouponClaimOutcome: Sendable, Hashable {
    package var id: UUID
    package var user: UUID
}

extension OffersStore {
    /// Every claim row of the campaigns `ids`, by campaign.
    func claimRows(campaigns ids: [UUID], on db: any SQLDatabase) async throws -> [UUID: [CouponClaimOutcome]] {
        var claims: [UUID: [CouponClaimOutcome]] = [:]
        for chunk in ids.chunked(by: 500) {
            for row in try await db.select().columns("id", "campaign_id", "user_id").from("coupon_claims").where(
                "campaign_id",
                .in,
                chunk
            ).all() {
                let claim = CouponClaimOutcome(
                    id: try row.decode(column: "id", as: UUID.self),
                    user: try row.decode(column: "user_id", as: UUID.self)
                )
                claims[try row.decode(column: "campaign_id", as: UUID.self), default: []].append(claim)
            }
        }
        return claims
    }
}

extension PlazaServices {
    /// The claims of each campaign of `ids` (none: no entry).
    package func couponClaims(_ ids: [UUID]) async throws -> [UUID: [CouponClaimOutcome]] {
        try await OffersStore().claimRows(campaigns: ids, on: database.sql)
    }
}
