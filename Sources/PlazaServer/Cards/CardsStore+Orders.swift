import Foundation
import PlazaCore
import SQLKit

/// Orders with their lines and the approved print files (the cart and sample credits: `CardsStore+Cart.swift`).
extension CardsStore {
    struct CartRecord: Sendable {
        var id: UUID
        var designId: UUID
        var paperId: UUID
        var kind: CardItemKind
        var quantity: Int
    }

    struct OrderRecord: Sendable {
        var id: UUID
        var ownerId: UUID
        var status: CardOrderStatus
        var shippingAddress: CardShippingAddress
        var subtotal: Int64
        var credit: Int64
        var shipping: Int64
        var tax: Int64
        var total: Int64
        var currency: String
        var paymentMethod: CardPaymentMethod?
        var paymentReference: UUID?
        var checkoutURL: String?
        var paymentProblem: String? = nil
        var cancelReason: String?
        var createdAt: Date
        var paidAt: Date?
        var shippedAt: Date?
    }

    struct OrderItemRecord: Sendable {
        var item: CardOrderItem
        var templateId: UUID
    }

    // MARK: Orders

    static let orderColumns = [
        "id", "owner_id", "status", "shipping_address", "subtotal", "credit", "shipping", "tax", "total", "currency",
        "payment_method",
        "payment_reference", "checkout_url", "cancel_reason", "created_at", "paid_at", "shipped_at",
    ]
    /// What reading an order takes: its inserted columns and what happens to it later.
    static let orderReadColumns = (orderColumns + ["payment_problem"]).map { SQLIdentifier($0) }

    func insert(_ order: OrderRecord, items: [OrderItemRecord], now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "card_orders").columns(Self.orderColumns + ["updated_at"])
            .values(
                SQLBind(order.id),
                SQLBind(order.ownerId),
                SQLBind(order.status.rawValue),
                SQLBind(try PlazaJSON.text(order.shippingAddress)),
                SQLBind(order.subtotal),
                SQLBind(order.credit),
                SQLBind(order.shipping),
                SQLBind(order.tax),
                SQLBind(order.total),
                SQLBind(order.currency),
                SQLBind(order.paymentMethod?.rawValue),
                SQLBind(order.paymentReference),
                SQLBind(order.checkoutURL),
                SQLBind(order.cancelReason),
                SQLBind(order.createdAt),
                SQLBind(order.paidAt),
                SQLBind(order.shippedAt),
                SQLBind(now)
            ).run()
        for record in items {
            let item = record.item
            try await db.insert(into: "card_order_items")
                .columns(
                    "id",
                    "order_id",
                    "design_id",
                    "template_id",
                    "design_name",
                    "paper_id",
                    "paper_name",
                    "kind",
                    "quantity",
                    "unit_amount",
                    "amount",
                    "proof_sha256"
                )
                .values(
                    SQLBind(item.id),
                    SQLBind(order.id),
                    SQLBind(item.designId),
                    SQLBind(record.templateId),
                    SQLBind(item.designName),
                    SQLBind(item.paperId),
                    SQLBind(item.paperName),
                    SQLBind(item.kind.rawValue),
                    SQLBind(item.quantity),
                    SQLBind(item.unitAmount),
                    SQLBind(item.amount),
                    SQLBind(item.proofSha256)
                ).run()
        }
    }

    func order(_ id: UUID, forUpdate: Bool = false, on db: any SQLDatabase) async throws -> OrderRecord? {
        var select = db.select().columns(Self.orderReadColumns).from("card_orders").where("id", .equal, id)
        if forUpdate, db.prepared != nil { select = select.for(.update) }
        return try await select.first().map(Self.order)
    }

    func order(paymentReference: UUID, on db: any SQLDatabase) async throws -> OrderRecord? {
        try await db.select().columns(Self.orderReadColumns).from("card_orders")
            .where("payment_reference", .equal, paymentReference).first().map(Self.order)
    }

    /// The owner's orders (nil: everyone's, for admins, optionally of one status), newest first.
    func orders(
        owner: UUID?,
        status: CardOrderStatus? = nil,
        limit: Int,
        offset: Int,
        on db: any SQLDatabase
    ) async throws -> [OrderRecord] {
        let select = db.select().columns(Self.orderReadColumns).from("card_orders")
        if let owner { select.where("owner_id", .equal, owner) }
        if let status { select.where("status", .equal, status.rawValue) }
        return try await select.orderBy("created_at", .descending).orderBy("id", .descending).limit(limit).offset(
            offset
        ).all().map(Self.order)
    }

    func items(of orders: [UUID], on db: any SQLDatabase) async throws -> [UUID: [OrderItemRecord]] {
        guard !orders.isEmpty else { return [:] }
        let rows = try await db.raw(
            """
            SELECT id, order_id, design_id, template_id, design_name, paper_id, paper_name, kind, quantity, unit_amount, amount, proof_sha256
            FROM card_order_items WHERE order_id IN \(SQLBind.group(orders)) ORDER BY kind, id
            """
        ).all()
        var result: [UUID: [OrderItemRecord]] = [:]
        for row in rows {
            let item = CardOrderItem(
                id: try row.decode(column: "id", as: UUID.self),
                kind: CardItemKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .print,
                designId: try row.decode(column: "design_id", as: UUID.self),
                designName: try row.decode(column: "design_name", as: String.self),
                paperId: try row.decode(column: "paper_id", as: UUID.self),
                paperName: try row.decode(column: "paper_name", as: String.self),
                quantity: try row.decode(column: "quantity", as: Int.self),
                unitAmount: try row.decode(column: "unit_amount", as: Int64.self),
                amount: try row.decode(column: "amount", as: Int64.self),
                proofSha256: try row.decode(column: "proof_sha256", as: String.self)
            )
            result[try row.decode(column: "order_id", as: UUID.self), default: []].append(
                OrderItemRecord(item: item, templateId: try row.decode(column: "template_id", as: UUID.self))
            )
        }
        return result
    }

    /// Moves the order from one of `from` to `to` (with what changes with it); false when it was in none of them.
    func move(
        order id: UUID,
        from: [CardOrderStatus],
        to: CardOrderStatus,
        set: [(String, any SQLExpression)] = [],
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        var update = db.update("card_orders").set("status", to: to.rawValue).set("updated_at", to: now)
        for (column, value) in set { update = update.set(SQLIdentifier(column), to: value) }
        return try await update.where("id", .equal, id).where("status", .in, from.map(\.rawValue)).returning("id").all()
            .count == 1
    }

    /// A paid order's design re-approved: its lines of that design now pin the new print file.
    func repin(order: UUID, design: UUID, sha256: String, on db: any SQLDatabase) async throws {
        try await db.update("card_order_items").set("proof_sha256", to: sha256).where("order_id", .equal, order).where(
            "design_id",
            .equal,
            design
        )
        .run()
    }

    /// Locks (or, for a cancelled order, keeps unlocked) the designs of an order going to production.
    func lockDesigns(of order: UUID, on db: any SQLDatabase) async throws {
        try await db.raw(
            "UPDATE card_designs SET locked = \(bind: true) WHERE id IN (SELECT design_id FROM card_order_items WHERE order_id = \(bind: order))"
        ).run()
    }

    /// Whether any order names the design (then it cannot be deleted).
    func designIsOrdered(_ design: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("card_order_items").where("design_id", .equal, design).limit(1).first()
            != nil
    }

    /// Whether the user has an order paid or at the printer (their account cannot be deleted then).
    static func hasOpenOrder(_ user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("card_orders").where("owner_id", .equal, user)
            .where("status", .in, [CardOrderStatus.paid.rawValue, CardOrderStatus.inProduction.rawValue]).limit(1)
            .first() != nil
    }

    /// The language the user chose for what Plaza writes them (nil: none chosen), for the order mails.
    func language(of user: UUID, on db: any SQLDatabase) async throws -> String? {
        try await db.select().column("language").from("users").where("id", .equal, user).first()?
            .decode(column: "language", as: String?.self)
    }

    // MARK: Proofs

    /// Keeps an approved print file with its front's preview; a file already kept is kept as it was.
    func storeProof(_ bytes: Data, sha256: String, preview: String, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "card_proofs").columns("sha256", "bytes", "preview_svg", "created_at")
            .values(SQLBind(sha256), SQLBind(bytes), SQLBind(preview), SQLBind(now)).ignoringConflicts(with: ["sha256"])
            .run()
    }

    func proofPreview(_ sha256: String, on db: any SQLDatabase) async throws -> String? {
        try await db.select().column("preview_svg").from("card_proofs").where("sha256", .equal, sha256).first()?
            .decode(column: "preview_svg", as: String?.self)
    }

    func proof(_ sha256: String, on db: any SQLDatabase) async throws -> Data? {
        try await db.select().column("bytes").from("card_proofs").where("sha256", .equal, sha256).first()?.decode(
            column: "bytes",
            as: Data.self
        )
    }

    static func order(_ row: any SQLRow) throws -> OrderRecord {
        OrderRecord(
            id: try row.decode(column: "id", as: UUID.self),
            ownerId: try row.decode(column: "owner_id", as: UUID.self),
            status: CardOrderStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .pendingPayment,
            shippingAddress: try PlazaJSON.value(
                CardShippingAddress.self,
                from: try row.decode(column: "shipping_address", as: String.self)
            ),
            subtotal: try row.decode(column: "subtotal", as: Int64.self),
            credit: try row.decode(column: "credit", as: Int64.self),
            shipping: try row.decode(column: "shipping", as: Int64.self),
            tax: try row.decode(column: "tax", as: Int64.self),
            total: try row.decode(column: "total", as: Int64.self),
            currency: try row.decode(column: "currency", as: String.self),
            paymentMethod: try row.decode(column: "payment_method", as: String?.self).flatMap(
                CardPaymentMethod.init(rawValue:)
            ),
            paymentReference: try row.decode(column: "payment_reference", as: UUID?.self),
            checkoutURL: try row.decode(column: "checkout_url", as: String?.self),
            paymentProblem: try row.decode(column: "payment_problem", as: String?.self),
            cancelReason: try row.decode(column: "cancel_reason", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            paidAt: try row.decode(column: "paid_at", as: Date?.self),
            shippedAt: try row.decode(column: "shipped_at", as: Date?.self)
        )
    }
}

// MARK: Designers' sales

extension CardsStore {
    /// The order statuses that count as sold: paid and onwards (a cancelled order is refunded).
    static let soldStatuses = ["paid", "in_production", "shipped"]

    /// Each of the designer's templates with what it sold per currency (a template without sales once, `currency`
    /// nil), the best-selling first.
    func templateSales(designer: UUID, on db: any SQLDatabase) async throws -> [CardTemplateSales] {
        let rows = try await db.raw(
            """
            SELECT t.id, t.name, t.state, o.currency, COUNT(DISTINCT o.id) AS orders,
            CAST(COALESCE(SUM(i.quantity), 0) AS BIGINT) AS units, CAST(COALESCE(SUM(i.amount), 0) AS BIGINT) AS revenue
            FROM card_templates t LEFT JOIN card_order_items i ON i.template_id = t.id
            AND i.order_id IN (SELECT id FROM card_orders WHERE status IN \(SQLBind.group(Self.soldStatuses)))
            LEFT JOIN card_orders o ON o.id = i.order_id
            WHERE t.designer_id = \(bind: designer) GROUP BY t.id, t.name, t.state, o.currency
            ORDER BY revenue DESC, t.name, t.id
            """
        ).all()
        return try rows.map { row in
            CardTemplateSales(
                templateId: try row.decode(column: "id", as: UUID.self),
                name: try row.decode(column: "name", as: String.self),
                state: CardTemplateState(rawValue: try row.decode(column: "state", as: String.self)) ?? .draft,
                orders: try row.decode(column: "orders", as: Int.self),
                units: try row.decode(column: "units", as: Int.self),
                revenue: try row.decode(column: "revenue", as: Int64.self),
                currency: try row.decode(column: "currency", as: String?.self) ?? ""
            )
        }
    }

    /// The designer's sales in all, per currency (an order with lines of two templates counts once).
    func salesTotals(designer: UUID, on db: any SQLDatabase) async throws -> [CardSalesTotal] {
        try await db.raw(
            """
            SELECT o.currency, COUNT(DISTINCT o.id) AS orders, CAST(SUM(i.quantity) AS BIGINT) AS units,
            CAST(SUM(i.amount) AS BIGINT) AS revenue
            FROM card_order_items i JOIN card_orders o ON o.id = i.order_id JOIN card_templates t ON t.id = i.template_id
            WHERE t.designer_id = \(bind: designer) AND o.status IN \(SQLBind.group(Self.soldStatuses))
            GROUP BY o.currency ORDER BY o.currency
            """
        ).all().map { row in
            CardSalesTotal(
                orders: try row.decode(column: "orders", as: Int.self),
                units: try row.decode(column: "units", as: Int.self),
                revenue: try row.decode(column: "revenue", as: Int64.self),
                currency: try row.decode(column: "currency", as: String.self)
            )
        }
    }
}
