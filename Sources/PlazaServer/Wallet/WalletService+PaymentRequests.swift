import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Payment requests between people: a charge one user asks of another, answered like a shop's.
extension WalletService {
    /// How long a person's request waits for an answer (a shop's charge waits minutes: the customer is at the counter).
    static let paymentRequestLifetime: TimeInterval = 7 * 86_400

    /// Verified users: asks `to` to pay the caller. The payer answers it as they answer a shop's charge.
    func requestPayment(
        _ identity: Identity,
        _ request: CreatePaymentRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> Charge {
        let claim = try Self.require(claim)
        try identity.requireVerified()
        let requester = identity.user
        let handle = AccountRules.handle(request.to)
        var validator = Validator()
        validator.check(!handle.isEmpty, "to", "Name who should pay: a username such as @carla.")
        validator.check(handle != requester.username, "to", "You cannot ask yourself to pay.")
        validator.apply(WalletRules.textProblem(request.note), to: "note")
        let problems =
            validator.errors
            + WalletRules.moneyProblems(
                amount: request.amount,
                currency: request.currency,
                accepted: configuration.currencies
            )
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        return try await events.transaction { db in
            guard AccountRules.usernameProblem(handle) == nil,
                let payer = try await accounts.user(login: handle, on: db)
            else {
                throw PlazaError.validation(field: "to", say("No one has the username @{handle}.", ["handle": handle]))
            }
            let record = ChargeRecord(
                reference: Self.newReference(),
                businessId: requester.id,
                businessName: requester.displayName,
                customerId: payer.id,
                customerUsername: payer.username,
                customerName: payer.displayName,
                createdBy: requester.id,
                amount: request.amount,
                currency: request.currency,
                items: [],
                message: ShownText.trimmed(request.note),
                createdAt: now,
                expiresAt: now.addingTimeInterval(Self.paymentRequestLifetime),
                payeeKind: .user,
                payeeUsername: requester.username
            )
            return try await open(record, claim: claim, now: now, on: db)
        }
    }

    /// The requests the caller sent, newest first.
    func sentPaymentRequests(
        _ identity: Identity,
        statuses: [ChargeStatus],
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<Charge> {
        let after = try cursor.map { try RowCursor.decode($0).id }
        let rows = try await charges.list(
            requester: identity.user.id,
            statuses: statuses,
            now: now,
            limit: limit + 1,
            after: after,
            on: database.sql
        )
        return Page(
            items: rows.prefix(limit).map { $0.dto(now: now) },
            nextCursor: rows.count > limit ? rows.prefix(limit).last.map { RowCursor(id: $0.id).encoded } : nil
        )
    }
}
