import Foundation
import PostgresNIO

extension LedgerStore {
    /// `LedgerStore.debit` for many owners. Rows: `owner_id` of each account that covered its amount.
    struct DebitStatement: PostgresStatement {
        static let sql = """
            UPDATE wallet_accounts SET balance = balance - v.a, updated_at = $3 FROM unnest($1::uuid[], $2::int8[]) AS v(o, a) \
            WHERE wallet_accounts.owner_id = v.o AND wallet_accounts.currency = $4 AND wallet_accounts.balance >= v.a RETURNING owner_id
            """
        var owners: [UUID]
        var amounts: [Int64]
        var time: Date
        var currency: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(owners)
            bindings.append(amounts)
            bindings.append(time)
            bindings.append(currency)
            return bindings
        }
    }
}
