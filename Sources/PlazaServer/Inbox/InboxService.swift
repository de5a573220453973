import Foundation
import PlazaCore

/// Each user's inbox: charges asked of them, charges they sent that were answered, money that arrived; newest first,
/// with what is new since they last looked.
struct InboxService: Sendable {
    let database: PlazaDatabase
    let store = InboxStore()

    /// Signed in: a page of the caller's inbox. Each source gives its newest `limit` after the cursor; the page is the
    /// newest `limit` of those together.
    func inbox(
        _ identity: Identity,
        limit: Int,
        cursor: String?,
        now: Date = Date(),
        money: @Sendable (Money) -> String = { $0.description }
    ) async throws -> InboxPage {
        let after = try cursor.map { try InboxPosition.decode($0, field: "cursor") }
        let (owner, store, db) = (identity.user.id, store, database.sql)
        // The sources are read at once (lone SELECTs go to SQLite's readers in turn, or to PostgreSQL's pool).
        let (found, unread) = try await withThrowingTaskGroup(of: ([InboxRow], Int).self) { group in
            for source in InboxSource.allCases {
                group.addTask {
                    let rows = try await store.entries(
                        owner: owner,
                        from: source,
                        after: after,
                        limit: limit + 1,
                        on: db
                    )
                    // Only the first page says how many are unread.
                    let unread =
                        after == nil
                        ? try await store.unreadCount(owner: owner, from: source, limit: InboxPage.unreadLimit, on: db)
                        : 0
                    return (rows, unread)
                }
            }
            return try await group.reduce(into: ([InboxRow](), 0)) {
                $0.0 += $1.0
                $0.1 += $1.1
            }
        }
        // The order the SQL used: time, then id as text (UUIDs sort alike as text and as PostgreSQL's uuid).
        let rows = found.sorted { ($0.time, $0.id.uuidString) > ($1.time, $1.id.uuidString) }
        let page = Array(rows.prefix(limit))
        return InboxPage(
            items: page.map { Self.entry($0, now: now, money: money) },
            nextCursor: rows.count > limit
                ? page.last.map { InboxPosition(source: $0.source, id: $0.id).encoded } : nil,
            unreadCount: min(unread, InboxPage.unreadLimit),
            seenMarker: cursor == nil ? page.first.map { InboxPosition(source: $0.source, id: $0.id).encoded } : nil
        )
    }

    /// How many entries the caller has not seen yet (up to `InboxPage.unreadLimit`), for the navigation's badge.
    func unreadCount(_ identity: Identity) async throws -> Int {
        var total = 0
        for source in InboxSource.allCases {
            total += try await store.unreadCount(
                owner: identity.user.id,
                from: source,
                limit: InboxPage.unreadLimit,
                on: database.sql
            )
        }
        return min(total, InboxPage.unreadLimit)
    }

    /// Signed in: everything up to the entry `through` names (a page's `seenMarker`), or up to now, counts as seen.
    func markSeen(_ identity: Identity, through marker: String?, now: Date = Date()) async throws {
        let position = try marker.map { try InboxPosition.decode($0, field: "through") }
        if let position, !(try await store.exists(position, owner: identity.user.id, on: database.sql)) {
            throw PlazaError.validation(field: "through", phrase("This marker names nothing in your inbox."))
        }
        try await store.markSeen(owner: identity.user.id, through: position, now: now, on: database.sql)
    }

    /// The inbox's part of the bus's transactions: notices other domains publish for a person (a decision about them)
    /// are kept in that transaction, so an entry is never lost nor kept for a change that rolled back.
    func noticeRecorder() -> EventBus.Recorder {
        let store = store
        return EventBus.Recorder { messages, db in
            let now = Date()
            var notices: [NoticeRecord] = []
            for case .inboxNotice(let user, let notice) in messages {
                notices.append(NoticeRecord(owner: user, notice: notice, createdAt: now))
            }
            try await store.insert(notices, on: db)
            return !notices.isEmpty
        }
    }

    /// `money` writes amounts: the API's `4.20 USD`, or a page reader's `$4.20`.
    static func entry(_ row: InboxRow, now: Date, money write: (Money) -> String = { $0.description }) -> InboxEntry {
        switch row {
        case .charge(let record, let source, let unread):
            let charge = record.dto(now: now)
            let asked = source == .chargesAsked
            return InboxEntry(
                id: charge.id,
                kind: asked ? .chargeRequested : .chargeAnswered,
                title: asked ? Self.askedTitle(charge, write: write) : Self.answeredTitle(charge, write: write),
                note: charge.message,
                amount: charge.amount,
                currency: charge.currency,
                counterpart: asked ? charge.business : charge.customer,
                status: charge.status,
                referenceId: charge.id,
                link: asked ? charge.askedLink : charge.answeredLink,
                occurredAt: row.time,
                unread: unread
            )
        case .activity(let record, let unread) where record.kind == .topUp:
            let money = write(Money(amount: record.amount, currency: record.currency))
            return InboxEntry(
                id: record.id,
                kind: .topUpFailed,
                title: say(
                    "Your top-up of {money} from {source} failed; no money was taken.",
                    ["money": money, "source": record.counterpart.name]
                ),
                note: WalletPages.failureReason(record.failureCode),
                amount: record.amount,
                currency: record.currency,
                counterpart: record.counterpart,
                status: nil,
                referenceId: record.referenceId,
                link: "/wallet/activity/\(record.referenceId.uuidString.lowercased())",
                occurredAt: record.createdAt,
                unread: unread
            )
        case .reward(let receipt, let unread):
            // No money moves: the amount is 0 in XXX, ISO 4217's code for "no currency".
            return InboxEntry(
                id: receipt.id,
                kind: .rewardRedeemed,
                title: say(
                    "{business} gave you your reward: {reward}.",
                    ["business": receipt.businessName, "reward": receipt.reward]
                ),
                note: nil,
                amount: 0,
                currency: "XXX",
                counterpart: Party(kind: .business, id: receipt.businessId, name: receipt.businessName),
                status: nil,
                referenceId: receipt.id,
                link: "/loyalty/cards/\(receipt.cardId.uuidString.lowercased())",
                occurredAt: receipt.redeemedAt,
                unread: unread
            )
        case .offer(let receipt, let unread):
            return InboxEntry(
                id: receipt.campaignId,
                kind: .offerReceived,
                title: "\(receipt.businessName): \(receipt.title)",
                note: nil,
                amount: 0,
                currency: "XXX",
                counterpart: Party(kind: .business, id: receipt.businessId, name: receipt.businessName),
                status: nil,
                referenceId: receipt.campaignId,
                link: "/offers/\(receipt.campaignId.uuidString.lowercased())",
                occurredAt: receipt.receivedAt,
                unread: unread
            )
        case .notice(let record, let unread):
            // No money moves: the amount is 0 in XXX, ISO 4217's code for "no currency".
            let said = record.notice.said(in: PageLanguage.words ?? Catalogue.englishWords)
            return InboxEntry(
                id: record.id,
                kind: record.notice.kind,
                title: said.title,
                note: said.note,
                amount: 0,
                currency: "XXX",
                counterpart: Party(kind: .plaza, name: "Plaza"),
                status: nil,
                referenceId: record.id,
                link: record.notice.link,
                occurredAt: record.createdAt,
                unread: unread
            )
        case .activity(let record, let unread) where record.kind == .cardOrder || record.kind == .cardRefund:
            let money = write(Money(amount: abs(record.amount), currency: record.currency))
            let paid = record.kind == .cardOrder
            return InboxEntry(
                id: record.id,
                kind: paid ? .cardOrderPaid : .cardOrderRefunded,
                title: Self.cardOrderTitle(paid: paid, money: money, what: record.note),
                note: nil,
                amount: record.amount,
                currency: record.currency,
                counterpart: record.counterpart,
                status: nil,
                referenceId: record.referenceId,
                link: "/cards/orders/\(record.referenceId.uuidString.lowercased())",
                occurredAt: record.createdAt,
                unread: unread
            )
        case .activity(let record, let unread):
            let money = write(Money(amount: record.amount, currency: record.currency))
            let values = ["name": record.counterpart.name, "money": money]
            let title =
                record.kind == .refund
                ? say("{name} refunded {money}.", values) : say("{name} sent you {money}.", values)
            return InboxEntry(
                id: record.id,
                kind: .moneyReceived,
                title: title,
                note: record.note,
                amount: record.amount,
                currency: record.currency,
                counterpart: record.counterpart,
                status: nil,
                referenceId: record.referenceId,
                link: "/wallet/activity/\(record.referenceId.uuidString.lowercased())",
                occurredAt: record.createdAt,
                unread: unread
            )
        }
    }
}
