import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import PlazaCore

/// The card shop's catalogue and designs in `openapi.yaml`: `/v1/cards/categories`, `/v1/cards/templates*` and the
/// fonts and art they draw with (anyone; drafts to their designer), `/v1/cards/designs*` (signed in, the owner's alone),
/// the designers' `/v1/cards/art` and template routes, and the admins' `/v1/admin/cards/*`.
struct CardsAPI: Sendable {
    let cards: CardsService
    let maxBody: Int

    func addRoutes(to v1: RouterGroup<AppRequestContext>, signedIn: SignedInRoutes) {
        let authenticated = signedIn.plain
        v1.get("cards/categories", use: categories)
        v1.get("cards/papers", use: papers)
        v1.get("cards/templates", use: templates)
        v1.get("cards/templates/:id", use: template)
        v1.get("cards/templates/:id/preview.svg", use: templatePreview)
        v1.get("cards/fonts/:id", use: font)
        v1.get("cards/art/:id", use: art)
        authenticated.post("cards/designs", use: createDesign)
        authenticated.get("cards/designs", use: designs)
        authenticated.get("cards/designs/:id", use: design)
        authenticated.patch("cards/designs/:id", use: updateDesign)
        authenticated.delete("cards/designs/:id", use: deleteDesign)
        authenticated.post("cards/designs/:id/duplicate", use: duplicateDesign)
        authenticated.get("cards/designs/:id/preview.svg", use: designPreview)
        authenticated.get("cards/designs/:id/layout", use: designLayout)
        authenticated.get("cards/designs/:id/print.pdf", use: designPrint)
        authenticated.post("cards/art", use: uploadArt)
        authenticated.post("cards/templates", use: createTemplate)
        authenticated.patch("cards/templates/:id", use: updateTemplate)
        authenticated.post("cards/templates/:id/submit", use: submitTemplate)
        authenticated.get("cards/me/templates", use: studio)
        authenticated.get("cards/me/sales", use: sales)
        authenticated.get("cards/cart", use: cart)
        authenticated.post("cards/cart/items", use: addToCart)
        authenticated.patch("cards/cart/items/:id", use: changeQuantity)
        authenticated.delete("cards/cart/items/:id", use: removeFromCart)
        authenticated.get("cards/orders", use: orders)
        authenticated.get("cards/orders/:id", use: order)
        // An order keeps its answer with its rows; paying, cancelling and re-approving with their money or proof.
        signedIn.money(.recordedWithWork).post("cards/orders", use: createOrder).post("cards/orders/:id/pay", use: pay)
            .post("cards/orders/:id/cancel", use: cancel).post("cards/orders/:id/proofs", use: reapprove)
        let admin = authenticated.group("admin/cards").add(middleware: AdminOnly())
        admin.get("orders", use: adminOrders)
        admin.get("orders/:id", use: adminOrder)
        admin.post("orders/:id/send-to-production", use: sendToProduction)
        admin.post("orders/:id/ship", use: ship)
        admin.post("orders/:id/cancel", use: adminCancel)
        admin.get("orders/:id/items/:item/print.pdf", use: productionFile)
        admin.post("categories", use: addCategory)
        admin.patch("categories/:id", use: updateCategory)
        admin.post("papers", use: addPaper)
        admin.put("papers/:id", use: savePaper)
    }

    // MARK: Anyone

    @Sendable func categories(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(Page(items: try await cards.categories(), nextCursor: nil))
    }

    @Sendable func papers(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(Page(items: try await cards.papers(), nextCursor: nil))
    }

    @Sendable func templates(_ request: Request, context: AppRequestContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await cards.catalogue(try Self.query(request.uri), limit: paging.limit, cursor: paging.cursor)
        )
    }

    @Sendable func template(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(
            try await cards.template(try Query.id(context.parameters, "id", "template"), viewer: context.identity)
        )
    }

    @Sendable func templatePreview(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let svg = try await cards.templatePreview(
            try Query.id(context.parameters, "id", "template"),
            viewer: context.identity,
            colour: query.get("colour"),
            page: try Self.page(request.uri)
        )
        return Self.svg(svg, cache: "public, max-age=300")
    }

    @Sendable func font(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), let data = cards.fonts.files[id] else {
            throw PlazaError.notFound("font")
        }
        var headers = HTTPFields()
        headers[.contentType] = "font/ttf"
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        headers[HTTPField.Name("Access-Control-Allow-Origin")!] = "*"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    @Sendable func art(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await Self.art(
            request,
            id: try Query.id(context.parameters, "id", "art"),
            viewer: context.identity,
            cards: cards
        )
    }

    /// Art as `/v1/cards/art/{id}` (bearer) and the pages' `/cards/art/{id}` (session) serve it: public art cached by
    /// anyone for a year, a draft's only by its viewer's browser.
    static func art(_ request: Request, id: UUID, viewer: Identity?, cards: CardsService) async throws -> Response {
        let file = try await cards.artFile(id, viewer: viewer)
        let etag = "\"\(file.digest.prefix(32))\""
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = file.isPublic ? "public, max-age=31536000, immutable" : "private, no-cache"
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = file.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    // MARK: Designs

    @Sendable func createDesign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardDesignRequest.self, limit: maxBody)
        return try .json(try await cards.createDesign(context.identity, body), status: .created)
    }

    @Sendable func designs(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(try await cards.designs(context.identity, limit: paging.limit, cursor: paging.cursor))
    }

    @Sendable func design(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await cards.design(context.identity, try Query.id(context.parameters, "id", "design")))
    }

    @Sendable func updateDesign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardDesignRequest.self, limit: maxBody)
        return try .json(
            try await cards.updateDesign(context.identity, try Query.id(context.parameters, "id", "design"), body)
        )
    }

    @Sendable func deleteDesign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await cards.deleteDesign(context.identity, try Query.id(context.parameters, "id", "design"))
        return Response(status: .noContent)
    }

    @Sendable func duplicateDesign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await cards.duplicateDesign(context.identity, try Query.id(context.parameters, "id", "design")),
            status: .created
        )
    }

    @Sendable func designPreview(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let guides = request.uri.queryParameters.get("guides") == "1"
        let svg = try await cards.designPreview(
            context.identity,
            try Query.id(context.parameters, "id", "design"),
            page: try Self.page(request.uri),
            guides: guides
        )
        return Self.svg(svg, cache: "private, no-cache")
    }

    @Sendable func designLayout(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await cards.designLayout(context.identity, try Query.id(context.parameters, "id", "design")))
    }

    @Sendable func designPrint(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let pdf = try await cards.designPrint(context.identity, try Query.id(context.parameters, "id", "design"))
        var headers = HTTPFields()
        headers[.contentType] = "application/pdf"
        headers[.cacheControl] = "private, no-cache"
        headers[HTTPField.Name("Content-Disposition")!] = "inline; filename=\"card.pdf\""
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: pdf)))
    }

    // MARK: Designers

    @Sendable func uploadArt(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.body(upTo: CardsService.maximumArtBytes)
        let upload = try await cards.uploadArt(
            context.identity,
            Data(body.readableBytesView),
            contentType: request.headers[.contentType] ?? ""
        )
        return try .json(upload, status: .created)
    }

    @Sendable func createTemplate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try cards.requireDesigner(context.identity)
        let body = try await request.decodeJSON(as: CardTemplateRequest.self, limit: maxBody)
        return try .json(try await cards.createTemplate(context.identity, body), status: .created)
    }

    @Sendable func updateTemplate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try cards.requireDesigner(context.identity)
        let body = try await request.decodeJSON(as: CardTemplateRequest.self, limit: maxBody)
        return try .json(
            try await cards.updateTemplate(context.identity, try Query.id(context.parameters, "id", "template"), body)
        )
    }

    @Sendable func submitTemplate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await cards.submitTemplate(context.identity, try Query.id(context.parameters, "id", "template")))
    }

    @Sendable func studio(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await cards.studio(context.identity), nextCursor: nil))
    }

    @Sendable func sales(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await cards.sales(context.identity))
    }

    // MARK: Cart and orders

    @Sendable func cart(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await cards.cart(context.identity))
    }

    @Sendable func addToCart(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardCartItemRequest.self, limit: maxBody)
        return try .json(try await cards.addToCart(context.identity, body), status: .created)
    }

    @Sendable func changeQuantity(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardCartItemChange.self, limit: maxBody)
        return try .json(
            try await cards.changeQuantity(context.identity, try Query.id(context.parameters, "id", "cart item"), body)
        )
    }

    @Sendable func removeFromCart(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await cards.removeFromCart(context.identity, try Query.id(context.parameters, "id", "cart item"))
        return Response(status: .noContent)
    }

    @Sendable func createOrder(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardOrderRequest.self, limit: maxBody)
        return try .json(
            try await cards.createOrder(context.identity, body, claim: context.idempotencyClaim),
            status: .created
        )
    }

    @Sendable func pay(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardPaymentRequest.self, limit: maxBody)
        return try .json(
            try await cards.pay(
                context.identity,
                order: try Query.id(context.parameters, "id", "order"),
                body,
                claim: context.idempotencyClaim
            )
        )
    }

    @Sendable func cancel(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body =
            try await request.decodeJSONIfPresent(as: CardCancelRequest.self, limit: maxBody) ?? CardCancelRequest()
        return try .json(
            try await cards.cancel(
                context.identity,
                order: try Query.id(context.parameters, "id", "order"),
                body,
                claim: context.idempotencyClaim
            )
        )
    }

    @Sendable func reapprove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardProofApproval.self, limit: maxBody)
        return try .json(
            try await cards.reapprove(
                context.identity,
                order: try Query.id(context.parameters, "id", "order"),
                body,
                claim: context.idempotencyClaim
            )
        )
    }

    @Sendable func orders(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(try await cards.orders(context.identity, limit: paging.limit, cursor: paging.cursor))
    }

    @Sendable func order(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await cards.order(context.identity, try Query.id(context.parameters, "id", "order")))
    }

    // MARK: Admins

    @Sendable func adminOrders(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let status = try request.uri.queryParameters.get("status").flatMap { text -> CardOrderStatus? in
            guard !text.isEmpty else { return nil }
            guard let status = CardOrderStatus(rawValue: String(text)) else {
                throw PlazaError.validation(
                    field: "status",
                    phrase("Statuses are pending_payment, paid, in_production, shipped and cancelled.")
                )
            }
            return status
        }
        return try .json(try await cards.adminOrders(status: status, limit: paging.limit, cursor: paging.cursor))
    }

    @Sendable func adminOrder(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await cards.adminOrder(try Query.id(context.parameters, "id", "order")))
    }

    @Sendable func sendToProduction(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await cards.sendToProduction(try Query.id(context.parameters, "id", "order")))
    }

    @Sendable func ship(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await cards.ship(try Query.id(context.parameters, "id", "order")))
    }

    @Sendable func adminCancel(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CardCancelRequest.self, limit: maxBody)
        return try .json(
            try await cards.adminCancel(try Query.id(context.parameters, "id", "order"), reason: body.reason)
        )
    }

    @Sendable func productionFile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let pdf = try await cards.productionFile(
            order: try Query.id(context.parameters, "id", "order"),
            item: try Query.id(context.parameters, "item", "order item")
        )
        var headers = HTTPFields()
        headers[.contentType] = "application/pdf"
        headers[HTTPField.Name("Content-Disposition")!] = "attachment; filename=\"print.pdf\""
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: pdf)))
    }

    // MARK: Helpers

    /// The catalogue's filters; `lenient` (the pages' forms) reads an empty id as no filter, the API refuses it.
    static func query(_ uri: URI, lenient: Bool = false) throws -> CardsStore.CatalogueQuery {
        let query = uri.queryParameters
        let id = { (name: String) throws -> UUID? in
            guard let text = query.get(name), !(lenient && text.isEmpty) else { return nil }
            guard let id = UUID(uuidString: text) else {
                throw PlazaError.validation(field: name, phrase("This is not one of the catalogue's ids."))
            }
            return id
        }
        for (name, longest) in [("q", 200), ("colour", 80)] where (query.get(name)?.count ?? 0) > longest {
            throw PlazaError.validation(
                field: name,
                say("Use at most {max} characters.", ["max": String(longest)])
            )
        }
        return CardsStore.CatalogueQuery(
            category: try id("category"),
            subcategory: try id("subcategory"),
            words: query.get("q").map { String($0) },
            colour: query.get("colour").map { String($0) }
        )
    }

    static func page(_ uri: URI) throws -> CardPage {
        guard let text = uri.queryParameters.get("page"), !text.isEmpty else { return .front }
        guard let page = CardPage(rawValue: text) else {
            throw PlazaError.validation(field: "page", phrase("Pages are front, inside and back."))
        }
        return page
    }

    static func svg(_ text: String, cache: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "image/svg+xml; charset=utf-8"
        headers[.cacheControl] = cache
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
