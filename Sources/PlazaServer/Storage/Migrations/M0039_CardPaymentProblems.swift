import SQLKit

/// Why an order's card payment did not go through (declined, abandoned on the processor's page, expired): the order
/// waits for payment again and its page says so beside the pay form. And each approved proof's front as the shopper
/// saw it, so an order's page shows what prints even after the design changed.
struct M0039_CardPaymentProblems: Migration {
    let name = "CardPaymentProblems"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "card_orders").column("payment_problem", type: .text).run()
        try await db.alter(table: "card_proofs").column("preview_svg", type: .text).run()
    }
}
