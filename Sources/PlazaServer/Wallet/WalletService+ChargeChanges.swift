import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// What changes a charge after it is made: the customer's coupon, the business's refund, and its end unpaid (declined,
/// cancelled or expired).
extension WalletService {
    /// The customer puts a coupon on a charge waiting for them (one they claimed, or an offer they received, claimed at
    /// once): its amount drops by the discount, and both sides see the charge as it now stands (`charge.updated`).
    func applyCoupon(
        _ identity: Identity,
        id: UUID,
        _ request: ApplyCouponRequest,
        now: Date = Date()
    ) async throws -> Charge {
        let reference: CouponReference
        switch (request.claimId, request.offerId) {
        case (let claim?, nil): reference = .claim(claim)
        case (nil, let offer?): reference = .offer(offer)
        default:
            let message = "Send exactly one of claimId and offerId."
            throw PlazaError.validation([
                FieldError(field: "claimId", message: message), FieldError(field: "offerId", message: message),
            ])
        }
        let (user, coupons) = (identity.user.id, coupons)
        return try await events.transaction { db in
            guard let current = try await charges.find(id, on: db), current.customerId == user,
                !current.isPaymentRequest
            else {
                throw PlazaError.notFound("charge")
            }
            guard current.status(at: now) == .pending else { throw Self.stateConflict(current, now: now) }
            guard current.discount == nil else {
                var error = PlazaError(
                    .conflict,
                    .stateConflict,
                    phrase("This charge has a coupon already."),
                    detail: phrase("One coupon per charge.")
                )
                error.currentState = ChargeStatus.pending.rawValue
                throw error
            }
            guard let coupons else {
                throw PlazaError.invalidCoupon(field: reference.field, phrase("This Plaza takes no coupons."))
            }
            let discount = try await coupons.hold(
                reference,
                customer: user,
                business: current.businessId,
                charge: id,
                subtotal: current.goods,
                now: now,
                on: db
            )
            guard let charge = try await charges.discount(id, discount, now: now, on: db) else {
                throw Self.stateConflict(current, now: now)
            }
            let team =
                try await businesses.store.memberIDs(businesses: [charge.businessId], on: db)[charge.businessId] ?? []
            let event = try Self.event(WalletEventType.chargeUpdated, charge.dto(now: now), at: now)
            var shown = charge.dto(now: now)
            shown.eligibleCoupons = []
            return (shown, [.event(audience: [user] + team, event: event)])
        }
    }

    /// Owners and staff give back part or all of what is left of an approved charge.
    func refundCharge(
        _ identity: Identity,
        id: UUID,
        _ request: RefundRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> Charge {
        let claim = try Self.require(claim)
        if let problem = WalletRules.amountError(request.amount, field: "amount") {
            throw PlazaError.validation([problem])
        }
        let reason = request.reason?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        if let reason, reason.count > RefundRequest.reasonLength {
            throw PlazaError.validation(field: "reason", phrase("Say why in at most 200 characters."))
        }
        let user = identity.user.id
        let refunded = try await events.transaction { db in
            guard let current = try await charges.find(id, on: db),
                try await businesses.store.role(of: user, in: current.businessId, on: db) != nil
            else { throw PlazaError.notFound("charge") }
            try identity.requireVerified()
            guard current.status(at: now).canMove(to: .refunded) else { throw Self.stateConflict(current, now: now) }
            let (dto, messages) = try await postRefund(
                current,
                amount: request.amount,
                reason: reason,
                now: now,
                on: db
            )
            try await idempotency.record(dto, status: 200, claim: claim, on: db)
            return (dto, messages)
        }
        await loyalty?.committed(cards: refunded.loyalty?.map(\.cardId) ?? [])
        return refunded
    }

    /// The customer says no (`declined`), or the business withdraws it (`cancelled`).
    func endCharge(_ identity: Identity, id: UUID, as status: ChargeStatus, now: Date = Date()) async throws -> Charge {
        let user = identity.user.id
        return try await events.transaction { db in
            guard let current = try await charges.find(id, on: db) else { throw PlazaError.notFound("charge") }
            if status == .declined {
                guard current.customerId == user else { throw PlazaError.notFound("charge") }
            } else if current.isPaymentRequest {
                // A person's request is called off by the person who asked.
                guard current.businessId == user else { throw PlazaError.notFound("charge") }
            } else {
                guard try await businesses.store.role(of: user, in: current.businessId, on: db) != nil else {
                    throw PlazaError.notFound("charge")
                }
            }
            guard current.status(at: now).canMove(to: status),
                let charge = try await charges.decide(id, to: status, now: now, on: db)
            else {
                throw Self.stateConflict(current, now: now)
            }
            if charge.discount != nil { try await coupons?.settle(charge: charge.id, paid: false, now: now, on: db) }
            return (
                charge.dto(now: now), try await chargeEvent(WalletEventType.charge(status), charge, now: now, on: db)
            )
        }
    }

    /// Marks pending charges past their expiry and tells both sides.
    func expireCharges(now: Date = Date()) async throws {
        try await events.transaction { db in
            var messages: [FeedMessage] = []
            for charge in try await charges.expire(now: now, limit: 200, on: db) {
                // Its coupon is the customer's again.
                if charge.discount != nil {
                    try await coupons?.settle(charge: charge.id, paid: false, now: now, on: db)
                }
                messages += try await chargeEvent(WalletEventType.charge(.expired), charge, now: now, on: db)
            }
            return ((), messages)
        }
    }
}
