import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import PlazaCore
import PlazaServer

/// The card shop of a chaos run: a paper and an approved template (seeded through the services, as the demo does), and
/// a design of it for every order's shopper (a person of their own, so that no two orders share a cart).
struct ChaosCards: Sendable {
    var paper: UUID
    /// The designs, by order number.
    var designs: [UUID]

    static let none = ChaosCards(paper: UUID(), designs: [])
    static let address = CardShippingAddress(
        name: "Sam Rivera",
        line1: "12 Elm Street",
        city: "Springfield",
        postalCode: "12345",
        country: "us"
    )
    static let art = Data(
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 133 183.8">\
        <rect x="0" y="0" width="133" height="183.8" fill="#f6efe6"/><circle cx="66.5" cy="40" r="20" fill="#c9a227"/></svg>
        """.utf8
    )

    /// The paper, the template (made by a designer, approved by an admin) and each shopper's design of it.
    static func seed(shoppers: [LedgerBenchData.User], services: PlazaServices) async throws -> ChaosCards {
        guard !shoppers.isEmpty else { return .none }
        let cards = services.cards
        let designer = try await person(services, "chaosdesigner", role: .designer)
        let admin = try await person(services, "chaosadmin", role: .admin)
        let category = try await cards.addCategory(CardCategoryRequest(name: "Chaos"))
        let paper = try await cards.savePaper(
            nil,
            CardPaperRequest(
                name: "Linen",
                description: "Textured, 300 gsm",
                sampleAmount: 200,
                tiers: [CardPriceTier(minQuantity: 1, unitAmount: 35)]
            )
        )
        let art = try await cards.uploadArt(designer, Self.art, contentType: "image/svg+xml").id
        let label = CardLabelSpec(
            id: "names",
            page: .front,
            text: "Ana & Ben",
            font: "serif",
            size: 20,
            colour: "#333333",
            x: 13.5,
            y: 70,
            width: 100,
            height: 25,
            maxLines: 1
        )
        let template = try await cards.createTemplate(
            designer,
            CardTemplateRequest(
                name: "Chaos Circle",
                categoryId: category.id,
                subcategoryId: nil,
                trim: CardTrim(widthMm: 127, heightMm: 177.8),
                pages: [.front],
                colours: [CardColourRequest(name: "Ivory", art: ["front": art])],
                labels: [label],
                paperTypeIds: [paper.id]
            )
        )
        _ = try await cards.submitTemplate(designer, template.id)
        let queue = try await services.admin.reviewQueue(state: .open, kind: .template, limit: 10, cursor: nil)
        for item in queue.items where item.subjectId == template.id {
            _ = try await services.admin.decide(admin, item.id, approve: true, reason: nil)
        }
        var designs: [UUID] = []
        for shopper in shoppers {
            let identity = try await person(services, shopper.username, role: nil)
            designs.append(try await cards.createDesign(identity, CardDesignRequest(templateId: template.id)).id)
        }
        return ChaosCards(paper: paper.id, designs: designs)
    }

    /// `username`, inserted with `role` when given, else found.
    static func person(_ services: PlazaServices, _ username: String, role: Role?) async throws -> Identity {
        if let role {
            let user = UserRecord(
                id: UUID(),
                email: "\(username)@bench.invalid",
                username: username,
                displayName: username,
                passwordHash: "",
                role: role,
                emailVerified: true,
                now: Date()
            )
            try await AccountStore().insert(user, on: services.database.sql)
        }
        guard let user = try await AccountStore().user(login: username, on: services.database.sql) else {
            throw ChaosFailure("no user \(username)")
        }
        return Identity(user: user, sessionID: UUID())
    }
}

/// One card order of the workload: its shopper puts their design in the cart, approves its print file and orders it
/// (set-up, each step retried until answered); then paying with one key (once, twice at once or again later), paying with
/// a second key, and cancelling race as `race` says.
struct ChaosOrder: Sendable {
    /// What races once the order is placed.
    enum Race: Sendable, CaseIterable {
        /// The first key against a cancel.
        case payOrCancel
        /// Two keys at once.
        case twoKeys
        /// Two keys and a cancel.
        case all

        var second: Bool { self != .payOrCancel }
        var cancels: Bool { self != .twoKeys }
    }

    var number: Int
    /// The shopper: a person of the run's own, after the market's people.
    var shopper: Int
    var quantity: Int
    var race: Race
    var payStyle: ChaosBench.Operation.Style
    var keys: [String]

    /// What the order's requests were answered. A status of 0: no answer even after every retry.
    struct Result: Sendable {
        var order: UUID?
        var setUpFailed: String?
        /// The answers to the first key, then the second's.
        var first: [Int] = []
        var second: [Int] = []
        var cancel: Int?
    }
}

extension ChaosRun {
    /// Places an order and runs its race.
    func order(_ order: ChaosOrder) async -> ChaosOrder.Result {
        var result = ChaosOrder.Result()
        let token = users[order.shopper].token
        let design = cards.designs[order.number]
        let added = await call(
            "/v1/cards/cart/items",
            token: token,
            body: Self.json(CardCartItemRequest(designId: design, paperId: cards.paper, quantity: order.quantity))
        )
        guard let added, added.status == 201 else {
            result.setUpFailed = "cart: \(ChaosReply.describe(added))"
            return result
        }
        // The shopper approves the print file as it is now: its SHA-256.
        let pdf = await call("/v1/cards/designs/\(design)/print.pdf", method: .GET, token: token)
        guard let pdf, pdf.status == 200 else {
            result.setUpFailed = "print.pdf: \(pdf?.status ?? 0)"
            return result
        }
        let sha = SHA256.hash(data: Data(pdf.body.readableBytesView)).map { String(format: "%02x", $0) }.joined()
        let request = CardOrderRequest(
            shippingAddress: ChaosCards.address,
            proofs: [CardProofApproval(designId: design, sha256: sha)]
        )
        let placed = await call("/v1/cards/orders", token: token, key: order.keys[0], body: Self.json(request))
        guard let placed, placed.status == 201, let made = Self.decode(CardOrder.self, placed) else {
            result.setUpFailed = "order: \(ChaosReply.describe(placed))"
            return result
        }
        result.order = made.id
        let body = Self.json(CardPaymentRequest(method: .wallet, amount: made.total, currency: made.currency))
        let pay = { @Sendable (key: String) in
            await self.call("/v1/cards/orders/\(made.id)/pay", token: token, key: key, body: body)?.status ?? 0
        }
        let cancelBody = Self.json(CardCancelRequest(reason: "Wrong date"))
        async let first = sent(order.payStyle) { await pay(order.keys[1]) }
        async let second = order.race.second ? [await pay(order.keys[2])] : []
        async let cancelled =
            order.race.cancels
            ? await call("/v1/cards/orders/\(made.id)/cancel", token: token, key: order.keys[3], body: cancelBody)?
                .status ?? 0 : nil
        (result.first, result.second, result.cancel) = await (first, second, cancelled)
        return result
    }
}
