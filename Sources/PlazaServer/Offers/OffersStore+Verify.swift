import Foundation
import PlazaCore
import SQLKit

/// Offers' part of `plaza verify`: coupon campaigns' claims against their cap and counter, and redeemed claims against
/// the wallet's charges (read here, beside the claims that name them: the one join between the two domains).
extension OffersStore {
    /// `coupon_claims`: a campaign's claim rows never exceed its running version's `totalRedemptions`, and its `claimed`
    /// counter (what `takeClaim` holds the cap with) equals its claim rows (expired ones stay rows and stay counted).
    /// Campaigns nobody claimed are left out by the query; the cap is read from the content in Swift (JSON text).
    func claimFindings(on db: any SQLDatabase) async throws -> [VerifyFinding] {
        let rows = try await db.raw(
            """
            SELECT c.id, c.claimed, c.content, c.approved, k.n FROM campaigns c
            LEFT JOIN (SELECT campaign_id, COUNT(*) AS n FROM coupon_claims GROUP BY campaign_id) k ON k.campaign_id = c.id
            WHERE c.claimed > 0 OR k.n IS NOT NULL
            """
        ).all()
        var found: [VerifyFinding] = []
        for row in rows {
            let id = try row.decode(column: "id", as: UUID.self)
            let claimed = try row.decode(column: "claimed", as: Int.self)
            let claims = try row.decode(column: "n", as: Int?.self) ?? 0
            if claimed != claims {
                found.append(
                    VerifyFinding(.couponClaims, id, "claimed counter is \(claimed), \(claims) claims are stored")
                )
            }
            let text =
                try row.decode(column: "approved", as: String?.self) ?? row.decode(column: "content", as: String.self)
            if let cap = (try? Self.decode(CampaignContent.self, text))?.totalRedemptions, claims > cap {
                found.append(VerifyFinding(.couponClaims, id, "\(claims) claims exceed the cap of \(cap)"))
            }
        }
        return found
    }

    /// `coupon_redemption`: a redeemed claim names a charge that exists, was paid (approved, or refunded after) and
    /// no other redeemed claim names; and a paid charge with a coupon's discount has its claim redeemed. Only broken
    /// rows come back.
    func redemptionFindings(on db: any SQLDatabase) async throws -> [VerifyFinding] {
        let redeemed = CouponClaimStatus.redeemed.rawValue
        let paid = [ChargeStatus.approved.rawValue, ChargeStatus.refunded.rawValue]
        let rows = try await db.raw(
            """
            SELECT k.id, k.charge_id, ch.status AS charge_status, s.n AS sharing FROM coupon_claims k
            LEFT JOIN charges ch ON ch.id = k.charge_id
            LEFT JOIN (SELECT charge_id, COUNT(*) AS n FROM coupon_claims WHERE status = \(bind: redeemed) AND charge_id IS NOT NULL
              GROUP BY charge_id) s ON s.charge_id = k.charge_id
            WHERE k.status = \(bind: redeemed) AND (k.charge_id IS NULL OR ch.id IS NULL OR ch.status NOT IN (\(binds: paid)) OR s.n > 1)
            """
        ).all()
        var found: [VerifyFinding] = try rows.map { row in
            let id = try row.decode(column: "id", as: UUID.self)
            guard let charge = try row.decode(column: "charge_id", as: UUID?.self) else {
                return VerifyFinding(.couponRedemption, id, "redeemed without a charge")
            }
            let name = charge.uuidString.lowercased()
            guard let status = try row.decode(column: "charge_status", as: String?.self) else {
                return VerifyFinding(.couponRedemption, id, "redeemed by charge \(name), which does not exist")
            }
            let sharing = try row.decode(column: "sharing", as: Int?.self) ?? 1
            guard sharing <= 1 else {
                return VerifyFinding(.couponRedemption, id, "charge \(name) redeemed \(sharing) claims")
            }
            return VerifyFinding(.couponRedemption, id, "redeemed by charge \(name), which is \(status)")
        }
        let unredeemed = try await db.raw(
            """
            SELECT ch.id, ch.discount FROM charges ch WHERE ch.discount IS NOT NULL AND ch.status IN (\(binds: paid))
            AND NOT EXISTS (SELECT 1 FROM coupon_claims k WHERE k.charge_id = ch.id AND k.status = \(bind: redeemed))
            """
        ).all()
        for row in unredeemed {
            let charge = try row.decode(column: "id", as: UUID.self)
            let discount = try? Self.decode(ChargeDiscount.self, try row.decode(column: "discount", as: String.self))
            found.append(
                VerifyFinding(
                    .couponRedemption,
                    discount?.claimId ?? charge,
                    "charge \(charge.uuidString.lowercased()) was paid with it but it is not redeemed"
                )
            )
        }
        return found
    }

    /// `plaza verify`'s `coupon_claims`: claims made after their campaign was stopped (the claim decides from the
    /// campaign's row, locked, so there should be none).
    func stoppedClaimFindings(on db: any SQLDatabase) async throws -> [VerifyFinding] {
        try await db.raw(
            """
            SELECT k.id, k.campaign_id FROM coupon_claims k JOIN campaigns c ON c.id = k.campaign_id
            WHERE c.stopped_at IS NOT NULL AND k.created_at > c.stopped_at
            """
        ).all().map { row in
            let campaign = try row.decode(column: "campaign_id", as: UUID.self).uuidString.lowercased()
            return VerifyFinding(
                .couponClaims,
                try row.decode(column: "id", as: UUID.self),
                "claimed after its campaign \(campaign) was stopped"
            )
        }
    }
}
