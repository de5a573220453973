import Foundation
import PlazaCore
import SQLKit

/// Charges' part of `plaza verify`: what an answer of the charge routes may say a charge is for.
extension ChargeStore {
    /// The amounts each of the charges `ids` (those that exist) may be answered with: what is left to pay, and before a
    /// coupon's discount, the amount it was created with.
    func answerableAmounts(of ids: [UUID], on db: any SQLDatabase) async throws -> [UUID: Set<Int64>] {
        var amounts: [UUID: Set<Int64>] = [:]
        for chunk in ids.chunked(by: 500) {
            for row in try await db.select().columns("id", "amount", "discount").from("charges").where("id", .in, chunk)
                .all()
            {
                let amount = try row.decode(column: "amount", as: Int64.self)
                let discount = try row.decode(column: "discount", as: String?.self).flatMap {
                    try? PlazaJSON.value(ChargeDiscount.self, from: $0)
                }
                amounts[try row.decode(column: "id", as: UUID.self)] = [amount, amount + (discount?.amount ?? 0)]
            }
        }
        return amounts
    }
}
