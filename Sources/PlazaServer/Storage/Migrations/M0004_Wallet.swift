import SQLKit

/// Wallet: the double-entry ledger (accounts, journal entries, postings), each owner's activity, top-ups,
/// withdrawals, charge requests, pay codes and charge blocks; idempotency keys gain a lease.
struct M0004_Wallet: Migration {
    let name = "Wallet"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // A request that died mid-way must not hold its key for a day: its claim lapses at `leased_until`,
        // and only the holder of `lease_id` may record the response (in the same transaction as the money).
        try await db.alter(table: "idempotency_keys").column("lease_id", type: .text).run()
        try await db.alter(table: "idempotency_keys").column("leased_until", type: engine.timestamp).run()

        // One account per owner (user, business or a fixed system id) and currency. The balance is a cache of the
        // postings, kept in the same transaction and checked by `plaza ledger verify`; only system accounts go negative.
        try await db.create(table: "wallet_accounts")
            .column("owner_id", type: engine.uuid, .notNull)
            .column("currency", type: .text, .notNull)
            .column("kind", type: .text, .notNull)
            .column("balance", type: .bigint, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .primaryKey("owner_id", "currency")
            .check(SQLRaw("kind = 'system' OR balance >= 0"), named: "wallet_accounts_not_overdrawn")
            .run()

        // Immutable: entries and postings are only ever inserted. Each entry's postings sum to zero per currency.
        try await db.create(table: "journal_entries")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("kind", type: .text, .notNull)
            .column("reference_id", type: engine.uuid, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "journal_entries_reference").on("journal_entries").column("reference_id").run()
        try await db.create(table: "postings")
            .column("entry_id", type: engine.uuid, .notNull, .references("journal_entries", "id"))
            .column("owner_id", type: engine.uuid, .notNull)
            .column("currency", type: .text, .notNull)
            .column("amount", type: .bigint, .notNull)
            .primaryKey("entry_id", "owner_id", "currency")
            .run()
        try await db.create(index: "postings_account").on("postings").column("owner_id").column("currency").run()

        // What each owner's history shows: one row per movement and side, written with the movement.
        try await db.create(table: "wallet_activity")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("owner_id", type: engine.uuid, .notNull)
            .column("kind", type: .text, .notNull)
            .column("amount", type: .bigint, .notNull)
            .column("currency", type: .text, .notNull)
            .column("status", type: .text, .notNull)
            .column("counterpart_kind", type: .text, .notNull)
            .column("counterpart_id", type: engine.uuid)
            .column("counterpart_username", type: .text)
            .column("counterpart_name", type: .text, .notNull)
            .column("note", type: .text)
            .column("reference_id", type: engine.uuid, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "wallet_activity_owner").on("wallet_activity").column("owner_id").column(
            "created_at"
        ).column("id").run()
        try await db.create(index: "wallet_activity_reference").on("wallet_activity").column("reference_id").run()

        for table in ["top_ups", "withdrawals"] {
            try await db.create(table: table)
                .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
                .column("user_id", type: engine.uuid, .notNull, .references("users", "id"))
                .column("amount", type: .bigint, .notNull)
                .column("currency", type: .text, .notNull)
                .column("status", type: .text, .notNull)
                .column("card_brand", type: .text)
                .column("card_last4", type: .text)
                .column("gateway_id", type: .text)
                .column("failure_code", type: .text)
                .column("created_at", type: engine.timestamp, .notNull)
                .column("updated_at", type: engine.timestamp, .notNull)
                .run()
            try await db.create(index: "\(table)_user").on(table).column("user_id").column("status").run()
        }

        // Names are copied in: a receipt shows the business as it was called when it charged.
        try await db.create(table: "charges")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("reference", type: .text, .notNull, .unique)
            .column("business_id", type: engine.uuid, .notNull)
            .column("business_name", type: .text, .notNull)
            .column("customer_id", type: engine.uuid, .notNull, .references("users", "id"))
            .column("customer_username", type: .text, .notNull)
            .column("customer_name", type: .text, .notNull)
            .column("created_by", type: engine.uuid, .notNull)
            .column("amount", type: .bigint, .notNull)
            .column("currency", type: .text, .notNull)
            .column("items", type: .text, .notNull)
            .column("message", type: .text)
            .column("status", type: .text, .notNull)
            .column("refunded_amount", type: .bigint, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("expires_at", type: engine.timestamp, .notNull)
            .column("decided_at", type: engine.timestamp)
            .run()
        try await db.create(index: "charges_customer").on("charges").column("customer_id").column("status").run()
        try await db.create(index: "charges_business").on("charges").column("business_id").column("created_at").run()
        try await db.create(index: "charges_expiry").on("charges").column("status").column("expires_at").run()

        try await db.create(table: "charge_blocks")
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("created_at", type: engine.timestamp, .notNull)
            .primaryKey("user_id", "business_id")
            .run()

        // Only a keyed hash of each code is stored; a code works once, for two minutes.
        try await db.create(table: "pay_codes")
            .column("code_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("expires_at", type: engine.timestamp, .notNull)
            .column("used_at", type: engine.timestamp)
            .run()
        try await db.create(index: "pay_codes_user").on("pay_codes").column("user_id").run()
    }
}
