import Foundation
import PlazaCore
import SQLKit

/// A row of `top_ups` or `withdrawals`: money between a wallet and the card processor.
package struct FundingRecord: Sendable {
    package enum Direction: String, Sendable {
        case topUp = "top_ups"
        case withdrawal = "withdrawals"
    }

    package var id = UUID()
    /// Who asked; the money is theirs unless `business` says whose it is.
    var user: UUID
    /// A withdrawal from this business's balance, asked by one of its owners.
    var business: UUID?
    package var amount: Int64
    package var currency: String
    var status: FundingStatus = .pending
    var cardBrand: String?
    var cardLast4: String?
    var gatewayId: String?
    var failureCode: String?
    /// A pending top-up's page on the processor's site, where the customer pays.
    var checkoutURL: String?
    package var createdAt: Date
    var updatedAt: Date

    static let columns = [
        "id", "user_id", "business_id", "amount", "currency", "status", "card_brand", "card_last4", "gateway_id",
        "failure_code", "checkout_url",
        "created_at", "updated_at",
    ]

    /// Whose balance the money leaves or reaches: the business's or the user's.
    var owner: (id: UUID, kind: LedgerAccountKind) { business.map { ($0, .business) } ?? (user, .user) }

    var values: [any SQLExpression] {
        [
            SQLBind(id), SQLBind(user), SQLBind(business), SQLBind(amount), SQLBind(currency), SQLBind(status.rawValue),
            SQLBind(cardBrand),
            SQLBind(cardLast4),
            SQLBind(gatewayId), SQLBind(failureCode), SQLBind(checkoutURL), SQLBind(createdAt), SQLBind(updatedAt),
        ]
    }

    var topUp: TopUp {
        TopUp(
            id: id,
            amount: amount,
            currency: currency,
            status: status,
            cardBrand: cardBrand ?? "card",
            cardLast4: cardLast4 ?? "",
            failureCode: status == .pending ? nil : failureCode,
            checkoutUrl: status == .pending ? checkoutURL : nil,
            createdAt: createdAt,
            updatedAt: updatedAt
        )
    }

    var withdrawal: Withdrawal {
        Withdrawal(
            id: id,
            amount: amount,
            currency: currency,
            status: status,
            failureCode: failureCode,
            createdAt: createdAt,
            updatedAt: updatedAt
        )
    }
}

extension FundingRecord {
    /// A top-up that already succeeded (demo data, imports), with the card it came from.
    package static func settledTopUp(
        user: UUID,
        amount: Int64,
        currency: String,
        cardBrand: String,
        cardLast4: String,
        at time: Date
    ) -> FundingRecord {
        FundingRecord(
            user: user,
            amount: amount,
            currency: currency,
            status: .succeeded,
            cardBrand: cardBrand,
            cardLast4: cardLast4,
            gatewayId: "external",
            createdAt: time,
            updatedAt: time
        )
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        user = try row.decode(column: "user_id", as: UUID.self)
        business = try row.decode(column: "business_id", as: UUID?.self)
        amount = try row.decode(column: "amount", as: Int64.self)
        currency = try row.decode(column: "currency", as: String.self)
        status = FundingStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .pending
        cardBrand = try row.decode(column: "card_brand", as: String?.self)
        cardLast4 = try row.decode(column: "card_last4", as: String?.self)
        gatewayId = try row.decode(column: "gateway_id", as: String?.self)
        failureCode = try row.decode(column: "failure_code", as: String?.self)
        checkoutURL = try row.decode(column: "checkout_url", as: String?.self)
        createdAt = try row.decode(column: "created_at", as: Date.self)
        updatedAt = try row.decode(column: "updated_at", as: Date.self)
    }
}

/// All SQL of top-ups and withdrawals.
package struct FundingStore: Sendable {
    package func insert(
        _ record: FundingRecord,
        _ direction: FundingRecord.Direction,
        on db: any SQLDatabase
    ) async throws {
        try await db.insert(into: direction.rawValue).columns(FundingRecord.columns).values(record.values).run()
    }

    func find(_ id: UUID, _ direction: FundingRecord.Direction, on db: any SQLDatabase) async throws -> FundingRecord? {
        try await db.select().columns(FundingRecord.columns.map { SQLIdentifier($0) }).from(direction.rawValue).where(
            "id",
            .equal,
            id
        ).first()
            .map(FundingRecord.init(row:))
    }

    /// What `owner` (a user, or a business with `business`) moved this way since `since`, failed attempts aside.
    func total(
        _ direction: FundingRecord.Direction,
        owner: UUID,
        business: Bool,
        currency: String,
        since: Date,
        on db: any SQLDatabase
    ) async throws
        -> Int64
    {
        // SUM of a BIGINT is NUMERIC on PostgreSQL: cast back so both engines answer an integer.
        var query = db.select().column(SQLRaw("CAST(COALESCE(SUM(amount), 0) AS BIGINT)"), as: "total")
            .from(direction.rawValue).where("currency", .equal, currency).where(
                "created_at",
                .greaterThanOrEqual,
                since
            )
            .where("status", .notEqual, FundingStatus.failed.rawValue)
        query =
            business
            ? query.where("business_id", .equal, owner)
            : query.where("user_id", .equal, owner).where("business_id", .is, SQLLiteral.null)
        return try await query.first()?.decode(column: "total", as: Int64.self) ?? 0
    }

    /// Top-ups and withdrawals of `owner` (a user's own, or a business's) the processor has not settled yet: their
    /// money may still arrive or come back.
    func pendingCount(owner: UUID, business: Bool, on db: any SQLDatabase) async throws -> Int {
        var count = 0
        for direction in [FundingRecord.Direction.topUp, .withdrawal] {
            var query = db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(direction.rawValue)
                .where("status", .equal, FundingStatus.pending.rawValue)
            query =
                business
                ? query.where("business_id", .equal, owner)
                : query.where("user_id", .equal, owner).where("business_id", .is, SQLLiteral.null)
            count += try await query.first()?.decode(column: "n", as: Int.self) ?? 0
        }
        return count
    }

    func setGatewayId(
        _ gatewayId: String,
        for id: UUID,
        _ direction: FundingRecord.Direction,
        on db: any SQLDatabase
    ) async throws {
        try await db.update(direction.rawValue).set("gateway_id", to: gatewayId).where("id", .equal, id).run()
    }

    /// Keeps why a card was refused on the processor's page while the top-up stays open (the customer may try
    /// another card); if they give up, the top-up fails with this reason.
    func noteAttemptFailure(_ id: UUID, code: String, on db: any SQLDatabase) async throws {
        try await db.update("top_ups").set("failure_code", to: code).where("id", .equal, id).where(
            "status",
            .equal,
            FundingStatus.pending.rawValue
        )
        .run()
    }

    /// Moves a pending record to its outcome; `nil` when it was no longer pending (a repeated webhook). With
    /// `overruling`, a record the sweeper gave up on (`processing_error`) succeeds after all: the money did arrive.
    /// A failure without its own code keeps the one noted on the way (`noteAttemptFailure`), else `fallbackCode`.
    func settle(
        _ id: UUID,
        _ direction: FundingRecord.Direction,
        status: FundingStatus,
        failureCode: String?,
        fallbackCode: String? = nil,
        overruling: Bool = false,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> FundingRecord? {
        let code: any SQLExpression =
            switch (status, failureCode) {
            case (.succeeded, _): SQLLiteral.null
            case (_, let code?): SQLBind(code)
            case (_, nil): SQLFunction("COALESCE", args: SQLColumn("failure_code"), SQLBind(fallbackCode))
            }
        return try await db.update(direction.rawValue).set("status", to: status.rawValue).set(
            SQLColumn("failure_code"),
            to: code
        )
        .set("updated_at", to: now)
        .where("id", .equal, id)
        .where { group in
            let pending = group.where("status", .equal, FundingStatus.pending.rawValue)
            guard overruling else { return pending }
            return pending.orWhere {
                $0.where("status", .equal, FundingStatus.failed.rawValue).where(
                    "failure_code",
                    .equal,
                    WalletService.processingError
                )
            }
        }
        .returning(FundingRecord.columns.map { SQLIdentifier($0) }).first().map(FundingRecord.init(row:))
    }

    /// Top-ups still waiting for the processor, per currency.
    func pendingTopUps(user: UUID, on db: any SQLDatabase) async throws -> [String: Int64] {
        let rows = try await db.select().column("currency").column(SQLRaw("CAST(SUM(amount) AS BIGINT)"), as: "total")
            .from("top_ups")
            .where("user_id", .equal, user).where("status", .equal, FundingStatus.pending.rawValue).groupBy("currency")
            .all()
        return Dictionary(
            uniqueKeysWithValues: try rows.map {
                (try $0.decode(column: "currency", as: String.self), try $0.decode(column: "total", as: Int64.self))
            }
        )
    }

    /// Pending hosted-page top-ups created before `createdBefore` and not asked about since `askedBefore`, marked as
    /// asked now (`updated_at`), so that each process asks about each one at most once in a while.
    func overdueHosted(
        createdBefore: Date,
        askedBefore: Date,
        limit: Int,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [FundingRecord] {
        let ids = try await db.select().column("id").from("top_ups").where(
            "status",
            .equal,
            FundingStatus.pending.rawValue
        )
        .where("checkout_url", .isNot, SQLLiteral.null).where("created_at", .lessThan, createdBefore).where(
            "updated_at",
            .lessThan,
            askedBefore
        )
        .orderBy("created_at").limit(limit).all().map { try $0.decode(column: "id", as: UUID.self) }
        guard !ids.isEmpty else { return [] }
        return try await db.update("top_ups").set("updated_at", to: now).where("id", .in, ids).where(
            "updated_at",
            .lessThan,
            askedBefore
        )
        .returning(FundingRecord.columns.map { SQLIdentifier($0) }).all().map(FundingRecord.init(row:))
    }

    /// Pending records the processor never heard of (the process stopped between recording and asking), oldest first.
    func unsent(
        _ direction: FundingRecord.Direction,
        before cutoff: Date,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [FundingRecord] {
        try await db.select().columns(FundingRecord.columns.map { SQLIdentifier($0) }).from(direction.rawValue)
            .where("status", .equal, FundingStatus.pending.rawValue).where("gateway_id", .is, SQLLiteral.null).where(
                "created_at",
                .lessThan,
                cutoff
            )
            .orderBy("created_at").limit(limit).all().map(FundingRecord.init(row:))
    }
}

/// A user's payout account with the processor (a Stripe Connect account), where their withdrawals go.
struct PayoutAccountRecord: Sendable {
    var user: UUID
    var accountId: String
    var ready: Bool
}

/// All SQL of payout accounts.
struct PayoutAccountStore: Sendable {
    func find(user: UUID, on db: any SQLDatabase) async throws -> PayoutAccountRecord? {
        try await db.select().columns("user_id", "account_id", "ready").from("payout_accounts").where(
            "user_id",
            .equal,
            user
        ).first().map {
            PayoutAccountRecord(
                user: try $0.decode(column: "user_id", as: UUID.self),
                accountId: try $0.decode(column: "account_id", as: String.self),
                ready: try $0.decode(column: "ready", as: Bool.self)
            )
        }
    }

    /// Records the account opened for `user` (the same one again when asked twice).
    func insert(user: UUID, accountId: String, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "payout_accounts").columns(
            "user_id",
            "account_id",
            "ready",
            "created_at",
            "updated_at"
        )
        .values(SQLBind(user), SQLBind(accountId), SQLBind(false), SQLBind(now), SQLBind(now))
        .ignoringConflicts(with: ["user_id"]).run()
    }

    func setReady(accountId: String, _ ready: Bool, now: Date, on db: any SQLDatabase) async throws {
        try await db.update("payout_accounts").set("ready", to: ready).set("updated_at", to: now).where(
            "account_id",
            .equal,
            accountId
        ).run()
    }
}
