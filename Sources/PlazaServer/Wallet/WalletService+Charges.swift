import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

extension WalletService {
    /// Owners and staff ask a customer at the counter to pay: present at one of the business's locations now,
    /// or identified by the pay code they show.
    func createCharge(
        _ identity: Identity,
        _ request: CreateChargeRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> Charge {
        let claim = try Self.require(claim)
        try identity.requireVerified()
        var validator = Validator()
        let customer = request.customer.map(AccountRules.normalizedUsername).flatMap { $0.isEmpty ? nil : $0 }
        let payCode = request.payCode.map { $0.filter(\.isNumber) }.flatMap { $0.isEmpty ? nil : $0 }
        validator.check(customer != nil || payCode != nil, "customer", "Name the customer or enter their pay code.")
        validator.check(
            customer == nil || payCode == nil,
            "payCode",
            "Name the customer or enter their pay code, not both."
        )
        validator.apply(WalletRules.textProblem(request.message), to: "message")
        validator.check((request.coupon ?? "").count <= 100, "coupon", "A coupon code is at most 100 characters.")
        validator.apply(
            WalletRules.currencyProblem(request.currency, accepted: configuration.currencies),
            to: "currency"
        )
        let lines = request.items ?? []
        let problems = validator.errors + WalletRules.lineProblems(lines)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        if lines.isEmpty {
            // Nothing to look up: the amount and tip can be checked before any database work.
            let totals = WalletRules.chargeTotals(items: [], amount: request.amount, tip: request.tip ?? 0)
            guard totals.problems.isEmpty else { throw PlazaError.validation(totals.problems) }
        }
        if payCode != nil { try await limiter.check(payCodeRule, identity.user.id.uuidString) }
        let (staff, ttl, secrets) = (identity.user, configuration.chargeTTL, secrets)
        let message = ShownText.trimmed(request.message)
        let coupon = request.coupon.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        let coupons = coupons
        do {
            return try await events.transaction { db in
                guard
                    let (business, role) = try await businesses.store.business(
                        id: request.businessId,
                        roleOf: staff.id,
                        on: db
                    )
                else {
                    throw PlazaError.notFound("business")
                }
                guard role != nil else { throw PlazaError.forbidden }
                guard business.listed else { throw PlazaError.merchantNotApproved }
                let items = try await chargeItems(lines, business: business.id, currency: request.currency, on: db)
                let totals = WalletRules.chargeTotals(items: items, amount: request.amount, tip: request.tip ?? 0)
                guard totals.problems.isEmpty else { throw PlazaError.validation(totals.problems) }
                let customerRecord: UserRecord
                if let payCode {
                    guard
                        let owner = try await charges.consumePayCode(
                            hash: secrets.hash("pay:\(payCode)"),
                            now: now,
                            on: db
                        ),
                        let user = try await accounts.user(id: owner, on: db)
                    else {
                        throw PlazaError(
                            .unprocessableContent,
                            .invalidCode,
                            phrase("This pay code is wrong, used or expired."),
                            errors: [.init(field: "payCode", message: phrase("Ask the customer for a new code."))]
                        )
                    }
                    customerRecord = user
                } else {
                    guard let name = customer, AccountRules.usernameProblem(name) == nil,
                        let user = try await accounts.user(login: name, on: db),
                        try await places.stays.isPresent(
                            user: user.id,
                            business: business.id,
                            since: now.addingTimeInterval(-PlacesRules.presenceFreshness),
                            on: db
                        )
                    else {
                        // The same answer for "no such user" and "not here": a merchant learns nothing about people elsewhere.
                        throw PlazaError(
                            .conflict,
                            .notPresent,
                            phrase("This customer is not at your business now."),
                            detail: phrase(
                                "Charge customers who share their location in the shop, or ask for their pay code."
                            ),
                            errors: [.init(field: "customer", message: phrase("Not present."))]
                        )
                    }
                    customerRecord = user
                }
                guard customerRecord.id != staff.id else {
                    throw PlazaError.validation(field: "customer", phrase("You cannot charge yourself."))
                }
                guard try await !charges.isBlocked(user: customerRecord.id, business: business.id, on: db) else {
                    throw PlazaError.chargingBlocked
                }
                var record = ChargeRecord(
                    reference: Self.newReference(),
                    businessId: business.id,
                    businessName: business.name,
                    customerId: customerRecord.id,
                    customerUsername: customerRecord.username,
                    customerName: customerRecord.displayName,
                    createdBy: staff.id,
                    amount: totals.goods,
                    currency: request.currency,
                    items: items,
                    message: message,
                    createdAt: now,
                    expiresAt: now.addingTimeInterval(ttl)
                )
                if let coupon {
                    // The amount and items are before the discount; the customer approves what is left.
                    guard let coupons else {
                        throw PlazaError.invalidCoupon(field: "coupon", phrase("This Plaza takes no coupons."))
                    }
                    record.discount = try await coupons.hold(
                        .code(coupon),
                        customer: customerRecord.id,
                        business: business.id,
                        charge: record.id,
                        subtotal: record.goods,
                        now: now,
                        on: db
                    )
                    record.amount -= record.discount?.amount ?? 0
                }
                // The tip comes last: a coupon never takes anything off it.
                record.tip = totals.amount - totals.goods
                record.amount += record.tip
                return try await open(record, claim: claim, now: now, on: db)
            }
        } catch let error as PlazaError where error.code == .invalidCode {
            try? await limiter.record(payCodeRule, identity.user.id.uuidString)
            throw error
        }
    }

    /// Asks the customer of `record` to pay, a shop's charge or a person's request alike: no more than
    /// `maximumPendingCharges` wait for one person (their row locked, so parallel asks count each other), the answer is
    /// recorded with the charge, and the customer and the payee hear of it.
    func open(
        _ record: ChargeRecord,
        claim: IdempotencyClaim,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (Charge, [FeedMessage]) {
        try await charges.lockCustomer(record.customerId, on: db)
        guard
            try await charges.pendingCount(customer: record.customerId, now: now, on: db)
                < WalletRules.maximumPendingCharges
        else {
            throw PlazaError.tooManyPendingCharges
        }
        try await charges.insert(record, on: db)
        let charge = record.dto(now: now)
        try await idempotency.record(charge, status: 201, claim: claim, on: db)
        return (charge, try await chargeEvent(WalletEventType.chargeRequested, record, now: now, on: db))
    }

    /// The customer pays: only what they were shown (amount, currency, business), only while it is pending.
    func approveCharge(
        _ identity: Identity,
        id: UUID,
        _ request: ApproveChargeRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> Charge {
        let claim = try Self.require(claim)
        try identity.requireVerified()
        // Asked of the amount the customer was shown: another amount is refused below as `approval_mismatch`.
        try await requireSecondFactor(
            identity,
            .payment(Money(amount: request.amount, currency: request.currency)),
            now: now
        )
        let customer = identity.user.id
        let paid = try await events.transaction { db in
            guard let current = try await charges.find(id, on: db), current.customerId == customer else {
                throw PlazaError.notFound("charge")
            }
            var mismatch: [FieldError] = []
            if request.amount != current.amount {
                let amount = sayAmount(current.dto().money)
                mismatch.append(.init(field: "amount", message: say("The charge is for {amount}.", ["amount": amount])))
            }
            if request.currency != current.currency {
                let currency = ["currency": current.currency]
                mismatch.append(.init(field: "currency", message: say("The charge is in {currency}.", currency)))
            }
            if !current.isPaymentRequest, request.businessId != current.businessId {
                mismatch.append(.init(field: "businessId", message: phrase("The charge is from another business.")))
            }
            guard mismatch.isEmpty else {
                throw PlazaError(
                    .unprocessableContent,
                    .approvalMismatch,
                    phrase("This is not the charge you were shown."),
                    detail: phrase("Nothing was paid. Look at the charge again."),
                    errors: mismatch
                )
            }
            guard let charge = try await charges.decide(id, to: .approved, now: now, on: db) else {
                throw Self.stateConflict(current, now: now)
            }
            if charge.discount != nil { try await coupons?.settle(charge: charge.id, paid: true, now: now, on: db) }
            do {
                try await post(
                    JournalEntry(
                        kind: "charge",
                        referenceId: charge.id,
                        currency: charge.currency,
                        postings: [
                            Posting(owner: charge.customerId, kind: .user, amount: -charge.amount),
                            Posting(
                                owner: charge.businessId,
                                kind: charge.isPaymentRequest ? .user : .business,
                                amount: charge.amount
                            ),
                        ],
                        createdAt: now
                    ),
                    on: db
                )
            } catch let error as PlazaError where error.code == .insufficientFunds {
                // The customer cannot "send less": they can add money, or the shop can ask for less.
                throw PlazaError(
                    .unprocessableContent,
                    .insufficientFunds,
                    phrase("Not enough money in your wallet to pay this."),
                    detail: phrase("Add money, or ask the shop to charge less; nothing was paid."),
                    errors: [FieldError(field: "amount", message: phrase("More than your available balance."))]
                )
            }
            try await activity.insert(
                Self.chargeActivity(charge, kind: .charge, amount: charge.amount, at: now),
                on: db
            )
            var dto = charge.dto(now: now)
            var punched: [FeedMessage] = []
            dto.loyalty = []
            dto.refunds = []
            if !charge.isPaymentRequest, let loyalty {
                // What counts is what was paid for what was bought: the tip is not spent at the shop.
                (dto.loyalty, punched) = try await loyalty.earn(
                    charge: charge.id,
                    customer: charge.customerId,
                    business: charge.businessId,
                    spent: charge.goods,
                    now: now,
                    on: db
                )
            }
            try await idempotency.record(dto, status: 200, claim: claim, on: db)
            let messages = try await chargeEvent(WalletEventType.charge(.approved), charge, now: now, on: db)
            return (dto, messages + punched)
        }
        await loyalty?.committed(cards: paid.loyalty?.map(\.cardId) ?? [])
        return paid
    }

    /// The event for the customer and everyone who works for the business (or the person who asked).
    func chargeEvent(
        _ type: String,
        _ charge: ChargeRecord,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [FeedMessage] {
        let payees =
            charge.isPaymentRequest
            ? [charge.businessId]
            : try await businesses.store.memberIDs(businesses: [charge.businessId], on: db)[
                charge.businessId
            ] ?? []
        let dto = charge.dto(now: now)
        let refund = type == WalletEventType.charge(.refunded)
        // `alert` says who is told, its kind and link; each recipient reads the wording in their language.
        let alert = dto.alert(
            money: Self.alertMoney(dto.money),
            customer: charge.customerId,
            requester: charge.createdBy,
            refund: refund
        )
        let wording = Self.chargeWording(dto, refund: refund)
        return [.event(audience: [charge.customerId] + payees, event: try Self.event(type, dto, at: now))]
            + (alert.map { [.alert(user: $0.user, content: $0.content, wording: wording)] } ?? [])
    }

    /// The two sides of a charge (`amount` as the customer sees it: positive for a payment, negative for a refund).
    /// A paid payment request reads as a payment between two people: sent by the payer, received by the asker, with the
    /// request's note.
    static func chargeActivity(
        _ charge: ChargeRecord,
        kind: ActivityKind,
        amount: Int64,
        at now: Date
    ) -> [ActivityRecord] {
        let dto = charge.dto(now: now)
        let person = charge.isPaymentRequest && kind == .charge
        let note = person ? charge.message : charge.reference
        return [
            ActivityRecord(
                owner: charge.customerId,
                kind: person ? .transferOut : kind,
                amount: -amount,
                currency: charge.currency,
                status: .succeeded,
                counterpart: dto.business,
                counterpartId: person ? charge.businessId : nil,
                note: note,
                referenceId: charge.id,
                createdAt: now
            ),
            ActivityRecord(
                owner: charge.businessId,
                kind: person ? .transferIn : kind,
                amount: amount,
                currency: charge.currency,
                status: .succeeded,
                counterpart: dto.customer,
                counterpartId: charge.customerId,
                note: note,
                referenceId: charge.id,
                createdAt: now
            ),
        ]
    }

    static func stateConflict(_ charge: ChargeRecord, now: Date) -> PlazaError {
        let state = charge.status(at: now)
        let title: String =
            switch state {
            case .pending: phrase("This charge is pending.")
            case .approved: phrase("This charge is approved.")
            case .declined: phrase("This charge is declined.")
            case .cancelled: phrase("This charge is cancelled.")
            case .expired: phrase("This charge is expired.")
            case .refunded: phrase("This charge is refunded.")
            }
        var error = PlazaError(
            .conflict,
            .stateConflict,
            title,
            detail: phrase("Nothing was changed.")
        )
        error.currentState = state.rawValue
        return error
    }

    /// `PZ-` and eight characters without look-alikes (no 0/O, 1/I/L).
    static func newReference() -> String {
        let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
        return "PZ-" + String((0..<8).map { _ in alphabet.randomElement()! })
    }

    var payCodeRule: RateLimiter.Rule { RateLimiter.Rule(bucket: "pay-code", limit: 10) }
}

extension PlazaError {
    /// 422 `invalid_coupon`, naming the field that carried it.
    static func invalidCoupon(field: String, _ message: String) -> PlazaError {
        PlazaError(
            .unprocessableContent,
            .invalidCoupon,
            phrase("This coupon does not apply."),
            detail: message,
            errors: [FieldError(field: field, message: message)]
        )
    }

    static let chargingBlocked = PlazaError(
        .forbidden,
        .chargingBlocked,
        phrase("This customer does not accept charges from your business.")
    )
    static let tooManyPendingCharges = PlazaError(
        .conflict,
        .tooManyPendingCharges,
        phrase("This customer already has 3 charges waiting."),
        detail: phrase("Wait until they approve or decline one, or cancel one.")
    )
}
