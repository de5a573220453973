import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

extension WalletService {
    /// Whose history: the caller's own, or a business's for its owners and staff.
    func historyOwner(_ identity: Identity, business: UUID?) async throws -> UUID {
        guard let business else { return identity.user.id }
        _ = try await businesses.requireMember(identity, of: business)
        return business
    }

    /// Reads `?kind=transfer_in,charge&counterpart=<username or business id>&from=&until=` (dates or date-times).
    func activityFilter(
        _ kinds: String?,
        counterpart: String?,
        from: String?,
        until: String?
    ) async throws -> ActivityFilter {
        var filter = ActivityFilter()
        var validator = Validator()
        for text in (kinds ?? "").split(separator: ",") {
            if let kind = ActivityKind(rawValue: String(text)) {
                filter.kinds.append(kind)
            } else {
                validator.check(false, "kind", "Use \(ActivityKind.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
        }
        if let counterpart, !counterpart.isEmpty {
            if let id = UUID(uuidString: counterpart) {
                filter.counterpart = id
            } else {
                let username = AccountRules.normalizedUsername(counterpart)
                // An unknown name simply matches nothing.
                let known =
                    AccountRules.usernameProblem(username) == nil
                    ? try await accounts.user(login: username, on: database.sql) : nil
                filter.counterpart = known?.id ?? UUID()
            }
        }
        for (field, text) in [("from", from), ("until", until)] {
            guard let text, !text.isEmpty else { continue }
            let date = PlazaJSON.parseDate(text) ?? PlazaJSON.parseDate(text + "T00:00:00Z")
            validator.check(date != nil, field, "Use a date (2026-11-23) or a date-time (2026-11-23T10:00:00Z).")
            if field == "from" { filter.from = date } else { filter.until = date }
        }
        guard validator.isValid else { throw PlazaError.validation(validator.errors) }
        return filter
    }

    /// As in the brief: without a cursor, limit or dates, the past week or the last 10 entries, whichever is fewer;
    /// `nextCursor` pages further back.
    func activity(
        owner: UUID,
        filter: ActivityFilter,
        limit: Int?,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<ActivityEntry> {
        let after = try cursor.map { try RowCursor.decode($0).id }
        let recentOnly = limit == nil && after == nil && filter.from == nil && filter.until == nil
        let pageSize = recentOnly ? 10 : (limit ?? Paging.defaultLimit)
        let rows = try await activity.list(
            owner: owner,
            filter: filter,
            limit: pageSize + 1,
            after: after == Self.startCursor ? nil : after,
            on: database.sql
        )
        var shown = Array(rows.prefix(pageSize))
        if recentOnly { shown = shown.filter { $0.createdAt >= now.addingTimeInterval(-7 * 86_400) } }
        let more = rows.count > shown.count
        let next = more ? RowCursor(id: shown.last?.id ?? Self.startCursor).encoded : nil
        return Page(items: shown.map(\.dto), nextCursor: next)
    }

    /// The cursor of "from the newest entry on", when the first page showed nothing (nothing in the past week).
    static let startCursor = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!

    /// Up to 10,000 entries, newest first, as CSV (amounts in major units).
    func activityCSV(owner: UUID, filter: ActivityFilter) async throws -> String {
        let rows = try await activity.list(owner: owner, filter: filter, limit: 10_000, after: nil, on: database.sql)
        return CSV.text(
            header: ["date", "kind", "status", "amount", "currency", "counterpart", "note", "reference"],
            rows: rows.map { row in
                let amount =
                    Money(amount: row.amount, currency: row.currency).description.split(separator: " ").first.map(
                        String.init
                    ) ?? ""
                return [
                    RFC3339.format(row.createdAt), row.kind.rawValue, row.status.rawValue, amount, row.currency,
                    CSV.guarded(
                        row.counterpart.username.map { "\(row.counterpart.name) (@\($0))" } ?? row.counterpart.name
                    ),
                    CSV.guarded(row.note ?? ""),
                    row.referenceId.uuidString.lowercased(),
                ]
            }
        )
    }

    /// A new pay code for the caller, replacing any earlier one.
    func newPayCode(_ identity: Identity, now: Date = Date()) async throws -> PayCode {
        try identity.requireVerified()
        let expiresAt = now.addingTimeInterval(WalletRules.payCodeLifetime)
        let user = identity.user.id
        for _ in 0..<5 {
            let code = String(format: "%08d", Int.random(in: 0..<100_000_000))
            let hash = secrets.hash("pay:\(code)")
            let stored = try await database.transaction { db in
                try await db.delete(from: "pay_codes").where("code_hash", .equal, hash)
                    .where { $0.where("used_at", .isNot, SQLLiteral.null).orWhere("expires_at", .lessThanOrEqual, now) }
                    .run()
                guard
                    try await db.select().column("user_id").from("pay_codes").where("code_hash", .equal, hash).first()
                        == nil
                else { return false }
                try await charges.insertPayCode(hash: hash, user: user, expiresAt: expiresAt, on: db)
                return true
            }
            if stored { return PayCode(code: code, qrPayload: "plaza:pay:\(code)", expiresAt: expiresAt) }
        }
        throw PlazaError(.serviceUnavailable, .unavailable, phrase("No pay code could be made; try again."))
    }

    func setBlocked(_ identity: Identity, business: UUID, blocked: Bool, now: Date = Date()) async throws {
        let user = identity.user.id
        try await database.transaction { db in
            guard try await businesses.store.business(id: business, roleOf: user, on: db) != nil else {
                throw PlazaError.notFound("business")
            }
            if blocked {
                try await charges.block(user: user, business: business, now: now, on: db)
            } else {
                try await charges.unblock(user: user, business: business, on: db)
            }
        }
    }

    func blocks(_ identity: Identity) async throws -> [ChargeBlock] {
        let rows = try await charges.blocks(user: identity.user.id, on: database.sql)
        let names = try await businesses.store.businesses(ids: rows.map(\.business), on: database.sql)
        return rows.map {
            ChargeBlock(
                business: Party(kind: .business, id: $0.business, name: names[$0.business]?.name ?? "Closed business"),
                createdAt: $0.since
            )
        }
    }

    /// The customer's charges (`business == nil`) or a business's, for its owners and staff.
    func listCharges(
        _ identity: Identity,
        business: UUID?,
        statuses: [ChargeStatus],
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws
        -> Page<Charge>
    {
        if let business { _ = try await businesses.requireMember(identity, of: business) }
        let after = try cursor.map { try RowCursor.decode($0).id }
        let rows = try await charges.list(
            customer: business == nil ? identity.user.id : nil,
            business: business,
            statuses: statuses,
            now: now,
            limit: limit + 1,
            after: after,
            on: database.sql
        )
        let items = try await withLoyalty(rows.prefix(limit).map { $0.dto(now: now) })
        return Page(
            items: business == nil ? try await withCoupons(items, customer: identity, now: now) : items,
            nextCursor: rows.count > limit ? rows.prefix(limit).last.map { RowCursor(id: $0.id).encoded } : nil
        )
    }

    /// Paid charges with what paying earned on loyalty programs and their refunds (each empty when none); absent
    /// before they are paid.
    func withLoyalty(_ charges: [Charge]) async throws -> [Charge] {
        let paid = charges.filter { $0.status == .approved || $0.status == .refunded }.map(\.id)
        guard !paid.isEmpty else { return charges }
        let earned = try await loyalty?.earned(charges: paid, on: database.sql) ?? [:]
        let refunded = charges.filter { $0.refundedAmount > 0 }.map(\.id)
        let refunds = try await self.charges.refunds(charges: refunded, on: database.sql)
        return charges.map { charge in
            var charge = charge
            if paid.contains(charge.id) {
                charge.loyalty = earned[charge.id] ?? []
                charge.refunds = refunds[charge.id] ?? []
            }
            return charge
        }
    }

    /// The charges of `identity` as their customer, the waiting ones with the coupons that could lower them (empty when
    /// none, or when one is on it); decided charges get none.
    func withCoupons(_ charges: [Charge], customer identity: Identity, now: Date = Date()) async throws -> [Charge] {
        var shown = charges
        for index in shown.indices where shown[index].status == .pending {
            let charge = shown[index]
            guard let coupons, charge.discount == nil, charge.business.kind == .business,
                let business = charge.business.id
            else {
                shown[index].eligibleCoupons = []
                continue
            }
            shown[index].eligibleCoupons = try await coupons.eligible(
                customer: identity.user.id,
                business: business,
                subtotal: charge.goods,
                now: now,
                on: database.sql
            )
        }
        return shown
    }

    /// One charge as its customer or the business's people see it.
    func chargeView(_ identity: Identity, id: UUID) async throws -> Charge {
        let record = try await charge(identity, id: id)
        let shown = try await withLoyalty([record.dto()])
        guard record.customerId == identity.user.id else { return shown[0] }
        return try await withCoupons(shown, customer: identity)[0]
    }

    /// One charge, for its customer or the business's people.
    func charge(_ identity: Identity, id: UUID) async throws -> ChargeRecord {
        guard let charge = try await charges.find(id, on: database.sql) else { throw PlazaError.notFound("charge") }
        if charge.customerId == identity.user.id || (charge.isPaymentRequest && charge.businessId == identity.user.id) {
            return charge
        }
        guard try await businesses.store.role(of: identity.user.id, in: charge.businessId, on: database.sql) != nil
        else {
            throw PlazaError.notFound("charge")
        }
        return charge
    }

    func receipt(_ identity: Identity, id: UUID) async throws -> Receipt {
        let charge = try await charge(identity, id: id)
        guard charge.status == .approved || charge.status == .refunded, let paidAt = charge.decidedAt else {
            throw PlazaError.notFound("receipt")
        }
        let dto = charge.dto()
        var shop: (address: String?, taxId: String?, tax: ReceiptTax?) = (nil, nil, nil)
        if !charge.isPaymentRequest,
            let business = try await businesses.store.businesses(ids: [charge.businessId], on: database.sql)[
                charge.businessId
            ]
        {
            let locations = try await businesses.store.locations(businesses: [business.id], on: database.sql)
            shop.address = locations.first?.address
            shop.taxId = business.taxId
            shop.tax = business.taxBasisPoints.map {
                ReceiptTax(
                    rate: Double($0) / 100,
                    amount: ReceiptTax.included(in: charge.goods.amount, basisPoints: $0)
                )
            }
        }
        return Receipt(
            chargeId: charge.id,
            reference: charge.reference,
            business: dto.business,
            customer: dto.customer,
            items: charge.items,
            amount: charge.amount,
            currency: charge.currency,
            refundedAmount: charge.refundedAmount,
            paidAt: paidAt,
            subtotal: dto.subtotal,
            discount: dto.discount,
            loyalty: try await withLoyalty([dto])[0].loyalty ?? [],
            refunds: try await charges.refunds(charges: [charge.id], on: database.sql)[charge.id] ?? [],
            tip: charge.tip,
            address: shop.address,
            taxId: shop.taxId,
            tax: shop.tax
        )
    }

    /// The business's approved charges per day in the operator's time zone, newest day first (refunds count on the day paid).
    func dailyTotals(_ identity: Identity, business: UUID, days: Int, now: Date = Date()) async throws -> [DailyTotal] {
        _ = try await businesses.requireMember(identity, of: business)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = places.configuration.timeZone
        let since = calendar.date(byAdding: .day, value: -(days - 1), to: calendar.startOfDay(for: now)) ?? now
        var totals: [String: DailyTotal] = [:]
        for charge in try await charges.settled(business: business, since: since, on: database.sql) {
            let day = calendar.dateComponents([.year, .month, .day], from: charge.decidedAt ?? charge.createdAt)
            let date = String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
            var total =
                totals["\(date) \(charge.currency)"]
                ?? DailyTotal(date: date, currency: charge.currency, charges: 0, charged: 0, refunded: 0, net: 0)
            total.charges += 1
            total.charged += charge.amount
            total.refunded += charge.refundedAmount
            total.net = total.charged - total.refunded
            totals["\(date) \(charge.currency)"] = total
        }
        return totals.values.sorted { ($0.date, $0.currency) > ($1.date, $1.currency) }
    }

    /// The people the caller last paid or was paid by, most recent first, each once.
    func contacts(_ identity: Identity, limit: Int = 8) async throws -> [Person] {
        var seen = Set<String>()
        return try await activity.recentPeople(owner: identity.user.id, limit: limit * 2, on: database.sql).compactMap {
            seen.insert($0.username).inserted ? Person(username: $0.username, displayName: $0.name) : nil
        }.prefix(limit).map { $0 }
    }

    /// One movement of the caller's history (or a business's, for its people) with what followed it (a charge's
    /// refunds), oldest first; 404 when there is no entry for `reference`.
    func movement(_ identity: Identity, reference: UUID, business: UUID? = nil) async throws -> [ActivityEntry] {
        let owner = try await historyOwner(identity, business: business)
        let entries = try await activity.entries(owner: owner, reference: reference, on: database.sql)
        guard !entries.isEmpty else { throw PlazaError.notFound("payment") }
        return entries.map(\.dto)
    }

    /// A page of the caller's history newer than the entry `cursor` names, newest first, and whether still newer ones exist.
    func newerActivity(owner: UUID, cursor: String, limit: Int) async throws -> (items: [ActivityEntry], more: Bool) {
        let before = try RowCursor.decode(cursor).id
        let rows = try await activity.listNewer(owner: owner, than: before, limit: limit + 1, on: database.sql)
        return (rows.prefix(limit).reversed().map(\.dto), rows.count > limit)
    }

    /// How many charges wait for the caller's answer, for the navigation's badge.
    func waitingCharges(_ identity: Identity, now: Date = Date()) async throws -> Int {
        try await charges.pendingCount(customer: identity.user.id, now: now, on: database.sql)
    }

    /// The balance (in the first currency) of each business the caller owns, for their withdrawals.
    func ownedBusinessBalances(_ identity: Identity) async throws -> [(business: Business, balance: Balance)] {
        var found: [(Business, Balance)] = []
        for business in try await businesses.myBusinesses(identity) where business.role == .owner {
            let balances = try await ledger.balances(owner: business.id, on: database.sql)
            let currency = configuration.currencies[0]
            found.append((business, Balance(currency: currency, available: balances[currency] ?? 0, pending: 0)))
        }
        return found
    }

    /// A business's balances, for its owners.
    func businessWallet(_ identity: Identity, business: UUID) async throws -> Wallet {
        _ = try await businesses.requireMember(identity, of: business, owner: true)
        let balances = try await ledger.balances(owner: business, on: database.sql)
        let currencies = Set(balances.keys).union([configuration.currencies[0]])
        return Wallet(
            balances: currencies.sorted().map { Balance(currency: $0, available: balances[$0] ?? 0, pending: 0) }
        )
    }
}
