import SQLKit

/// A person can ask another to pay (issue 20): a payment request is a charge whose payee is a user, so it shares the
/// charges' answers, expiry, inbox and events.
struct M0012_PaymentRequests: Migration {
    let name = "PaymentRequests"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "charges").column(
            "payee_kind",
            type: .text,
            .notNull,
            .default(SQLLiteral.string("business"))
        ).run()
        try await db.alter(table: "charges").column("payee_username", type: .text).run()
        try await db.create(index: "charges_requester").on("charges").column("created_by").column("created_at").run()
    }
}
