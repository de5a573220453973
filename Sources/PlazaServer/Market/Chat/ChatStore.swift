import Foundation
import PlazaCore
import SQLKit

/// All SQL of the marketplace's chat: conversations (one per listing and buyer), each side's marks, the messages.
struct ChatStore: Sendable {
    struct ConversationRecord: Sendable {
        var id: UUID
        var listingId: UUID
        var buyerId: UUID
        var sellerId: UUID
        var updatedAt: Date
        var buyerReadAt: Date?
        var sellerReadAt: Date?
        var buyerDeletedAt: Date?
        var sellerDeletedAt: Date?

        func side(_ user: UUID) -> Side? { user == buyerId ? .buyer : user == sellerId ? .seller : nil }
        func other(_ user: UUID) -> UUID { user == buyerId ? sellerId : buyerId }
        func deletedAt(_ user: UUID) -> Date? { user == buyerId ? buyerDeletedAt : sellerDeletedAt }
        func readAt(_ user: UUID) -> Date? { user == buyerId ? buyerReadAt : sellerReadAt }
    }

    enum Side: String { case buyer, seller }

    struct MessageRecord: Sendable {
        var id: UUID
        var conversationId: UUID
        var senderId: UUID
        var body: Data
        var warnings: [MessageWarning]
        var createdAt: Date
    }

    static let conversationColumns = [
        "id", "listing_id", "buyer_id", "seller_id", "updated_at", "buyer_read_at", "seller_read_at",
        "buyer_deleted_at", "seller_deleted_at",
    ]

    func conversation(_ id: UUID, on db: any SQLDatabase) async throws -> ConversationRecord? {
        try await db.select().columns(Self.conversationColumns.map { SQLIdentifier($0) }).from("market_conversations")
            .where("id", .equal, id)
            .first().map(Self.conversation)
    }

    func conversation(listing: UUID, buyer: UUID, on db: any SQLDatabase) async throws -> ConversationRecord? {
        try await db.select().columns(Self.conversationColumns.map { SQLIdentifier($0) }).from("market_conversations")
            .where("listing_id", .equal, listing).where("buyer_id", .equal, buyer).first().map(Self.conversation)
    }

    /// Opens the conversation, or answers the one the buyer has about the listing already (false: not new).
    func open(
        _ id: UUID,
        listing: UUID,
        buyer: UUID,
        seller: UUID,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (UUID, created: Bool) {
        let rows = try await db.insert(into: "market_conversations").columns(
            "id",
            "listing_id",
            "buyer_id",
            "seller_id",
            "created_at",
            "updated_at"
        )
        .values(SQLBind(id), SQLBind(listing), SQLBind(buyer), SQLBind(seller), SQLBind(now), SQLBind(now))
        .ignoringConflicts(with: ["listing_id", "buyer_id"]).returning("id").all()
        if !rows.isEmpty { return (id, true) }
        guard let existing = try await conversation(listing: listing, buyer: buyer, on: db) else {
            throw PlazaError.notFound("conversation")
        }
        // Asking again brings a conversation the buyer deleted back to them.
        try await db.update("market_conversations").set("buyer_deleted_at", to: SQLLiteral.null).where(
            "id",
            .equal,
            existing.id
        ).run()
        return (existing.id, false)
    }

    /// A row of my conversation list: the conversation, its newest message since I deleted it, my unread count.
    struct InboxRow: Sendable {
        var conversation: ConversationRecord
        var last: MessageRecord?
        var unread: Int
    }

    /// The user's conversations not deleted for them (or with a message since), most recent first, each with its last
    /// message and unread count: one statement for the page (correlated subqueries, the same on both engines).
    func inbox(user: UUID, limit: Int, offset: Int, on db: any SQLDatabase) async throws -> [InboxRow] {
        let columns = Self.conversationColumns.map { "v.\($0)" }.joined(separator: ", ")
        let sql: SQLQueryString = """
            SELECT \(unsafeRaw: columns), v.unread, lm.id AS m_id, lm.conversation_id AS m_conversation_id, lm.sender_id AS m_sender_id,
            lm.body AS m_body, lm.warnings AS m_warnings, lm.created_at AS m_created_at
            FROM (
              SELECT c.*, (SELECT count(*) FROM market_messages u WHERE u.conversation_id = c.id AND u.sender_id <> \(bind: user)
                AND (c.my_read IS NULL OR u.created_at > c.my_read) AND (c.my_deleted IS NULL OR u.created_at > c.my_deleted)) AS unread
              FROM (
                SELECT \(unsafeRaw: Self.conversationColumns.joined(separator: ", ")),
                CASE WHEN buyer_id = \(bind: user) THEN buyer_read_at ELSE seller_read_at END AS my_read,
                CASE WHEN buyer_id = \(bind: user) THEN buyer_deleted_at ELSE seller_deleted_at END AS my_deleted
                FROM market_conversations
                WHERE (buyer_id = \(bind: user) AND (buyer_deleted_at IS NULL OR updated_at > buyer_deleted_at))
                OR (seller_id = \(bind: user) AND (seller_deleted_at IS NULL OR updated_at > seller_deleted_at))
                ORDER BY updated_at DESC, id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)
              ) c
            ) v
            LEFT JOIN market_messages lm ON lm.id = (
              SELECT m.id FROM market_messages m WHERE m.conversation_id = v.id AND (v.my_deleted IS NULL OR m.created_at > v.my_deleted)
              ORDER BY m.created_at DESC, m.id DESC LIMIT 1)
            ORDER BY v.updated_at DESC, v.id DESC
            """
        return try await db.raw(sql).all().map { row in
            InboxRow(
                conversation: try Self.conversation(row),
                last: try row.decode(column: "m_id", as: UUID?.self) == nil ? nil : try Self.message(row, prefix: "m_"),
                unread: try row.decode(column: "unread", as: Int.self)
            )
        }
    }

    func insert(_ message: MessageRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "market_messages").columns(
            "id",
            "conversation_id",
            "sender_id",
            "body",
            "warnings",
            "created_at"
        )
        .values(
            SQLBind(message.id),
            SQLBind(message.conversationId),
            SQLBind(message.senderId),
            SQLBind(message.body),
            SQLBind(try PlazaJSON.text(message.warnings)),
            SQLBind(message.createdAt)
        )
        .run()
        try await db.update("market_conversations").set("updated_at", to: message.createdAt).where(
            "id",
            .equal,
            message.conversationId
        ).run()
    }

    /// Messages of the conversation after `since` (the reader's deletion), newest first, older than the message `before`.
    func messages(
        conversation: UUID,
        since: Date?,
        before: UUID?,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [MessageRecord] {
        let select = db.select().columns("id", "conversation_id", "sender_id", "body", "warnings", "created_at").from(
            "market_messages"
        )
        .where("conversation_id", .equal, conversation)
        if let since { select.where("created_at", .greaterThan, since) }
        if let before {
            let at = SQLQueryString("(SELECT created_at FROM market_messages WHERE id = \(bind: before))")
            select.where {
                $0.where(SQLColumn("created_at"), .lessThan, at).orWhere {
                    $0.where(SQLColumn("created_at"), .equal, at).where("id", .lessThan, before)
                }
            }
        }
        return try await select.orderBy("created_at", .descending).orderBy("id", .descending).limit(limit).all().map {
            try Self.message($0)
        }
    }

    /// A message from its columns, each named `prefix` + the table's column name.
    static func message(_ row: any SQLRow, prefix: String = "") throws -> MessageRecord {
        let column = { (name: String) in prefix + name }
        return MessageRecord(
            id: try row.decode(column: column("id"), as: UUID.self),
            conversationId: try row.decode(column: column("conversation_id"), as: UUID.self),
            senderId: try row.decode(column: column("sender_id"), as: UUID.self),
            body: try row.decode(column: column("body"), as: Data.self),
            warnings: try PlazaJSON.value(
                [MessageWarning].self,
                from: try row.decode(column: column("warnings"), as: String.self)
            ),
            createdAt: try row.decode(column: column("created_at"), as: Date.self)
        )
    }

    /// When the newest message to `user` they have not read (after their read mark and deletion) was sent.
    func newestUnread(conversation: ConversationRecord, user: UUID, on db: any SQLDatabase) async throws -> Date? {
        let since = [conversation.readAt(user), conversation.deletedAt(user)].compactMap { $0 }.max()
        let select = db.select().column("created_at").from("market_messages")
            .where("conversation_id", .equal, conversation.id).where("sender_id", .notEqual, user)
        if let since { select.where("created_at", .greaterThan, since) }
        return try await select.orderBy("created_at", .descending).limit(1).first()?.decode(
            column: "created_at",
            as: Date.self
        )
    }

    /// How many of `user`'s conversations have a message to them after their read mark (and their deletion): the
    /// marketplace's Chat tab counts them.
    func unreadConversations(user: UUID, on db: any SQLDatabase) async throws -> Int {
        let sql: SQLQueryString = """
            SELECT count(*) AS n FROM (
              SELECT id,
              CASE WHEN buyer_id = \(bind: user) THEN buyer_read_at ELSE seller_read_at END AS my_read,
              CASE WHEN buyer_id = \(bind: user) THEN buyer_deleted_at ELSE seller_deleted_at END AS my_deleted
              FROM market_conversations WHERE buyer_id = \(bind: user) OR seller_id = \(bind: user)
            ) c WHERE EXISTS (
              SELECT 1 FROM market_messages u WHERE u.conversation_id = c.id AND u.sender_id <> \(bind: user)
              AND (c.my_read IS NULL OR u.created_at > c.my_read) AND (c.my_deleted IS NULL OR u.created_at > c.my_deleted))
            """
        return try await db.raw(sql).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// Messages to `user` in the conversation after their read mark (and their deletion).
    func unread(conversation: ConversationRecord, user: UUID, on db: any SQLDatabase) async throws -> Int {
        let since = [conversation.readAt(user), conversation.deletedAt(user)].compactMap { $0 }.max()
        let select = db.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n").from("market_messages")
            .where("conversation_id", .equal, conversation.id).where("sender_id", .notEqual, user)
        if let since { select.where("created_at", .greaterThan, since) }
        return try await select.first()?.decode(column: "n", as: Int.self) ?? 0
    }

    func mark(_ side: Side, read: Bool, conversation: UUID, at: Date, on db: any SQLDatabase) async throws {
        try await db.update("market_conversations").set("\(side.rawValue)_\(read ? "read" : "deleted")_at", to: at)
            .where("id", .equal, conversation).run()
    }

    static func conversation(_ row: any SQLRow) throws -> ConversationRecord {
        ConversationRecord(
            id: try row.decode(column: "id", as: UUID.self),
            listingId: try row.decode(column: "listing_id", as: UUID.self),
            buyerId: try row.decode(column: "buyer_id", as: UUID.self),
            sellerId: try row.decode(column: "seller_id", as: UUID.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self),
            buyerReadAt: try row.decode(column: "buyer_read_at", as: Date?.self),
            sellerReadAt: try row.decode(column: "seller_read_at", as: Date?.self),
            buyerDeletedAt: try row.decode(column: "buyer_deleted_at", as: Date?.self),
            sellerDeletedAt: try row.decode(column: "seller_deleted_at", as: Date?.self)
        )
    }
}
