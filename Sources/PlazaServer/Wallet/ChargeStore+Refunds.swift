import Foundation
import PlazaCore
import SQLKit

/// The SQL of each refund of a charge, with its reason.
extension ChargeStore {
    func insert(_ refund: ChargeRefund, charge: UUID, on db: any SQLDatabase) async throws {
        try await db.insert(into: "charge_refunds").columns("id", "charge_id", "amount", "reason", "created_at")
            .values(
                SQLBind(refund.id),
                SQLBind(charge),
                SQLBind(refund.amount),
                SQLBind(refund.reason),
                SQLBind(refund.createdAt)
            )
            .run()
    }

    /// The charges' refunds, oldest first, by charge.
    func refunds(charges: [UUID], on db: any SQLDatabase) async throws -> [UUID: [ChargeRefund]] {
        guard !charges.isEmpty else { return [:] }
        let rows = try await db.select().columns("id", "charge_id", "amount", "reason", "created_at")
            .from("charge_refunds").where("charge_id", .in, SQLBind.group(charges))
            .orderBy("created_at").orderBy("id").all()
        var found: [UUID: [ChargeRefund]] = [:]
        for row in rows {
            found[try row.decode(column: "charge_id", as: UUID.self), default: []].append(
                ChargeRefund(
                    id: try row.decode(column: "id", as: UUID.self),
                    amount: try row.decode(column: "amount", as: Int64.self),
                    reason: try row.decode(column: "reason", as: String?.self),
                    createdAt: try row.decode(column: "created_at", as: Date.self)
                )
            )
        }
        return found
    }
}
