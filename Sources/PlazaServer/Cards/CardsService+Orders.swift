import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import PlazaMedia
import SQLKit

/// Orders: the cart becomes an order pinned to the print files the shopper approved (their SHA-256), is paid once from
/// the wallet or by card, may be re-approved while paid, is locked at production, shipped, or cancelled and refunded.
extension CardsService {
    func createOrder(
        _ identity: Identity,
        _ request: CardOrderRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> CardOrder {
        guard let claim else { throw PlazaError.idempotencyKeyRequired }
        let lines = try await cartLines(identity)
        guard !lines.isEmpty else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("Your cart is empty."),
                detail: phrase("Add a design with its paper and quantity first.")
            )
        }
        let problems = CardOrderRules.problems(request.shippingAddress)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        // Each design's print file as it is now: its hash must be the one the shopper approved.
        var proofs: [UUID: (sha: String, pdf: Data, preview: String)] = [:]
        for design in Set(lines.map(\.design.id)) {
            guard let record = lines.first(where: { $0.design.id == design })?.design else { continue }
            let view = try await view(record)
            guard CardPreflight.orderable(view.findings) else { throw Self.preflightError(view.findings) }
            let pdf = try await printPDF(view)
            proofs[design] = (Self.sha256(pdf), pdf, try await preview(view, page: .front, guides: false, inline: true))
        }
        try Self.checkApprovals(request.proofs, against: proofs.mapValues(\.sha))
        let credits = try await store.sampleCredits(owner: identity.user.id, on: database.sql)
        let sums = try cart(lines, credits: credits)
        let order = CardsStore.OrderRecord(
            id: UUID(),
            ownerId: identity.user.id,
            status: .pendingPayment,
            shippingAddress: Self.trimmed(request.shippingAddress),
            subtotal: sums.subtotal,
            credit: sums.credit,
            shipping: sums.shipping,
            tax: sums.tax,
            total: sums.total,
            currency: currency,
            createdAt: now
        )
        let items = lines.map { line, design in
            CardsStore.OrderItemRecord(
                item: CardOrderItem(
                    id: UUID(),
                    kind: line.kind,
                    designId: design.id,
                    designName: design.name,
                    paperId: line.paperId,
                    paperName: line.paperName,
                    quantity: line.quantity,
                    unitAmount: line.unitAmount,
                    amount: line.amount,
                    proofSha256: proofs[design.id]?.sha ?? ""
                ),
                templateId: design.templateId
            )
        }
        let credited = Array(Set(items.filter { $0.item.kind == .print && sums.credit > 0 }.map(\.templateId)))
        let (store, idempotency, files) = (store, idempotency, proofs)
        let dto = Self.dto(order, items: items)
        try await database.transaction { db in
            try await store.insert(order, items: items, now: now, on: db)
            for proof in files.values {
                try await store.storeProof(proof.pdf, sha256: proof.sha, preview: proof.preview, now: now, on: db)
            }
            try await store.useSampleCredits(owner: identity.user.id, templates: credited, order: order.id, on: db)
            try await store.emptyCart(owner: identity.user.id, on: db)
            try await idempotency.record(dto, status: 201, claim: claim, on: db)
        }
        return dto
    }

    /// The front of an approved proof as the shopper saw it when approving (inline SVG), for the order's pages: the
    /// design may have changed since.
    func proofPreview(_ sha256: String) async throws -> String? {
        try await store.proofPreview(sha256, on: database.sql)
    }

    /// A paid order's design changed: the shopper approves its new print file (the hash of `print.pdf` now).
    func reapprove(
        _ identity: Identity,
        order id: UUID,
        _ approval: CardProofApproval,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws
        -> CardOrder
    {
        guard let claim else { throw PlazaError.idempotencyKeyRequired }
        let order = try await ownOrder(identity, id)
        guard [.pendingPayment, .paid].contains(order.status) else {
            throw Self.stateError(order, phrase("This order is at the printer."))
        }
        let items = try await store.items(of: [id], on: database.sql)[id] ?? []
        guard items.contains(where: { $0.item.designId == approval.designId }) else {
            throw PlazaError.notFound("design in this order")
        }
        let design = try await own(identity, approval.designId)
        let view = try await view(design)
        guard CardPreflight.orderable(view.findings) else { throw Self.preflightError(view.findings) }
        let pdf = try await printPDF(view)
        let sha = Self.sha256(pdf)
        try Self.checkApprovals([approval], against: [approval.designId: sha])
        let preview = try await preview(view, page: .front, guides: false, inline: true)
        let (store, idempotency) = (store, idempotency)
        return try await database.transaction { db in
            guard let current = try await store.order(id, forUpdate: true, on: db),
                [.pendingPayment, .paid].contains(current.status)
            else {
                throw Self.stateError(order, phrase("This order is at the printer."))
            }
            try await store.storeProof(pdf, sha256: sha, preview: preview, now: now, on: db)
            try await store.repin(order: id, design: approval.designId, sha256: sha, on: db)
            let dto = try await self.order(id, on: db)
            try await idempotency.record(dto, status: 200, claim: claim, on: db)
            return dto
        }
    }

    func orders(_ identity: Identity, limit: Int, cursor: String?) async throws -> Page<CardOrder> {
        try await orders(owner: identity.user.id, status: nil, limit: limit, cursor: cursor)
    }

    func order(_ identity: Identity, _ id: UUID) async throws -> CardOrder {
        let order = try await ownOrder(identity, id)
        return Self.dto(order, items: try await store.items(of: [id], on: database.sql)[id] ?? [])
    }

    // MARK: Admins

    func adminOrders(status: CardOrderStatus?, limit: Int, cursor: String?) async throws -> Page<CardOrder> {
        try await orders(owner: nil, status: status, limit: limit, cursor: cursor)
    }

    func adminOrder(_ id: UUID) async throws -> CardOrder {
        try await order(id, on: database.sql)
    }

    /// Paid → in production: its designs lock, and production prints the approved files.
    func sendToProduction(_ id: UUID, now: Date = Date()) async throws -> CardOrder {
        try await advance(id, from: .paid, to: .inProduction, now: now) { store, db in
            try await store.lockDesigns(of: id, on: db)
        }
    }

    func ship(_ id: UUID, now: Date = Date()) async throws -> CardOrder {
        try await advance(id, from: .inProduction, to: .shipped, set: [("shipped_at", SQLBind(now))], now: now) {
            _,
            _ in
        }
    }

    /// The stored print file of an order's line: the one whose hash the line holds, never the design as it is now.
    func productionFile(order id: UUID, item: UUID) async throws -> Data {
        guard let line = try await store.items(of: [id], on: database.sql)[id]?.first(where: { $0.item.id == item }),
            let pdf = try await store.proof(line.item.proofSha256, on: database.sql)
        else { throw PlazaError.notFound("print file") }
        return pdf
    }

    /// An account with an order paid or at the printer stays until it ships (or is cancelled).
    static func requireNoOpenOrder(_ user: UUID, on db: any SQLDatabase) async throws {
        guard try await !CardsStore.hasOpenOrder(user, on: db) else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("A card order of yours is being made."),
                detail: phrase("Delete your account once it has shipped, or cancel it first (Cards → Orders).")
            )
        }
    }

    // MARK: Helpers

    private func advance(
        _ id: UUID,
        from: CardOrderStatus,
        to: CardOrderStatus,
        set: [(String, any SQLExpression)] = [],
        now: Date,
        also: @escaping @Sendable (CardsStore, any SQLDatabase) async throws -> Void
    ) async throws -> CardOrder {
        guard let order = try await store.order(id, on: database.sql) else { throw PlazaError.notFound("order") }
        let store = store
        let email = try await AccountStore().user(id: order.ownerId, on: database.sql)?.email
        let moved = try await database.transaction { db -> CardOrder in
            guard try await store.move(order: id, from: [from], to: to, set: set, now: now, on: db) else {
                throw Self.stateError(order, order.status.nowSentence)
            }
            try await also(store, db)
            let dto = try await self.order(id, on: db)
            if to == .shipped, let email {
                let mail = try await self.shippedMail(dto, owner: order.ownerId, to: email, on: db)
                try await OutboxStore().enqueue(mail, on: db, now: now)
            }
            return dto
        }
        mailQueued()
        return moved
    }

    private func orders(
        owner: UUID?,
        status: CardOrderStatus?,
        limit: Int,
        cursor: String?
    ) async throws -> Page<CardOrder> {
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let records = try await store.orders(
            owner: owner,
            status: status,
            limit: limit + 1,
            offset: offset,
            on: database.sql
        )
        let page = Array(records.prefix(limit))
        let items = try await store.items(of: page.map(\.id), on: database.sql)
        return Page(
            items: page.map { Self.dto($0, items: items[$0.id] ?? []) },
            nextCursor: records.count > limit ? PlaceCursor.encode(offset: offset + limit) : nil
        )
    }

    func order(_ id: UUID, on db: any SQLDatabase) async throws -> CardOrder {
        guard let order = try await store.order(id, on: db) else { throw PlazaError.notFound("order") }
        return Self.dto(order, items: try await store.items(of: [id], on: db)[id] ?? [])
    }

    func ownOrder(_ identity: Identity, _ id: UUID) async throws -> CardsStore.OrderRecord {
        guard let order = try await store.order(id, on: database.sql), order.ownerId == identity.user.id else {
            throw PlazaError.notFound("order")
        }
        return order
    }

    func orderMoney(_ order: CardsStore.OrderRecord, on db: (any SQLDatabase)? = nil) async throws -> CardOrderMoney {
        let db = db ?? database.sql
        let items = try await store.items(of: [order.id], on: db)[order.id] ?? []
        // The title stays as the note of the shopper's wallet activity, which only they read: in their language.
        let words = try await recipientWords(order.ownerId, on: db)
        return CardOrderMoney(
            order: order.id,
            user: order.ownerId,
            amount: order.total,
            currency: order.currency,
            title: Self.describe(items.map(\.item), words: words, locale: words.locale)
        )
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    static func checkApprovals(_ approvals: [CardProofApproval], against current: [UUID: String]) throws {
        var errors: [FieldError] = []
        for (design, sha) in current {
            guard let approved = approvals.first(where: { $0.designId == design }) else {
                errors.append(
                    FieldError(field: "proofs", message: phrase("Approve the proof of every design in your cart."))
                )
                continue
            }
            if approved.sha256.lowercased() != sha {
                let index = approvals.firstIndex(where: { $0.designId == design }) ?? 0
                errors.append(
                    FieldError(
                        field: "proofs[\(index)].sha256",
                        message: phrase("The design changed since you approved its proof: look at it again.")
                    )
                )
            }
        }
        guard errors.isEmpty else {
            throw PlazaError(
                .unprocessableContent,
                .approvalMismatch,
                phrase("A proof is not the one you approved."),
                detail: phrase("Look at the proof again and approve it."),
                errors: errors
            )
        }
    }

    static func stateError(_ order: CardsStore.OrderRecord, _ title: String) -> PlazaError {
        var error = PlazaError(.conflict, .stateConflict, title, detail: order.status.stateSentence)
        error.currentState = order.status.rawValue
        return error
    }

    static func trimmed(_ address: CardShippingAddress) -> CardShippingAddress {
        CardShippingAddress(
            name: address.name.trimmingCharacters(in: .whitespaces),
            line1: address.line1.trimmingCharacters(in: .whitespaces),
            city: address.city.trimmingCharacters(in: .whitespaces),
            postalCode: address.postalCode.trimmingCharacters(in: .whitespaces),
            country: address.country.trimmingCharacters(in: .whitespaces).uppercased()
        )
    }
}
