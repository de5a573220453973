import Foundation
import SQLKit

/// Funding's part of `plaza verify`: the amounts of top-ups and withdrawals that answers name.
extension FundingStore {
    /// The amounts of the top-ups or withdrawals `ids` (those that exist).
    func amounts(
        of ids: [UUID],
        _ direction: FundingRecord.Direction,
        on db: any SQLDatabase
    ) async throws -> [UUID: Int64] {
        var amounts: [UUID: Int64] = [:]
        for chunk in ids.chunked(by: 500) {
            for row in try await db.select().columns("id", "amount").from(direction.rawValue).where("id", .in, chunk)
                .all()
            {
                amounts[try row.decode(column: "id", as: UUID.self)] = try row.decode(column: "amount", as: Int64.self)
            }
        }
        return amounts
    }
}
