import Foundation
import PlazaCore
import SQLKit

/// A row of `charges`.
struct ChargeRecord: Sendable {
    var id = UUID()
    var reference: String
    var businessId: UUID
    var businessName: String
    var customerId: UUID
    var customerUsername: String
    var customerName: String
    var createdBy: UUID
    var amount: Int64
    var currency: String
    var items: [ChargeItem]
    var message: String?
    var status: ChargeStatus = .pending
    var refundedAmount: Int64 = 0
    var createdAt: Date
    var expiresAt: Date
    var decidedAt: Date?
    /// Who is paid: a business (a shop's charge; `businessId` is the business) or a user (a person's payment request;
    /// `businessId` is that user, `payeeUsername` their username).
    var payeeKind: Party.Kind = .business
    var payeeUsername: String?
    /// A coupon's discount: `amount` is what is left to pay after it.
    var discount: ChargeDiscount?
    /// The part of `amount` that is a tip: never discounted, not counted for loyalty.
    var tip: Int64 = 0

    static let columns = [
        "id", "reference", "business_id", "business_name", "customer_id", "customer_username", "customer_name",
        "created_by", "amount", "currency",
        "items", "message", "status", "refunded_amount", "created_at", "expires_at", "decided_at", "payee_kind",
        "payee_username", "discount", "tip",
    ]

    var isPaymentRequest: Bool { payeeKind == .user }

    /// What was bought, as it stands: `amount` less the tip (what a coupon lowers and loyalty counts).
    var goods: Money { Money(amount: amount - tip, currency: currency) }

    func values() throws -> [any SQLExpression] {
        let items = String(decoding: try PlazaJSON.encoder().encode(items), as: UTF8.self)
        return [
            SQLBind(id), SQLBind(reference), SQLBind(businessId), SQLBind(businessName), SQLBind(customerId),
            SQLBind(customerUsername),
            SQLBind(customerName), SQLBind(createdBy), SQLBind(amount), SQLBind(currency), SQLBind(items),
            SQLBind(message), SQLBind(status.rawValue),
            SQLBind(refundedAmount), SQLBind(createdAt), SQLBind(expiresAt), SQLBind(decidedAt),
            SQLBind(payeeKind.rawValue), SQLBind(payeeUsername),
            SQLBind(try Self.json(discount)), SQLBind(tip),
        ]
    }

    /// The status as of `now`: a pending charge past its expiry is expired even before the sweeper marks it.
    func status(at now: Date) -> ChargeStatus {
        status == .pending && expiresAt <= now ? .expired : status
    }

    func dto(now: Date = Date()) -> Charge {
        Charge(
            id: id,
            reference: reference,
            business: isPaymentRequest
                ? Party(kind: .user, username: payeeUsername, name: businessName)
                : Party(kind: .business, id: businessId, name: businessName),
            customer: Party(
                kind: .user,
                username: customerUsername.isEmpty ? nil : customerUsername,
                name: customerName
            ),
            amount: amount,
            currency: currency,
            items: items,
            message: message,
            status: status(at: now),
            refundedAmount: refundedAmount,
            createdAt: createdAt,
            expiresAt: expiresAt,
            decidedAt: status == .pending && expiresAt <= now ? expiresAt : decidedAt,
            subtotal: discount.map { amount - tip + $0.amount },
            discount: discount,
            tip: tip
        )
    }

    static func json(_ discount: ChargeDiscount?) throws -> String? {
        try discount.map { String(decoding: try PlazaJSON.encoder().encode($0), as: UTF8.self) }
    }
}

extension ChargeRecord {
    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        reference = try row.decode(column: "reference", as: String.self)
        businessId = try row.decode(column: "business_id", as: UUID.self)
        businessName = try row.decode(column: "business_name", as: String.self)
        customerId = try row.decode(column: "customer_id", as: UUID.self)
        customerUsername = try row.decode(column: "customer_username", as: String.self)
        customerName = try row.decode(column: "customer_name", as: String.self)
        createdBy = try row.decode(column: "created_by", as: UUID.self)
        amount = try row.decode(column: "amount", as: Int64.self)
        currency = try row.decode(column: "currency", as: String.self)
        items =
            (try? PlazaJSON.decoder().decode(
                [ChargeItem].self,
                from: Data(try row.decode(column: "items", as: String.self).utf8)
            )) ?? []
        message = try row.decode(column: "message", as: String?.self)
        status = ChargeStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .pending
        refundedAmount = try row.decode(column: "refunded_amount", as: Int64.self)
        createdAt = try row.decode(column: "created_at", as: Date.self)
        expiresAt = try row.decode(column: "expires_at", as: Date.self)
        decidedAt = try row.decode(column: "decided_at", as: Date?.self)
        payeeKind = Party.Kind(rawValue: try row.decode(column: "payee_kind", as: String.self)) ?? .business
        payeeUsername = try row.decode(column: "payee_username", as: String?.self)
        discount = try row.decode(column: "discount", as: String?.self).flatMap {
            try? PlazaJSON.decoder().decode(ChargeDiscount.self, from: Data($0.utf8))
        }
        tip = try row.decode(column: "tip", as: Int64.self)
    }
}

/// All SQL of charges, charge blocks and pay codes.
struct ChargeStore: Sendable {
    private static var columns: [SQLIdentifier] { ChargeRecord.columns.map { SQLIdentifier($0) } }

    /// Charges of a business still waiting for its customers.
    func pendingCount(business: UUID, now: Date, on db: any SQLDatabase) async throws -> Int {
        try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("charges").where(
            "business_id",
            .equal,
            business
        )
        .where("status", .equal, ChargeStatus.pending.rawValue).where("expires_at", .greaterThan, now).first()?.decode(
            column: "n",
            as: Int.self
        )
            ?? 0
    }

    /// A deleted customer shows as "Deleted user" on the businesses' charges and receipts.
    func forgetCustomer(_ user: UUID, on db: any SQLDatabase) async throws {
        try await db.update("charges").set("customer_name", to: "Deleted user").set("customer_username", to: "").where(
            "customer_id",
            .equal,
            user
        )
        .run()
    }

    func insert(_ charge: ChargeRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "charges").columns(ChargeRecord.columns).values(try charge.values()).run()
    }

    func find(_ id: UUID, on db: any SQLDatabase) async throws -> ChargeRecord? {
        try await db.select().columns(Self.columns).from("charges").where("id", .equal, id).first().map(
            ChargeRecord.init(row:)
        )
    }

    /// Holds the customer's row until the transaction ends, so that two charges counting the customer's pending
    /// ones at once (PostgreSQL's READ COMMITTED) cannot both find room; on SQLite the clause renders as nothing
    /// (its one writer already takes charges one at a time).
    func lockCustomer(_ id: UUID, on db: any SQLDatabase) async throws {
        _ = try await db.select().column("id").from("users").where("id", .equal, id).for(.update).first()
    }

    /// Charges still waiting for `customer`.
    func pendingCount(customer: UUID, now: Date, on db: any SQLDatabase) async throws -> Int {
        try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("charges").where(
            "customer_id",
            .equal,
            customer
        )
        .where("status", .equal, ChargeStatus.pending.rawValue).where("expires_at", .greaterThan, now).first()?.decode(
            column: "n",
            as: Int.self
        )
            ?? 0
    }

    /// Decides a pending, unexpired charge; `nil` when another decision (or the clock) got there first.
    func decide(_ id: UUID, to status: ChargeStatus, now: Date, on db: any SQLDatabase) async throws -> ChargeRecord? {
        try await db.update("charges").set("status", to: status.rawValue).set("decided_at", to: now)
            .where("id", .equal, id).where("status", .equal, ChargeStatus.pending.rawValue).where(
                "expires_at",
                .greaterThan,
                now
            )
            .returning(Self.columns).first().map(ChargeRecord.init(row:))
    }

    /// Takes a coupon's discount off a pending charge that has none yet; `nil` when it is no longer pending or has one.
    func discount(
        _ id: UUID,
        _ discount: ChargeDiscount,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> ChargeRecord? {
        let left = SQLBinaryExpression(SQLIdentifier("amount"), .subtract, SQLBind(discount.amount))
        return try await db.update("charges").set("amount", to: left).set(
            "discount",
            to: try ChargeRecord.json(discount)
        )
        .where("id", .equal, id).where("status", .equal, ChargeStatus.pending.rawValue).where(
            "expires_at",
            .greaterThan,
            now
        )
        .where("discount", .is, SQLLiteral.null).returning(Self.columns).first().map(ChargeRecord.init(row:))
    }

    /// Adds a refund, only while the total refunded stays within the charge; `nil` when it would not.
    func refund(_ id: UUID, amount: Int64, on db: any SQLDatabase) async throws -> ChargeRecord? {
        let refunded = SQLBinaryExpression(SQLIdentifier("refunded_amount"), .add, SQLBind(amount))
        return try await db.update("charges").set("refunded_amount", to: refunded).set(
            "status",
            to: ChargeStatus.refunded.rawValue
        )
        .where("id", .equal, id).where(
            "status",
            .in,
            SQLBind.group([ChargeStatus.approved.rawValue, ChargeStatus.refunded.rawValue])
        )
        .where(refunded, .lessThanOrEqual, SQLIdentifier("amount"))
        .returning(Self.columns).first().map(ChargeRecord.init(row:))
    }

    /// Marks pending charges past their expiry as expired and returns them (for the events).
    func expire(now: Date, limit: Int, on db: any SQLDatabase) async throws -> [ChargeRecord] {
        let due = db.select().column("id").from("charges").where("status", .equal, ChargeStatus.pending.rawValue)
            .where("expires_at", .lessThanOrEqual, now).limit(limit)
        return try await db.update("charges").set("status", to: ChargeStatus.expired.rawValue).set(
            "decided_at",
            to: SQLIdentifier("expires_at")
        )
        .where("id", .in, SQLGroupExpression(due.select)).where("status", .equal, ChargeStatus.pending.rawValue)
        .returning(Self.columns).all().map(ChargeRecord.init(row:))
    }

    /// A customer's charges (newest first), a business's, or the payment requests a person sent; optionally only those
    /// in `statuses`.
    func list(
        customer: UUID? = nil,
        business: UUID? = nil,
        requester: UUID? = nil,
        statuses: [ChargeStatus],
        now: Date,
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws -> [ChargeRecord] {
        var query = db.select().columns(Self.columns).from("charges")
        if let customer { query = query.where("customer_id", .equal, customer) }
        if let business {
            query = query.where("business_id", .equal, business).where(
                "payee_kind",
                .equal,
                Party.Kind.business.rawValue
            )
        }
        if let requester {
            query = query.where("business_id", .equal, requester).where("payee_kind", .equal, Party.Kind.user.rawValue)
        }
        if !statuses.isEmpty {
            // A pending charge past its expiry counts as expired before the sweeper marks it.
            let pending = ChargeStatus.pending.rawValue
            let stored = statuses.filter { $0 != .pending }.map(\.rawValue)
            query = query.where { group in
                var group = group.where("status", .in, SQLBind.group(stored.isEmpty ? ["-"] : stored))
                if statuses.contains(.pending) {
                    group = group.orWhere { $0.where("status", .equal, pending).where("expires_at", .greaterThan, now) }
                }
                if statuses.contains(.expired) {
                    group = group.orWhere {
                        $0.where("status", .equal, pending).where("expires_at", .lessThanOrEqual, now)
                    }
                }
                return group
            }
        }
        return try await query.newestFirst(after: after, in: "charges", by: "created_at").limit(limit).all().map(
            ChargeRecord.init(row:)
        )
    }

    /// A business's approved (and later refunded) charges decided since `since`, for its daily totals.
    func settled(business: UUID, since: Date, on db: any SQLDatabase) async throws -> [ChargeRecord] {
        try await db.select().columns(Self.columns).from("charges").where("business_id", .equal, business)
            .where("status", .in, SQLBind.group([ChargeStatus.approved.rawValue, ChargeStatus.refunded.rawValue]))
            .where("decided_at", .greaterThanOrEqual, since).all().map(ChargeRecord.init(row:))
    }

    // MARK: Blocks

    func block(user: UUID, business: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "charge_blocks").columns("user_id", "business_id", "created_at")
            .values(SQLBind(user), SQLBind(business), SQLBind(now)).ignoringConflicts(with: ["user_id", "business_id"])
            .run()
    }

    func unblock(user: UUID, business: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "charge_blocks").where("user_id", .equal, user).where("business_id", .equal, business)
            .run()
    }

    func isBlocked(user: UUID, business: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("user_id").from("charge_blocks").where("user_id", .equal, user).where(
            "business_id",
            .equal,
            business
        ).first()
            != nil
    }

    func blocks(user: UUID, on db: any SQLDatabase) async throws -> [(business: UUID, since: Date)] {
        try await db.select().columns("business_id", "created_at").from("charge_blocks").where("user_id", .equal, user)
            .orderBy("created_at").all()
            .map {
                (
                    try $0.decode(column: "business_id", as: UUID.self),
                    try $0.decode(column: "created_at", as: Date.self)
                )
            }
    }

    // MARK: Pay codes

    /// Replaces the user's earlier codes with this one.
    func insertPayCode(hash: String, user: UUID, expiresAt: Date, on db: any SQLDatabase) async throws {
        try await db.delete(from: "pay_codes").where("user_id", .equal, user).run()
        try await db.insert(into: "pay_codes").columns("code_hash", "user_id", "expires_at").values(
            SQLBind(hash),
            SQLBind(user),
            SQLBind(expiresAt)
        )
        .run()
    }

    /// Uses a code up: its owner, or `nil` for an unknown, used or expired code.
    func consumePayCode(hash: String, now: Date, on db: any SQLDatabase) async throws -> UUID? {
        try await db.update("pay_codes").set("used_at", to: now).where("code_hash", .equal, hash).where(
            "used_at",
            .is,
            SQLLiteral.null
        )
        .where("expires_at", .greaterThan, now).returning("user_id").first()?.decode(column: "user_id", as: UUID.self)
    }
}
