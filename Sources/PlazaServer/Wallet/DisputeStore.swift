import Foundation
import PlazaCore
import SQLKit

/// A row of `charge_disputes`; the service joins it with its charge for the API's `Dispute`.
struct DisputeRecord: Sendable {
    var id = UUID()
    var chargeId: UUID
    var businessId: UUID
    var customerId: UUID
    var reason: DisputeReason
    var details: String
    var state: DisputeState = .open
    var answer: String?
    var answeredAt: Date?
    var refundAmount: Int64?
    var decision: String?
    var decidedAt: Date?
    var createdAt: Date
    var updatedAt: Date

    static let columns = [
        "id", "charge_id", "business_id", "customer_id", "reason", "details", "state", "answer", "answered_at",
        "refund_amount", "decision", "decided_at", "created_at", "updated_at",
    ]

    func dto(_ charge: ChargeRecord) -> Dispute {
        Dispute(
            id: id,
            chargeId: chargeId,
            chargeReference: charge.reference,
            businessId: businessId,
            businessName: charge.businessName,
            customer: Person(username: charge.customerUsername, displayName: charge.customerName),
            amount: charge.amount,
            refundedAmount: charge.refundedAmount,
            currency: charge.currency,
            reason: reason,
            details: details,
            state: state,
            answer: answer,
            answeredAt: answeredAt,
            disputeRefund: refundAmount,
            decision: decision,
            decidedAt: decidedAt,
            createdAt: createdAt,
            updatedAt: updatedAt
        )
    }
}

/// All SQL of payment disputes: one per charge; each move is a conditional update from the states it may leave, so
/// that two answers or two decisions at once change it once.
struct DisputeStore: Sendable {
    /// False when the charge has a dispute already.
    func insert(_ record: DisputeRecord, on db: any SQLDatabase) async throws -> Bool {
        try await db.insert(into: "charge_disputes").columns(DisputeRecord.columns.map { SQLIdentifier($0) })
            .values(
                SQLBind(record.id),
                SQLBind(record.chargeId),
                SQLBind(record.businessId),
                SQLBind(record.customerId),
                SQLBind(record.reason.rawValue),
                SQLBind(record.details),
                SQLBind(record.state.rawValue),
                SQLBind(record.answer),
                SQLBind(record.answeredAt),
                SQLBind(record.refundAmount),
                SQLBind(record.decision),
                SQLBind(record.decidedAt),
                SQLBind(record.createdAt),
                SQLBind(record.updatedAt)
            )
            .ignoringConflicts(with: ["charge_id"]).returning("id").first() != nil
    }

    func find(_ id: UUID, on db: any SQLDatabase) async throws -> DisputeRecord? {
        try await select(on: db).where("id", .equal, id).first().map(Self.record)
    }

    func find(charge: UUID, on db: any SQLDatabase) async throws -> DisputeRecord? {
        try await select(on: db).where("charge_id", .equal, charge).first().map(Self.record)
    }

    /// A customer's disputes (`customer`) or a business's (`business`), newest first, after the cursor row `after`.
    func list(
        customer: UUID? = nil,
        business: UUID? = nil,
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws -> [DisputeRecord] {
        var query = select(on: db)
        if let customer { query = query.where("customer_id", .equal, customer) }
        if let business { query = query.where("business_id", .equal, business) }
        return try await query.newestFirst(after: after, in: "charge_disputes", by: "created_at").limit(limit).all()
            .map(Self.record)
    }

    /// Moves the dispute from one of `from` to `to`, setting `fields` too; false when it was no longer in `from`.
    func move(
        _ id: UUID,
        from: [DisputeState],
        to state: DisputeState,
        fields: [(String, any Encodable & Sendable)] = [],
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        var update = db.update("charge_disputes").set("state", to: state.rawValue).set("updated_at", to: now)
        for (column, value) in fields { update = update.set(SQLIdentifier(column), to: SQLBind(value)) }
        return try await update.where("id", .equal, id).where("state", .in, SQLBind.group(from.map(\.rawValue)))
            .returning("id").first() != nil
    }

    private func select(on db: any SQLDatabase) -> SQLSelectBuilder {
        db.select().columns(DisputeRecord.columns.map { SQLIdentifier($0) }).from("charge_disputes")
    }

    private static func record(_ row: any SQLRow) throws -> DisputeRecord {
        DisputeRecord(
            id: try row.decode(column: "id", as: UUID.self),
            chargeId: try row.decode(column: "charge_id", as: UUID.self),
            businessId: try row.decode(column: "business_id", as: UUID.self),
            customerId: try row.decode(column: "customer_id", as: UUID.self),
            reason: DisputeReason(rawValue: try row.decode(column: "reason", as: String.self)) ?? .other,
            details: try row.decode(column: "details", as: String.self),
            state: DisputeState(rawValue: try row.decode(column: "state", as: String.self)) ?? .open,
            answer: try row.decode(column: "answer", as: String?.self),
            answeredAt: try row.decode(column: "answered_at", as: Date?.self),
            refundAmount: try row.decode(column: "refund_amount", as: Int64?.self),
            decision: try row.decode(column: "decision", as: String?.self),
            decidedAt: try row.decode(column: "decided_at", as: Date?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self)
        )
    }
}
