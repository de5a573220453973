import SQLKit

/// Campus marketplace chat (issue 24): a conversation per listing and buyer, each side's read mark and "deleted for
/// me" mark, and the messages, encrypted at rest (AES-GCM, a key derived from `PLAZA_SECRET_KEY`).
struct M0026_Chat: Migration {
    let name = "Chat"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "market_conversations")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("listing_id", type: engine.uuid, .notNull, .references("listings", "id", onDelete: .cascade))
            .column("buyer_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("seller_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .column("buyer_read_at", type: engine.timestamp)
            .column("seller_read_at", type: engine.timestamp)
            .column("buyer_deleted_at", type: engine.timestamp)
            .column("seller_deleted_at", type: engine.timestamp)
            .unique("listing_id", "buyer_id")
            .run()
        try await db.create(index: "market_conversations_buyer").on("market_conversations").column("buyer_id").column(
            "updated_at"
        ).run()
        try await db.create(index: "market_conversations_seller").on("market_conversations").column("seller_id").column(
            "updated_at"
        ).run()

        try await db.create(table: "market_messages")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column(
                "conversation_id",
                type: engine.uuid,
                .notNull,
                .references("market_conversations", "id", onDelete: .cascade)
            )
            .column("sender_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            // AES-GCM's combined nonce, ciphertext and tag; the conversation's id is the associated data.
            .column("body", type: .blob, .notNull)
            // JSON `[MessageWarning]`, for the recipient.
            .column("warnings", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "market_messages_conversation").on("market_messages").column("conversation_id")
            .column("created_at").run()
    }
}
