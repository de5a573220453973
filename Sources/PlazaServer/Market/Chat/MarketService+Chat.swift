import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Chat: "I'm interested" opens a conversation about one listing between its buyer and its seller; messages arrive
/// live and as alerts, are encrypted at rest, and carry warnings for the recipient when they look like a scam. Anyone
/// but the two sides gets 404.
extension MarketService {
    /// Opens the buyer's conversation about the listing, or answers the one they have (`created` false).
    package func startConversation(
        _ identity: Identity,
        listing id: UUID,
        now: Date = Date()
    ) async throws -> (Conversation, created: Bool) {
        let membership = try await requireStudent(identity, now: now)
        let listing = try await listing(identity, id, now: now)
        guard listing.seller.username != identity.user.username else {
            throw PlazaError.validation(
                field: "listingId",
                phrase("This is your own listing: buyers start the conversation.")
            )
        }
        guard [.active, .reserved].contains(listing.state) else { throw Self.finished(listing.state) }
        guard let record = try await listings.listing(id, on: database.sql), record.campusId == membership.campus.id
        else {
            throw PlazaError.notFound("listing")
        }
        let (conversation, created) = try await chat.open(
            UUID(),
            listing: id,
            buyer: identity.user.id,
            seller: record.sellerId,
            now: now,
            on: database.sql
        )
        return (try await self.conversation(identity, conversation), created)
    }

    /// My conversations, most recent first, with the last message and my unread count.
    /// How many conversations wait for the reader's reading (0 for people outside the marketplace).
    func unreadConversations(_ identity: Identity) async throws -> Int {
        try await chat.unreadConversations(user: identity.user.id, on: database.sql)
    }

    func conversations(
        _ identity: Identity,
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<Conversation> {
        _ = try await requireStudent(identity, now: now)
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let rows = try await chat.inbox(user: identity.user.id, limit: limit + 1, offset: offset, on: database.sql)
        let page = Array(rows.prefix(limit))
        // The page's people and listings in one statement each, not one per conversation.
        let names = try await usernames(page.flatMap { [$0.conversation.buyerId, $0.conversation.sellerId] })
        let listings = try await self.listings.listings(ids: page.map(\.conversation.listingId), on: database.sql)
        let items = try page.map { row in
            try dto(
                row.conversation,
                last: row.last,
                unread: row.unread,
                listing: listings[row.conversation.listingId],
                names: names
            )
        }
        return Page(items: items, nextCursor: rows.count > limit ? PlaceCursor.encode(offset: offset + limit) : nil)
    }

    func conversation(_ identity: Identity, _ id: UUID) async throws -> Conversation {
        try await dto(try await side(identity, id), for: identity)
    }

    /// Sends a message: live to both sides, and an alert to the other unless an earlier one still waits unread
    /// (`ChatRules.alerts`).
    func send(
        _ identity: Identity,
        conversation id: UUID,
        text raw: String,
        now: Date = Date()
    ) async throws -> ChatMessage {
        _ = try await requireStudent(identity, now: now)
        let record = try await side(identity, id)
        if try await store.blocked(record.buyerId, record.sellerId, on: database.sql) { throw Self.blockedError }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard ChatRules.textLength.contains(text.count) else {
            throw PlazaError.validation(
                field: "text",
                say("Write a message of at most {max} characters.", ["max": String(ChatRules.textLength.upperBound)])
            )
        }
        let message = ChatStore.MessageRecord(
            id: UUID(),
            conversationId: id,
            senderId: identity.user.id,
            body: try cipher.seal(text, conversation: id),
            warnings: ChatRules.warnings(text, trustedHosts: trustedHosts),
            createdAt: now
        )
        let dto = ChatMessage(
            id: message.id,
            conversationId: id,
            sender: identity.user.username,
            text: text,
            createdAt: now,
            warnings: message.warnings
        )
        let listing = try await listings.listing(record.listingId, on: database.sql)?.title
        let title = listing ?? "your listing"
        let (chat, recipient) = (chat, record.other(identity.user.id))
        let event = PlazaEvent(type: MarketEventType.message, occurredAt: now, data: try JSONValue(encoding: dto))
        let alert = NotificationContent(
            kind: .market,
            title: "\(identity.user.displayName) about \(title)",
            body: String(text.prefix(140)),
            link: "/market/conversations/\(id.uuidString.lowercased())"
        )
        // The recipient's words; the listing's title and the message are theirs as written.
        let wording = Wording(
            key: listing == nil ? "alert.market.message_unnamed" : "alert.market.message",
            values: ["name": identity.user.displayName, "title": title, "body": alert.body]
        )
        return try await events.transaction(publishing: { db in
            let alerts = ChatRules.alerts(
                newestUnread: try await chat.newestUnread(conversation: record, user: recipient, on: db),
                now: now
            )
            try await chat.insert(message, on: db)
            return (
                dto,
                [.event(audience: [record.buyerId, record.sellerId], event: event)]
                    + (alerts ? [.alert(user: recipient, content: alert, wording: wording)] : [])
            )
        })
    }

    /// The conversation's messages after my deletion, newest first, a page back from `before`.
    func messages(
        _ identity: Identity,
        conversation id: UUID,
        before: UUID?,
        limit: Int,
        now: Date = Date()
    ) async throws -> Page<ChatMessage> {
        _ = try await requireStudent(identity, now: now)
        let record = try await side(identity, id)
        let rows = try await chat.messages(
            conversation: id,
            since: record.deletedAt(identity.user.id),
            before: before,
            limit: limit + 1,
            on: database.sql
        )
        let names = try await usernames([record.buyerId, record.sellerId])
        let items = try rows.prefix(limit).map { try message($0, names: names) }
        return Page(
            items: items,
            nextCursor: rows.count > limit ? items.last.map { RowCursor(id: $0.id).encoded } : nil
        )
    }

    /// Marks what reached me read.
    func markRead(_ identity: Identity, conversation id: UUID, now: Date = Date()) async throws {
        let record = try await side(identity, id)
        guard let side = record.side(identity.user.id) else { throw PlazaError.notFound("conversation") }
        try await chat.mark(side, read: true, conversation: id, at: now, on: database.sql)
    }

    /// Deletes the conversation for me: it stays for the other side (and for reports); a new message brings it back.
    func deleteConversation(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws {
        let record = try await side(identity, id)
        guard let side = record.side(identity.user.id) else { throw PlazaError.notFound("conversation") }
        try await chat.mark(side, read: false, conversation: id, at: now, on: database.sql)
    }

    // MARK: Helpers

    /// The conversation when the caller is one of its sides; 404 otherwise.
    func side(_ identity: Identity, _ id: UUID) async throws -> ChatStore.ConversationRecord {
        guard let record = try await chat.conversation(id, on: database.sql), record.side(identity.user.id) != nil
        else {
            throw PlazaError.notFound("conversation")
        }
        return record
    }

    func usernames(_ ids: [UUID]) async throws -> [UUID: (username: String, name: String)] {
        var names: [UUID: (String, String)] = [:]
        for user in try await AccountStore().users(ids: Array(Set(ids)), on: database.sql) {
            names[user.id] = (user.username, user.displayName)
        }
        return names
    }

    private func message(
        _ record: ChatStore.MessageRecord,
        names: [UUID: (username: String, name: String)]
    ) throws -> ChatMessage {
        ChatMessage(
            id: record.id,
            conversationId: record.conversationId,
            sender: names[record.senderId]?.username ?? "",
            text: try cipher.open(record.body, conversation: record.conversationId),
            createdAt: record.createdAt,
            warnings: record.warnings
        )
    }

    private func dto(_ record: ChatStore.ConversationRecord, for identity: Identity) async throws -> Conversation {
        let last = try await chat.messages(
            conversation: record.id,
            since: record.deletedAt(identity.user.id),
            before: nil,
            limit: 1,
            on: database.sql
        ).first
        return try dto(
            record,
            last: last,
            unread: try await chat.unread(conversation: record, user: identity.user.id, on: database.sql),
            listing: try await listings.listing(record.listingId, on: database.sql),
            names: try await usernames([record.buyerId, record.sellerId])
        )
    }

    private func dto(
        _ record: ChatStore.ConversationRecord,
        last: ChatStore.MessageRecord?,
        unread: Int,
        listing: ListingStore.Record?,
        names: [UUID: (username: String, name: String)]
    ) throws -> Conversation {
        let party = { (id: UUID) in
            ListingSeller(username: names[id]?.username ?? "", displayName: names[id]?.name ?? "")
        }
        return Conversation(
            id: record.id,
            listing: ConversationListing(
                id: record.listingId,
                title: listing?.title ?? "",
                price: listing.flatMap { Self.dto($0).price },
                state: listing?.state ?? .removed,
                thumbnailUrl: listing?.photoIds.first.map { MediaService.photo($0).thumbnailUrl }
            ),
            buyer: party(record.buyerId),
            seller: party(record.sellerId),
            lastMessage: try last.map { try message($0, names: names) },
            unread: unread,
            updatedAt: record.updatedAt
        )
    }
}
