import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaClient
import PlazaCore
import PlazaTestSupport
import Testing

/// The card shop from apps: a designer's template reaches the catalogue through the admins' review, and a shopper
/// personalizes it, approves its print file and pays for 25 cards from the wallet.
@Suite struct CardsClientTests {
    /// A 5×7 in page: ivory paper with a gold circle.
    static let art = Data(
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 133 183.8">\
        <rect x="0" y="0" width="133" height="183.8" fill="#f6efe6"/><circle cx="66.5" cy="40" r="20" fill="#c9a227"/></svg>
        """.utf8
    )

    static let labels = [
        CardLabelSpec(
            id: "names",
            page: .front,
            text: "Ana & Ben",
            font: "script",
            size: 28,
            colour: "#333333",
            x: 13.5,
            y: 70,
            width: 100,
            height: 25,
            maxLines: 2,
            required: true,
            editable: [.text, .font, .size, .colour],
            fonts: ["script", "serif"],
            minSize: 18,
            maxSize: 36
        ),
        CardLabelSpec(
            id: "message",
            page: .inside,
            text: "With love",
            font: "serif",
            size: 14,
            colour: "#333333",
            x: 13.5,
            y: 60,
            width: 100,
            height: 40
        ),
    ]

    /// A 40 × 30 red PNG: far too few pixels for a 60 mm photo slot.
    static let photo = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAACgAAAAeCAIAAADRv8uKAAAAK0lEQVR4nO3NMQ0AAAgDsMmZfxXIQgYcTfo3056IWCwWi8VisVgsFov/xguJMCDM2TzTeAAAAABJRU5ErkJggg=="
    )!

    static let address = CardShippingAddress(
        name: "Anna Rossi",
        line1: "12 Elm Street",
        city: "Springfield",
        postalCode: "12345",
        country: "US"
    )

    @Test(arguments: TestEngine.enabled)
    func aShopperOrdersCardsOfADesignersTemplateThroughTheSDK(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { _, anna, accounts in
            // The admin opens the shop: a category and a paper (no admin calls in the SDK: plain HTTP).
            let admin = try await accounts.login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
            let category = try await accounts.client.send(
                .post,
                "/v1/admin/cards/categories",
                json: CardCategoryRequest(name: "Wedding"),
                token: admin
            )
            #expect(category.status == .created, "\(category.text)")
            let wedding = try category.decode(CardCategory.self)
            let paper = CardPaperRequest(
                name: "Linen",
                description: "Textured, 300 gsm",
                sampleAmount: 200,
                tiers: [
                    CardPriceTier(minQuantity: 1, unitAmount: 350), CardPriceTier(minQuantity: 25, unitAmount: 250),
                ]
            )
            let linen = try await accounts.client.send(.post, "/v1/admin/cards/papers", json: paper, token: admin)
                .decode(CardPaperType.self)

            // Dana may upload art only once the admin made her a designer.
            try await accounts.register("dana")
            try await accounts.verify("dana")
            let dana = PlazaClient(baseURL: anna.baseURL)
            try await dana.login("dana", password: AccountsDriver.password)
            do {
                _ = try await dana.uploadCardArt(Self.art, contentType: "image/svg+xml")
                Issue.record("not a designer yet: refused")
            } catch let error as PlazaClientError {
                #expect(error.code == .forbidden)
            }
            let danaID = try await dana.me().id
            let granted = try await accounts.client.send(
                .put,
                "/v1/admin/users/\(danaID)/role",
                json: RoleChange(role: .designer),
                token: admin
            )
            #expect(granted.status == .ok, "\(granted.text)")
            // The server caches an identity per access token (with the old role): a fresh sign-in picks up the new one.
            try await dana.login("dana", password: AccountsDriver.password)

            let upload = try await dana.uploadCardArt(Self.art, contentType: "image/svg+xml")
            #expect(upload.contentType == "image/svg+xml" && upload.width == 133)
            var request = CardTemplateRequest(
                name: "Golden Ring",
                categoryId: wedding.id,
                trim: CardTrim(widthMm: 127, heightMm: 177.8),
                pages: [.front, .inside],
                colours: [CardColourRequest(name: "Ivory", art: ["front": upload.id])],
                labels: Self.labels,
                photoSlots: [CardPhotoSlot(id: "photo", page: .inside, x: 33.5, y: 110, width: 60, height: 40)],
                paperTypeIds: [linen.id]
            )
            let draft = try await dana.createCardTemplate(request)
            #expect(draft.state == .draft)
            request.name = "Golden Circle"
            #expect(try await dana.updateCardTemplate(draft.id, request).name == "Golden Circle")
            #expect(try await anna.cardTemplates().items.isEmpty, "a draft is not in the catalogue")
            #expect(try await dana.submitCardTemplate(draft.id).state == .submitted)

            // The admin approves it from the review queue.
            let queue = try await accounts.client.send(.get, "/v1/admin/review-queue?kind=template", token: admin)
                .decode(Page<ReviewItem>.self)
            let item = try #require(queue.items.first { $0.subjectId == draft.id })
            let approved = try await accounts.client.send(
                .post,
                "/v1/admin/review-queue/\(item.id)/approve",
                json: ReviewApproval(),
                token: admin
            )
            #expect(approved.status == .ok, "\(approved.text)")
            #expect(try await dana.myCardTemplates().map(\.state) == [.approved])

            // Anna browses the catalogue.
            #expect(try await anna.cardCategories().map(\.name) == ["Wedding"])
            #expect(try await anna.cardPapers().map(\.name) == ["Linen"])
            let found = try await anna.cardTemplates(category: wedding.id, text: "golden").items
            #expect(
                found.map(\.id) == [draft.id] && found.first?.fromAmount == 250
                    && found.first?.designer.username == "dana"
            )
            let template = try await anna.cardTemplate(draft.id)
            #expect(
                template.state == .approved && template.pages == [.front, .inside]
                    && template.paperTypes.map(\.id) == [linen.id]
            )
            let preview = try await anna.cardTemplatePreviewSVG(draft.id, colour: template.colours.first?.id)
            #expect(preview.contains("<svg") && preview.contains("</svg>"))
            #expect(try await anna.cardFont("script").starts(with: [0, 1, 0, 0]), "a TrueType file")
            #expect(String(decoding: try await anna.cardArt(upload.id), as: UTF8.self).contains("<svg"))

            // She personalizes it, keeps a copy for later and throws it away again.
            let design = try await anna.createCardDesign(
                CardDesignRequest(templateId: template.id, labels: [CardLabelEdit(id: "names", text: "Mia & Leo")])
            )
            #expect(design.orderable && design.labels.first { $0.id == "names" }?.text == "Mia & Leo")
            #expect(
                try await anna.updateCardDesign(design.id, CardDesignRequest(name: "Our wedding")).name == "Our wedding"
            )
            let copy = try await anna.duplicateCardDesign(design.id)
            #expect(copy.name.hasSuffix("(copy)"))
            #expect(try await anna.cardDesigns().items.count == 2)
            try await anna.deleteCardDesign(copy.id)
            #expect(try await anna.cardDesigns().items.map(\.id) == [design.id])
            #expect(try await anna.cardDesign(design.id).name == "Our wedding")

            // A photo of hers in the template's slot: too small to print sharp, said; then taken out again.
            #expect(template.photoSlots.map(\.id) == ["photo"])
            let picture = try await anna.uploadPicture(Self.photo, contentType: "image/png")
            let placed = try await anna.placeCardPhoto(
                try await anna.cardDesign(design.id),
                CardPhotoPlacement(slotId: "photo", mediaId: picture.id, zoom: 1.5)
            )
            #expect(placed.photos.map(\.width) == [40] && placed.photos.first?.zoom == 1.5)
            #expect(placed.findings.map(\.code) == [.photoLowResolution] && placed.orderable)
            #expect(try await anna.removeCardPhoto(placed, slotId: "photo").photos.isEmpty)

            // The names are set where the print puts them; the proof is a PDF.
            let layout = try await anna.cardDesignLayout(design.id)
            let names = layout.pages.first { $0.page == .front }?.labels.first { $0.id == "names" }
            #expect(
                layout.orderable && names?.overflow == false
                    && names?.lines.map(\.text).joined(separator: " ") == "Mia & Leo"
            )
            #expect(try await anna.cardDesignPreviewSVG(design.id, page: .inside, guides: true).contains("<svg"))
            let pdf = try await anna.cardDesignPrintPDF(design.id)
            #expect(pdf.starts(with: Data("%PDF".utf8)))

            // 25 cards reach the cheaper tier.
            let line = try await anna.addToCardCart(
                CardCartItemRequest(designId: design.id, paperId: linen.id, quantity: 25)
            )
            #expect(line.unitAmount == 250 && line.amount == 6_250)
            // She tries 10 (the dearer tier) and goes back to 25.
            #expect(try await anna.changeCardCartItem(line.id, quantity: 10).amount == 3_500)
            #expect(try await anna.changeCardCartItem(line.id, quantity: 25).amount == 6_250)
            let cart = try await anna.cardCart()
            #expect(cart.items.map(\.id) == [line.id])
            #expect(
                (cart.subtotal, cart.credit, cart.shipping, cart.tax, cart.total) == (6_250, 0, 499, 0, 6_749),
                "flat $4.99 shipping, no tax"
            )

            // She orders what she approved; the cart empties.
            let approval = CardProofApproval(designId: design.id, printFile: pdf)
            let order = try await anna.createCardOrder(
                CardOrderRequest(shippingAddress: Self.address, proofs: [approval])
            )
            #expect(
                order.status == .pendingPayment && order.total == cart.total
                    && order.items.map(\.proofSha256) == [approval.sha256]
            )
            #expect(try await anna.cardCart().items.isEmpty)

            // Her wallet is empty until she tops it up; paying twice with one key pays once.
            do {
                _ = try await anna.payCardOrder(order)
                Issue.record("an empty wallet: refused")
            } catch let error as PlazaClientError {
                #expect(error.code == .insufficientFunds)
            }
            let card = CardDetails(number: "4242424242424242", expMonth: 1, expYear: 2035, cvc: "999")
            var topUp = try await anna.topUp(TopUpRequest(amount: 10_000, currency: "USD", card: card))
            for _ in 0..<250 where topUp.status == .pending {
                try await Task.sleep(for: .milliseconds(20))
                topUp = try await anna.topUp(topUp.id)
            }
            let key = UUID().uuidString
            let paid = try await anna.payCardOrder(order, idempotencyKey: key)
            #expect(paid.status == .paid && paid.paymentMethod == .wallet && paid.paidAt != nil)
            #expect(try await anna.payCardOrder(order, idempotencyKey: key).status == .paid)
            #expect(try await anna.wallet().balances.first?.available == 10_000 - 6_749)
            #expect(try await anna.cardOrders().items.map(\.id) == [order.id])
            #expect(try await anna.cardOrder(order.id).status == .paid)

            // Dana reads the sale.
            let sales = try await dana.myCardSales()
            #expect(sales.templates.map(\.name) == ["Golden Circle"])
            #expect(sales.totals == [CardSalesTotal(orders: 1, units: 25, revenue: 6_250, currency: "USD")])
        }
    }
}
