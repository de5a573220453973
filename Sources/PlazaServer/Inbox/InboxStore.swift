import Foundation
import PlazaCore
import SQLKit

/// Where inbox entries come from. The inbox stores no entries of its own: it reads the rows that record what
/// happened (charges, wallet history, loyalty redemptions), so an entry can never disagree with its charge and a
/// transfer writes nothing more.
enum InboxSource: String, CaseIterable, Sendable {
    /// Charges asked of the owner, by when they were asked.
    case chargesAsked = "c"
    /// Charges the owner sent from a counter that the customer answered (or let expire), by when.
    case chargesAnswered = "a"
    /// Transfers and refunds into the owner's wallet.
    case moneyIn = "m"
    /// Loyalty rewards the owner was given: the receipt of each redemption.
    case rewards = "r"
    /// Ads and coupons that reached the owner (not dismissed ones).
    case offers = "o"
    /// What other domains told the owner through the event bus (decisions about them).
    case notices = "n"

    var table: String {
        switch self {
        case .chargesAsked, .chargesAnswered: "charges"
        case .moneyIn: "wallet_activity"
        case .rewards: "loyalty_redemptions"
        case .offers: "offers"
        case .notices: "inbox_notices"
        }
    }

    /// The column that names an entry among the owner's: an offer is known by its campaign (once per person).
    var idColumn: String {
        self == .offers ? "campaign_id" : "id"
    }

    var time: String {
        switch self {
        case .chargesAnswered: "decided_at"
        case .chargesAsked, .moneyIn, .notices: "created_at"
        case .rewards: "redeemed_at"
        case .offers: "received_at"
        }
    }
}

/// An offer as the inbox lists it: its campaign's title and business, when it arrived.
struct OfferReceipt: Sendable {
    var campaignId: UUID
    var businessId: UUID
    var businessName: String
    var title: String
    var receivedAt: Date

    static let columns: [any SQLExpression] = [
        SQLIdentifier("campaign_id"), SQLIdentifier("business_id"), SQLIdentifier("received_at"),
        SQLAlias(
            SQLQueryString("(SELECT name FROM businesses WHERE businesses.id = offers.business_id)"),
            as: SQLIdentifier("business_name")
        ),
        SQLAlias(
            SQLQueryString("(SELECT content FROM campaigns WHERE campaigns.id = offers.campaign_id)"),
            as: SQLIdentifier("content")
        ),
    ]

    init(row: any SQLRow) throws {
        campaignId = try row.decode(column: "campaign_id", as: UUID.self)
        businessId = try row.decode(column: "business_id", as: UUID.self)
        businessName = try row.decode(column: "business_name", as: String?.self) ?? ""
        receivedAt = try row.decode(column: "received_at", as: Date.self)
        // The newest wording is fine for a line of the inbox; the offer's own page shows the approved one.
        let content = try row.decode(column: "content", as: String?.self).flatMap {
            try? PlazaJSON.decoder().decode(CampaignContent.self, from: Data($0.utf8))
        }
        title = content?.title ?? "An offer"
    }
}

/// A loyalty redemption as its receipt shows it.
struct RewardReceipt: Sendable {
    var id: UUID
    var cardId: UUID
    var businessId: UUID
    var businessName: String
    var reward: String
    var redeemedAt: Date

    static let columns: [any SQLExpression] = [
        SQLIdentifier("id"), SQLIdentifier("card_id"), SQLIdentifier("business_id"), SQLIdentifier("reward"),
        SQLIdentifier("redeemed_at"),
        SQLAlias(
            SQLQueryString("(SELECT name FROM businesses WHERE businesses.id = loyalty_redemptions.business_id)"),
            as: SQLIdentifier("business_name")
        ),
    ]

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        cardId = try row.decode(column: "card_id", as: UUID.self)
        businessId = try row.decode(column: "business_id", as: UUID.self)
        businessName = try row.decode(column: "business_name", as: String?.self) ?? ""
        reward = try row.decode(column: "reward", as: String.self)
        redeemedAt = try row.decode(column: "redeemed_at", as: Date.self)
    }
}

/// A row an inbox entry is made from, with whether it is newer than the owner's seen mark.
enum InboxRow: Sendable {
    case charge(ChargeRecord, InboxSource, unread: Bool)
    case activity(ActivityRecord, unread: Bool)
    case reward(RewardReceipt, unread: Bool)
    case offer(OfferReceipt, unread: Bool)
    case notice(NoticeRecord, unread: Bool)

    var id: UUID {
        switch self {
        case .charge(let record, _, _): record.id
        case .activity(let record, _): record.id
        case .reward(let receipt, _): receipt.id
        case .offer(let receipt, _): receipt.campaignId
        case .notice(let record, _): record.id
        }
    }

    var source: InboxSource {
        switch self {
        case .charge(_, let source, _): source
        case .activity: .moneyIn
        case .reward: .rewards
        case .offer: .offers
        case .notice: .notices
        }
    }

    var time: Date {
        switch self {
        case .charge(let record, let source, _):
            source == .chargesAnswered ? record.decidedAt ?? record.createdAt : record.createdAt
        case .activity(let record, _): record.createdAt
        case .reward(let receipt, _): receipt.redeemedAt
        case .offer(let receipt, _): receipt.receivedAt
        case .notice(let record, _): record.createdAt
        }
    }
}

/// The inbox's opaque cursor and seen marker: an entry's source and id. Positions are compared in SQL against that row's
/// stored time (see `RowCursor` for why never against a time that went through Swift).
struct InboxPosition: Sendable, Hashable {
    var source: InboxSource
    var id: UUID

    var encoded: String { Data("\(source.rawValue):\(id.uuidString)".utf8).base64EncodedString() }

    static func decode(_ text: String, field: String) throws -> InboxPosition {
        guard let data = Data(base64Encoded: text), let string = String(data: data, encoding: .utf8),
            let colon = string.firstIndex(of: ":"), let source = InboxSource(rawValue: String(string[..<colon])),
            let id = UUID(uuidString: String(string[string.index(after: colon)...]))
        else {
            throw PlazaError.validation(
                field: field,
                field == "cursor"
                    ? phrase("Use a nextCursor Plaza gave out.") : phrase("Use a seenMarker Plaza gave out.")
            )
        }
        return InboxPosition(source: source, id: id)
    }

    /// The stored time of `owner`'s entry named.
    func storedTime(owner: UUID) -> SQLQueryString {
        let time =
            "(SELECT \(ident: source.time) FROM \(ident: source.table) WHERE \(ident: source.idColumn) = \(bind: id)"
            as SQLQueryString
        // An offer's campaign names one row per person.
        return source == .offers ? time + " AND user_id = \(bind: owner))" : time + ")"
    }
}

/// All SQL of the inbox: its entries read from charges and wallet activity, and each owner's seen mark.
struct InboxStore: Sendable {
    /// The money entries an inbox shows: what others sent, not what the owner moved.
    private static let moneyKinds = [ActivityKind.transferIn.rawValue, ActivityKind.refund.rawValue]
    private static let answered = [ChargeStatus.approved, .declined, .expired, .refunded].map(\.rawValue)

    /// `owner`'s entries from `source`, newest first, after `after` (the last entry of the previous page).
    func entries(
        owner: UUID,
        from source: InboxSource,
        after: InboxPosition?,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [InboxRow] {
        let columns: [any SQLExpression] =
            switch source {
            case .moneyIn: ActivityRecord.readColumns.map { SQLIdentifier($0) }
            case .rewards: RewardReceipt.columns
            case .offers: OfferReceipt.columns
            case .notices: NoticeRecord.columns.map { SQLIdentifier($0) }
            case .chargesAsked, .chargesAnswered: ChargeRecord.columns.map { SQLIdentifier($0) }
            }
        var query = db.select().columns(columns)
            .column(SQLQueryString("CASE WHEN \(unread(owner: owner, source: source)) THEN 1 ELSE 0 END"), as: "unread")
            .from(source.table)
        query = whose(query, owner: owner, source: source)
        if let after {
            let (time, stored) = (SQLColumn(source.time), after.storedTime(owner: owner))
            query = query.where {
                $0.where(time, .lessThan, stored).orWhere {
                    $0.where(time, .equal, stored).where(SQLColumn(source.idColumn), .lessThan, SQLBind(after.id))
                }
            }
        }
        let rows = try await query.orderBy(source.time, .descending).orderBy(source.idColumn, .descending).limit(limit)
            .all()
        return try rows.map { row in
            let unread = try row.decode(column: "unread", as: Int.self) != 0
            switch source {
            case .moneyIn: return .activity(try ActivityRecord(row: row), unread: unread)
            case .rewards: return .reward(try RewardReceipt(row: row), unread: unread)
            case .offers: return .offer(try OfferReceipt(row: row), unread: unread)
            case .notices: return .notice(try NoticeRecord(row: row), unread: unread)
            case .chargesAsked, .chargesAnswered: return .charge(try ChargeRecord(row: row), source, unread: unread)
            }
        }
    }

    /// How many of `owner`'s entries from `source` are unread, counting no further than `limit`.
    func unreadCount(owner: UUID, from source: InboxSource, limit: Int, on db: any SQLDatabase) async throws -> Int {
        let query = whose(db.select().column(source.idColumn).from(source.table), owner: owner, source: source).where(
            unread(owner: owner, source: source)
        )
        return try await query.limit(limit).all().count
    }

    /// Whether `position` names an entry of `owner`'s inbox.
    func exists(_ position: InboxPosition, owner: UUID, on db: any SQLDatabase) async throws -> Bool {
        let query = whose(
            db.select().column(position.source.idColumn).from(position.source.table),
            owner: owner,
            source: position.source
        )
        return try await query.where(SQLColumn(position.source.idColumn), .equal, SQLBind(position.id)).first() != nil
    }

    /// Keeps notices published through the event bus, in the publishing transaction.
    func insert(_ notices: [NoticeRecord], on db: any SQLDatabase) async throws {
        guard !notices.isEmpty else { return }
        var insert = db.insert(into: "inbox_notices").columns(NoticeRecord.columns)
        for notice in notices { insert = insert.values(notice.values) }
        try await insert.run()
    }

    /// Moves `owner`'s seen mark to the time of the entry at `position`, or to `now`; never back.
    func markSeen(owner: UUID, through position: InboxPosition?, now: Date, on db: any SQLDatabase) async throws {
        let time: any SQLExpression = position?.storedTime(owner: owner) ?? SQLBind(now)
        try await db.insert(into: "inbox_marks").columns("owner_id", "seen_until").values(SQLBind(owner), time)
            .onConflict(with: ["owner_id"]) {
                $0.set(excludedValueOf: "seen_until").where(
                    SQLColumn("seen_until", table: "inbox_marks"),
                    .lessThan,
                    SQLColumn("seen_until", table: "excluded")
                )
            }
            .run()
    }

    /// The rows of `source` that belong in `owner`'s inbox.
    private func whose<Builder: SQLPredicateBuilder>(_ query: Builder, owner: UUID, source: InboxSource) -> Builder {
        switch source {
        case .chargesAsked:
            query.where("customer_id", .equal, owner)
        case .chargesAnswered:
            // A paid payment request is said by its money arriving (`moneyIn`), not twice.
            query.where("created_by", .equal, owner).where("decided_at", .isNot, SQLLiteral.null).where(
                "status",
                .in,
                SQLBind.group(Self.answered)
            )
            .where {
                $0.where("payee_kind", .equal, Party.Kind.business.rawValue).orWhere(
                    "status",
                    .notEqual,
                    ChargeStatus.approved.rawValue
                )
            }
        case .moneyIn:
            query.where("owner_id", .equal, owner).where { money in
                money.where {
                    $0.where("kind", .in, SQLBind.group(Self.moneyKinds)).where(
                        "amount",
                        .greaterThan,
                        SQLLiteral.numeric("0")
                    )
                }
                .orWhere {
                    $0.where("kind", .equal, ActivityKind.topUp.rawValue).where(
                        "status",
                        .equal,
                        FundingStatus.failed.rawValue
                    )
                }
                // A card shop order paid, and its refund: the receipt the shop promises.
                .orWhere(
                    "kind",
                    .in,
                    SQLBind.group([ActivityKind.cardOrder.rawValue, ActivityKind.cardRefund.rawValue])
                )
            }
        case .rewards:
            query.where("user_id", .equal, owner)
        case .offers:
            query.where("user_id", .equal, owner).where("dismissed_at", .is, SQLLiteral.null)
        case .notices:
            query.where("owner_id", .equal, owner)
        }
    }

    /// Newer than `owner`'s seen mark (everything is, before the first mark).
    private func unread(owner: UUID, source: InboxSource) -> SQLQueryString {
        let mark = SQLQueryString("(SELECT seen_until FROM inbox_marks WHERE owner_id = \(bind: owner))")
        return "(NOT EXISTS \(mark) OR \(ident: source.table).\(ident: source.time) > \(mark))"
    }
}
