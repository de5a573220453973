import Foundation
import HTTPTypes
import PlazaCore
import PlazaMedia
import SQLKit

/// The cart: prints of a design on a paper at a quantity, or one sample; priced by the paper's tiers, with the credit
/// of samples bought earlier and the operator's shipping and tax.
extension CardsService {
    func cart(_ identity: Identity) async throws -> CardCart {
        let lines = try await cartLines(identity)
        let credits = try await store.sampleCredits(owner: identity.user.id, on: database.sql)
        return try cart(lines, credits: credits)
    }

    /// A sample straight from a template: a design of it as it comes, and one printed card of that on `paper`.
    func sampleOfTemplate(
        _ identity: Identity,
        _ template: UUID,
        colour: String?,
        paper: UUID,
        now: Date = Date()
    ) async throws -> CardCartItem {
        let offered = try await store.papers(of: [template], on: database.sql)[template] ?? []
        guard offered.contains(where: { $0.id == paper }) else {
            throw PlazaError.validation(
                field: "paperId",
                say(
                    "This card is printed on {papers}: pick one of them.",
                    ["papers": offered.map(\.name).joined(separator: ", ")]
                )
            )
        }
        let design = try await createDesign(identity, CardDesignRequest(templateId: template, colour: colour), now: now)
        return try await addToCart(
            identity,
            CardCartItemRequest(designId: design.id, paperId: paper, kind: .sample),
            now: now
        )
    }

    func addToCart(
        _ identity: Identity,
        _ request: CardCartItemRequest,
        now: Date = Date()
    ) async throws -> CardCartItem {
        let design = try await own(identity, request.designId)
        let view = try await view(design)
        guard CardPreflight.orderable(view.findings) else { throw Self.preflightError(view.findings) }
        let papers = try await store.papers(of: [design.templateId], on: database.sql)[design.templateId] ?? []
        guard let paper = papers.first(where: { $0.id == request.paperId }) else {
            throw PlazaError.validation(
                field: "paperId",
                say(
                    "This card is printed on {papers}: pick one of them.",
                    ["papers": papers.map(\.name).joined(separator: ", ")]
                )
            )
        }
        let kind = request.kind ?? .print
        let quantity = kind == .sample ? 1 : request.quantity ?? 0
        guard CardRules.quantities.contains(quantity) else {
            throw PlazaError.validation(
                field: "quantity",
                say("Order 1 to {max} cards.", ["max": String(CardRules.quantities.upperBound)])
            )
        }
        let record = CardsStore.CartRecord(
            id: UUID(),
            designId: design.id,
            paperId: paper.id,
            kind: kind,
            quantity: quantity
        )
        let line = Self.line(record, design: design, paper: paper)
        // The line, and the cart with it, must stay within Plaza's maximum (prices are bounded; quantities times them
        // and sums of lines need not be).
        let lines = try await cartLines(identity)
        if case .failure = CardOrderRules.totals(
            (lines.map(\.line) + [line]).map {
                CardOrderRules.Line(kind: $0.kind, templateId: design.templateId, amount: $0.amount)
            },
            credits: [:],
            shipping: settings.shipping,
            taxBasisPoints: settings.taxBasisPoints
        ) {
            throw PlazaError.validation([AmountBounds.tooLarge(field: "quantity")])
        }
        try await store.addToCart(record, owner: identity.user.id, now: now, on: database.sql)
        return line
    }

    /// A print line's new quantity, priced again by its paper's tiers; a sample stays one card.
    func changeQuantity(_ identity: Identity, _ id: UUID, _ request: CardCartItemChange) async throws -> CardCartItem {
        let lines = try await cartLines(identity)
        guard let at = lines.firstIndex(where: { $0.line.id == id }) else { throw PlazaError.notFound("cart item") }
        let current = lines[at].line
        guard current.kind == .print else {
            throw PlazaError.validation(field: "quantity", phrase("A sample is one card: add prints to order more."))
        }
        guard CardRules.quantities.contains(request.quantity) else {
            throw PlazaError.validation(
                field: "quantity",
                say("Order 1 to {max} cards.", ["max": String(CardRules.quantities.upperBound)])
            )
        }
        let papers = try await store.papers(on: database.sql)
        guard let paper = papers.first(where: { $0.id == current.paperId }) else {
            throw PlazaError.notFound("cart item")
        }
        let record = CardsStore.CartRecord(
            id: id,
            designId: current.designId,
            paperId: current.paperId,
            kind: .print,
            quantity: request.quantity
        )
        let line = Self.line(record, design: lines[at].design, paper: paper)
        var changed = lines
        changed[at].line = line
        // Like adding: the cart must stay within Plaza's maximum.
        do { _ = try cart(changed, credits: [:]) } catch {
            throw PlazaError.validation([AmountBounds.tooLarge(field: "quantity")])
        }
        guard
            try await store.setCartQuantity(id, owner: identity.user.id, quantity: request.quantity, on: database.sql)
        else { throw PlazaError.notFound("cart item") }
        return line
    }

    func removeFromCart(_ identity: Identity, _ id: UUID) async throws {
        guard try await store.removeFromCart(id, owner: identity.user.id, on: database.sql) else {
            throw PlazaError.notFound("cart item")
        }
    }

    // MARK: Helpers

    /// The cart's lines with their design and paper (a line whose design or paper went is dropped).
    func cartLines(_ identity: Identity) async throws -> [(line: CardCartItem, design: CardsStore.DesignRecord)] {
        let records = try await store.cart(owner: identity.user.id, on: database.sql)
        let papers = try await store.papers(on: database.sql)
        var lines: [(CardCartItem, CardsStore.DesignRecord)] = []
        for record in records {
            guard let design = try await store.design(record.designId, on: database.sql),
                let paper = papers.first(where: { $0.id == record.paperId })
            else { continue }
            lines.append((Self.line(record, design: design, paper: paper), design))
        }
        return lines
    }

    /// The cart's sums; 422 `amount_too_large` naming the line whose quantity takes them past Plaza's maximum.
    func cart(
        _ lines: [(line: CardCartItem, design: CardsStore.DesignRecord)],
        credits: [UUID: Int64]
    ) throws -> CardCart {
        let totals = CardOrderRules.totals(
            lines.map {
                CardOrderRules.Line(kind: $0.line.kind, templateId: $0.design.templateId, amount: $0.line.amount)
            },
            credits: credits,
            shipping: settings.shipping,
            taxBasisPoints: settings.taxBasisPoints
        )
        let sums: CardOrderRules.Totals
        switch totals {
        case .success(let totals): sums = totals
        case .failure(let tooLarge):
            throw PlazaError.validation([
                AmountBounds.tooLarge(field: tooLarge.line.map { "items.\($0).quantity" } ?? "items")
            ])
        }
        return CardCart(
            items: lines.map(\.line),
            subtotal: sums.subtotal,
            credit: sums.credit,
            shipping: sums.shipping,
            tax: sums.tax,
            total: sums.total,
            currency: currency
        )
    }

    static func line(
        _ record: CardsStore.CartRecord,
        design: CardsStore.DesignRecord,
        paper: CardPaperType
    ) -> CardCartItem {
        let unit =
            record.kind == .sample
            ? paper.sampleAmount : CardRules.unitAmount(paper.tiers, quantity: record.quantity) ?? 0
        return CardCartItem(
            id: record.id,
            kind: record.kind,
            designId: design.id,
            designName: design.name,
            paperId: paper.id,
            paperName: paper.name,
            quantity: record.quantity,
            unitAmount: unit,
            amount: CardRules.lineAmount(unit, quantity: record.quantity),
            previewUrl: "/v1/cards/designs/\(design.id.uuidString.lowercased())/preview.svg"
        )
    }

    static func preflightError(_ findings: [CardFinding]) -> PlazaError {
        PlazaError(
            .unprocessableContent,
            .preflightFailed,
            phrase("This design would not print well yet."),
            detail: findings.filter { $0.severity == .error }.map(\.message).joined(separator: " ")
        )
    }
}
