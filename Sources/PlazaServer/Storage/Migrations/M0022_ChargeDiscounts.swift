import SQLKit

/// A charge may carry a coupon's discount (issue 23): `amount` stays what is paid, the JSON `ChargeDiscount` says what
/// was taken off (the subtotal is their sum).
struct M0022_ChargeDiscounts: Migration {
    let name = "ChargeDiscounts"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "charges").column("discount", type: .text).run()
        try await db.create(index: "coupon_claims_charge").on("coupon_claims").column("charge_id").run()
    }
}
