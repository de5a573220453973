import Foundation
import PlazaCore
import SQLKit

extension WalletService {
    /// A charge request's lines as the charge keeps them: an item line copies the business's item (its name and its
    /// price now, with its id), a typed line is trimmed. 422 naming `items.3.itemId` for an item that is not the
    /// business's (unknown, removed, another's) or is priced in another currency.
    func chargeItems(
        _ lines: [ChargeLine],
        business: UUID,
        currency: String,
        on db: any SQLDatabase
    ) async throws -> [ChargeItem] {
        let known = try await businesses.store.items(
            ids: Set(lines.compactMap(\.itemId)),
            business: business,
            on: db
        )
        var problems: [FieldError] = []
        let items = lines.enumerated().map { index, line -> ChargeItem in
            guard let id = line.itemId else {
                return ChargeItem(
                    description: (line.description ?? "").trimmingCharacters(in: .whitespacesAndNewlines),
                    quantity: line.quantity,
                    unitAmount: line.unitAmount ?? 0
                )
            }
            guard let item = known[id], item.price.currency == currency else {
                let message =
                    known[id] == nil
                    ? phrase("This item is not on the business's list.")
                    : "This item is priced in \(known[id]?.price.currency ?? "")."
                problems.append(FieldError(field: "items.\(index).itemId", message: message))
                return ChargeItem(description: "", quantity: line.quantity, unitAmount: 0)
            }
            return ChargeItem(
                description: item.name,
                quantity: line.quantity,
                unitAmount: item.price.amount,
                itemId: id
            )
        }
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        return items
    }
}
