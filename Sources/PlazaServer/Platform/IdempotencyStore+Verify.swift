import Foundation
import PlazaCore
import SQLKit

/// The idempotency records' part of `plaza verify`: what each kept answer of a money route says it created.
extension IdempotencyStore {
    /// An object a stored answer names: what it is, its id (none for a market payment, whose answer names none), its
    /// amount and currency, and whose key it was (the caller's user id is the scope).
    struct AnsweredObject: Sendable, Hashable {
        enum Kind: String, Sendable {
            case transfer, charge
            case topUp = "top-up"
            case withdrawal
            case cardOrder = "card order"
            case marketPayment = "market payment"
        }
        var kind: Kind
        var id: UUID?
        var amount: Int64
        var currency: String
        var key: String
        var scope: String
    }

    /// The successful answers still kept (at most a day's: `prune` forgets older ones) that name a money object, read
    /// from the JSON bodies by their shape (the record does not say which route answered). Others are left out.
    static func answeredObjects(on db: any SQLDatabase) async throws -> [AnsweredObject] {
        let rows = try await db.select().columns("scope", "key", "body").from("idempotency_keys")
            .where("status", .greaterThanOrEqual, 200).where("status", .lessThan, 300).where(
                "body",
                .isNot,
                SQLLiteral.null
            ).all()
        return try rows.compactMap { row in
            guard let body = try row.decode(column: "body", as: String?.self) else { return nil }
            return answeredObject(
                body,
                key: try row.decode(column: "key", as: String.self),
                scope: try row.decode(column: "scope", as: String.self)
            )
        }
    }

    /// Reads one answer: a transfer (`from`, `to`), a charge (`reference`, `business`, `customer`), a top-up (`cardBrand`),
    /// a withdrawal (only `id`, `amount`, `currency`, `status`, dates and `failureCode`), a card order (`total`,
    /// `shippingAddress`), a market payment (`heldAt`, no `id`); nil for any other answer.
    static func answeredObject(_ body: String, key: String, scope: String) -> AnsweredObject? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            let currency = object["currency"] as? String
        else { return nil }
        let keys = Set(object.keys)
        let id = (object["id"] as? String).flatMap(UUID.init(uuidString:))
        let number = { (name: String) -> Int64? in
            if let value = object[name] as? Int { return Int64(value) }
            return (object[name] as? NSNumber)?.int64Value
        }
        let kind: AnsweredObject.Kind
        let withdrawalKeys: Set<String> = [
            "id", "amount", "currency", "status", "failureCode", "createdAt", "updatedAt",
        ]
        if keys.isSuperset(of: ["total", "shippingAddress"]), let id, let total = number("total") {
            return AnsweredObject(kind: .cardOrder, id: id, amount: total, currency: currency, key: key, scope: scope)
        } else if keys.isSuperset(of: ["from", "to"]) {
            kind = .transfer
        } else if keys.isSuperset(of: ["reference", "business", "customer"]) {
            kind = .charge
        } else if keys.contains("cardBrand"), keys.contains("status") {
            kind = .topUp
        } else if keys.isSubset(of: withdrawalKeys), keys.contains("status") {
            kind = .withdrawal
        } else if keys.contains("heldAt"), keys.contains("state"), id == nil, let amount = number("amount") {
            return AnsweredObject(
                kind: .marketPayment,
                id: nil,
                amount: amount,
                currency: currency,
                key: key,
                scope: scope
            )
        } else {
            return nil
        }
        guard let id, let amount = number("amount") else { return nil }
        return AnsweredObject(kind: kind, id: id, amount: amount, currency: currency, key: key, scope: scope)
    }
}
