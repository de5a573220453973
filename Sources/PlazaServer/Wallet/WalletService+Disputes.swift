import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Payment disputes (issue 39, trust at the till): the customer reports a problem with a paid charge; the business
/// answers in words or with a refund (the charge's own refund, in the same transaction); the customer may then ask
/// Plaza to decide, which files a review item for the admins, whose decision comes back on the event bus and is
/// applied here: upheld gives back what is left of the charge, rejected closes it. Everyone concerned is told.
extension WalletService {
    /// The customer of a paid shop charge reports what went wrong.
    func openDispute(
        _ identity: Identity,
        charge id: UUID,
        _ request: DisputeRequest,
        now: Date = Date()
    ) async throws -> Dispute {
        let details = request.details.trimmingCharacters(in: .whitespacesAndNewlines)
        guard DisputeRules.detailsLength.contains(details.count) else {
            throw PlazaError.validation(field: "details", phrase("Say what happened in 10 to 1,000 characters."))
        }
        try identity.requireVerified()
        let (charges, disputes, user) = (charges, DisputeStore(), identity.user.id)
        return try await events.transaction { db in
            guard let charge = try await charges.find(id, on: db), charge.customerId == user, !charge.isPaymentRequest
            else { throw PlazaError.notFound("charge") }
            guard [.approved, .refunded].contains(charge.status(at: now)), charge.refundedAmount < charge.amount else {
                throw PlazaError(
                    .conflict,
                    .stateConflict,
                    charge.status(at: now) == .refunded
                        ? phrase("This payment was refunded in full.") : phrase("Only a paid charge can be disputed."),
                    detail: phrase("Nothing was reported.")
                )
            }
            let record = DisputeRecord(
                chargeId: charge.id,
                businessId: charge.businessId,
                customerId: user,
                reason: request.reason,
                details: details,
                createdAt: now,
                updatedAt: now
            )
            guard try await disputes.insert(record, on: db) else {
                throw PlazaError.conflict(field: nil, phrase("You reported a problem with this payment already."))
            }
            let team = try await self.team(of: charge, on: db)
            let wording = Self.disputeOpenedWording(request.reason, customer: charge.customerName, details: details)
            let link = Self.disputePath(record.id)
            return (
                record.dto(charge),
                team.map { FeedMessage.alert(user: $0, kind: .moneyAnswers, link: link, wording) }
            )
        }
    }

    /// The customer, the business's owners and staff, and admins read a dispute.
    func dispute(_ identity: Identity, id: UUID) async throws -> Dispute {
        let (record, charge) = try await disputeWithCharge(id, on: database.sql)
        guard try await canRead(record, identity, on: database.sql) else { throw PlazaError.notFound("dispute") }
        return record.dto(charge)
    }

    /// The dispute of a charge, for the customer or the business (nil when none was opened).
    func dispute(_ identity: Identity, charge id: UUID) async throws -> Dispute? {
        guard let record = try await DisputeStore().find(charge: id, on: database.sql) else { return nil }
        return try await canRead(record, identity, on: database.sql) ? try await dispute(identity, id: record.id) : nil
    }

    /// The caller's own disputes, or (with `business`) that business's, for its owners and staff; newest first.
    func disputes(_ identity: Identity, business: UUID?, limit: Int, cursor: String?) async throws -> Page<Dispute> {
        let db = database.sql
        if let business, try await businesses.store.role(of: identity.user.id, in: business, on: db) == nil {
            throw PlazaError.notFound("business")
        }
        let after = try cursor.map { try RowCursor.decode($0).id }
        let records = try await DisputeStore().list(
            customer: business == nil ? identity.user.id : nil,
            business: business,
            limit: limit + 1,
            after: after,
            on: db
        )
        let page = Array(records.prefix(limit))
        var items: [Dispute] = []
        for record in page {
            guard let charge = try await charges.find(record.chargeId, on: db) else { continue }
            items.append(record.dto(charge))
        }
        return Page(
            items: items,
            nextCursor: records.count > limit ? page.last.map { RowCursor(id: $0.id).encoded } : nil
        )
    }

    /// The business answers: in words, or with a refund through the charge's refund (then the dispute is settled).
    func answerDispute(
        _ identity: Identity,
        id: UUID,
        _ answer: DisputeAnswer,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> Dispute {
        let message = answer.message.trimmingCharacters(in: .whitespacesAndNewlines)
        var validator = Validator()
        validator.check(
            DisputeRules.answerLength.contains(message.count),
            "message",
            "Write your answer in 3 to 1,000 characters."
        )
        if let refund = answer.refund, let problem = WalletRules.amountError(refund, field: "refund") {
            validator.add(problem)
        }
        guard validator.isValid else { throw PlazaError.validation(validator.errors) }
        let claim = try answer.refund == nil ? claim : Self.require(claim)
        try identity.requireVerified()
        let disputes = DisputeStore()
        let answered = try await events.transaction { db -> ((Dispute, [UUID]), [FeedMessage]) in
            let (record, current) = try await self.disputeWithCharge(id, on: db)
            guard try await self.businesses.store.role(of: identity.user.id, in: record.businessId, on: db) != nil
            else { throw PlazaError.notFound("dispute") }
            var messages: [FeedMessage] = []
            var cards: [UUID] = []
            let state: DisputeState = answer.refund == nil ? .answered : .refunded
            var fields: [(String, any Encodable & Sendable)] = [("answer", message), ("answered_at", now)]
            if let refund = answer.refund {
                guard current.status(at: now).canMove(to: .refunded) else {
                    throw Self.stateConflict(current, now: now)
                }
                let (charge, refunded) = try await self.postRefund(
                    current,
                    amount: refund,
                    reason: String(message.prefix(RefundRequest.reasonLength)),
                    now: now,
                    on: db
                )
                (messages, cards) = (refunded, charge.loyalty?.map(\.cardId) ?? [])
                fields.append(("refund_amount", refund))
            }
            guard try await disputes.move(id, from: [.open, .answered], to: state, fields: fields, now: now, on: db)
            else { throw Self.disputeConflict(record.state) }
            let (updated, charge) = try await self.disputeWithCharge(id, on: db)
            let dto = updated.dto(charge)
            if let claim { try await self.idempotency.record(dto, status: 200, claim: claim, on: db) }
            let wording = Self.disputeAnsweredWording(
                business: charge.businessName,
                refunded: answer.refund.map { Money(amount: $0, currency: charge.currency) },
                message: message
            )
            let alert = FeedMessage.alert(
                user: record.customerId,
                kind: .moneyAnswers,
                link: Self.disputePath(id),
                wording
            )
            return ((dto, cards), messages + [alert])
        }
        await loyalty?.committed(cards: answered.1)
        return answered.0
    }

    /// The customer asks Plaza to decide: the dispute goes to the admins' review queue with both sides' words.
    func escalateDispute(_ identity: Identity, id: UUID, now: Date = Date()) async throws -> Dispute {
        let disputes = DisputeStore()
        return try await events.transaction { db in
            let (record, charge) = try await self.disputeWithCharge(id, on: db)
            guard record.customerId == identity.user.id else { throw PlazaError.notFound("dispute") }
            guard try await disputes.move(id, from: [.open, .answered], to: .escalated, now: now, on: db) else {
                throw Self.disputeConflict(record.state)
            }
            let team = try await self.team(of: charge, on: db)
            let paid = Money(amount: charge.amount, currency: charge.currency)
            let submission = ReviewSubmission(
                kind: .dispute,
                subjectId: id,
                subject: "\(charge.customerName) (@\(charge.customerUsername)) and \(charge.businessName), \(paid)",
                findings: [
                    "Reported: \(record.reason.label). “\(record.details)”",
                    record.answer.map { "\(charge.businessName) answered: “\($0)”" }
                        ?? "\(charge.businessName) has not answered.",
                    "Paid \(paid), receipt \(charge.reference); "
                        + "\(Money(amount: charge.refundedAmount, currency: charge.currency)) refunded so far. "
                        + "Upholding refunds the rest.",
                ],
                notify: [record.customerId] + team,
                actions: [.refund]
            )
            let wording = Wording(
                title: phrase("{customer} asked Plaza to decide a payment dispute"),
                body: phrase("An admin reads both sides and decides; you hear the outcome."),
                values: ["customer": charge.customerName]
            )
            let (updated, _) = try await self.disputeWithCharge(id, on: db)
            return (
                updated.dto(charge),
                [FeedMessage.review(submission)]
                    + team.map { FeedMessage.alert(user: $0, kind: .moneyAnswers, link: Self.disputePath(id), wording) }
            )
        }
    }

    /// The wallet's part of the admins' decisions: an upheld dispute gives back what is left of its charge, through
    /// the charge's refund, in the transaction that writes the decision; a rejected one is closed. A dispute decided
    /// already (two decisions at once) fails the second transaction: one refund, whatever the race.
    func disputeRecorder() -> EventBus.Recorder {
        EventBus.Recorder(reacting: { messages, db in
            var follow: [FeedMessage] = []
            var wrote = false
            for case .reviewed(let decision) in messages where decision.kind == .dispute {
                follow += try await self.decideDispute(decision, now: Date(), on: db)
                wrote = true
            }
            return (wrote, follow)
        })
    }

    private func decideDispute(
        _ decision: ReviewDecision,
        now: Date,
        on db: any SQLDatabase
    ) async throws
        -> [FeedMessage]
    {
        let (record, current) = try await disputeWithCharge(decision.subjectId, on: db)
        let upheld = decision.approved && decision.action == .refund
        var fields: [(String, any Encodable & Sendable)] = [("decided_at", now)]
        if let reason = decision.reason { fields.append(("decision", reason)) }
        let left = current.amount - current.refundedAmount
        var messages: [FeedMessage] = []
        if upheld, left > 0 {
            fields.append(("refund_amount", left))
            messages = try await postRefund(current, amount: left, reason: decision.reason, now: now, on: db).1
        }
        guard
            try await DisputeStore().move(
                record.id,
                from: [.escalated],
                to: upheld ? .refunded : .rejected,
                fields: fields,
                now: now,
                on: db
            )
        else { throw Self.disputeConflict(record.state) }
        return messages
    }

    private func disputeWithCharge(_ id: UUID, on db: any SQLDatabase) async throws -> (DisputeRecord, ChargeRecord) {
        guard let record = try await DisputeStore().find(id, on: db),
            let charge = try await charges.find(record.chargeId, on: db)
        else { throw PlazaError.notFound("dispute") }
        return (record, charge)
    }

    private func canRead(_ record: DisputeRecord, _ identity: Identity, on db: any SQLDatabase) async throws -> Bool {
        if record.customerId == identity.user.id || identity.user.role == .admin { return true }
        return try await businesses.store.role(of: identity.user.id, in: record.businessId, on: db) != nil
    }

    private func team(of charge: ChargeRecord, on db: any SQLDatabase) async throws -> [UUID] {
        try await businesses.store.memberIDs(businesses: [charge.businessId], on: db)[charge.businessId] ?? []
    }

    static func disputePath(_ id: UUID) -> String { "/wallet/disputes/\(id.uuidString.lowercased())" }

    static func disputeConflict(_ state: DisputeState) -> PlazaError {
        let title: String =
            switch state {
            case .open, .answered, .escalated: phrase("This dispute moved on meanwhile.")
            case .refunded: phrase("This dispute is settled: refunded.")
            case .rejected: phrase("This dispute is settled: not upheld.")
            }
        var error = PlazaError(
            .conflict,
            .stateConflict,
            title,
            detail: phrase("Nothing was changed. Reload it to see where it stands.")
        )
        error.currentState = state.rawValue
        return error
    }
}
