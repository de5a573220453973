import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The catalogue: a designer's template is theirs alone until an admin approves it from the review queue; then anyone,
/// signed out too, finds it by category, words or colour, reads its labels and papers and sees its preview.
@Suite struct CardCatalogueTests {
    static func browse(_ client: any TestClientProtocol, _ query: String = "") async throws -> [String] {
        let response = try await client.send(.get, "/v1/cards/templates\(query)")
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(Page<CardTemplateSummary>.self).items.map(\.name)
    }

    @Test(arguments: TestEngine.enabled)
    func aDesignersTemplateEntersTheCatalogueOnlyOnceApproved(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let admin = try await AdminTests.admin(client, services)
            let wedding = try await CardsDriver.category(client, admin, CardCategoryRequest(name: "Wedding"))
            let paper = CardPaperRequest(
                name: "Linen",
                sampleAmount: 200,
                tiers: [CardPriceTier(minQuantity: 1, unitAmount: 350)]
            )
            let linen = try await client.send(.post, "/v1/admin/cards/papers", json: paper, token: admin).decode(
                CardPaperType.self
            ).id
            let dana = try await CardsDriver.designer(client, services, "dana", admin: admin)
            let request = try await CardsDriver.request(client, dana, category: wedding, sub: nil, paper: linen)
            let id = try await CardsDriver.template(client, dana, request: request)

            // A draft: its designer sees it; the catalogue, shoppers and the signed-out do not.
            let shopper = try await AccountsDriver(client).signedIn("sam").accessToken
            #expect(
                try await client.send(.get, "/v1/cards/templates/\(id)", token: dana).decode(CardTemplate.self).state
                    == .draft
            )
            #expect(try await client.send(.get, "/v1/cards/templates/\(id)", token: shopper).status == .notFound)
            #expect(try await client.send(.get, "/v1/cards/templates/\(id)").status == .notFound)
            #expect(try await Self.browse(client).isEmpty)
            // Its art too: 404 to all but its designer and the admins, by bearer or (the pages' route) session.
            let art = try #require(request.colours.first?.art.values.first)
            #expect(try await client.send(.get, "/v1/cards/art/\(art)").status == .notFound)
            #expect(try await client.send(.get, "/v1/cards/art/\(art)", token: shopper).status == .notFound)
            let own = try await client.send(.get, "/v1/cards/art/\(art)", token: dana)
            #expect(own.status == .ok && own.headers[.cacheControl] == "private, no-cache")
            #expect(try await client.send(.get, "/v1/cards/art/\(art)", token: admin).status == .ok)
            let studio = PageSession(client)
            _ = try await studio.submit("/login", to: "/login", ["login": "dana", "password": AccountsDriver.password])
            #expect(try await studio.get("/cards/art/\(art)").status == .ok)
            #expect(try await PageSession(client).get("/cards/art/\(art)").status == .notFound)

            // Submitted: a review item with the template's name and preflight's word on its own text.
            #expect(
                try await client.send(.post, "/v1/cards/templates/\(id)/submit", token: dana).decode(CardTemplate.self)
                    .state == .submitted
            )
            #expect(try await client.send(.post, "/v1/cards/templates/\(id)/submit", token: dana).status == .conflict)
            // Waiting for review: its designer cannot change it, the reviewing admin may correct it in place.
            var corrected = request
            corrected.labels[1].text = "June 12th, 2027"
            #expect(
                try await client.send(.patch, "/v1/cards/templates/\(id)", json: corrected, token: dana).status
                    == .conflict
            )
            let edited = try await client.send(.patch, "/v1/cards/templates/\(id)", json: corrected, token: admin)
                .decode(CardTemplate.self)
            #expect(edited.state == .submitted && edited.version == 2)
            let item = try #require(try await TrustTests.queue(client, admin, .template).first)
            #expect(item.subjectId == id && item.subject == "“Golden Circle” by Dana")
            #expect(
                item.findings.first?.contains("127 × 177.8 mm, front, inside; 1 colour, 3 labels") == true,
                "\(item.findings)"
            )
            #expect(try await TrustTests.approve(client, admin, item, ReviewApproval()).status == .ok)

            // In the catalogue, for anyone: its art too.
            #expect(try await Self.browse(client) == ["Golden Circle"])
            let published = try await client.send(.get, "/v1/cards/art/\(art)")
            #expect(
                published.status == .ok && published.headers[.cacheControl] == "public, max-age=31536000, immutable"
            )
            let detail = try await client.send(.get, "/v1/cards/templates/\(id)").decode(CardTemplate.self)
            #expect(
                detail.state == .approved && detail.version == 2
                    && detail.labels.map(\.id) == ["names", "date", "message"]
            )
            #expect(detail.labels[1].text == "June 12th, 2027", "the admin's correction is what was approved")
            #expect(
                detail.paperTypes.map(\.name) == ["Linen"] && detail.colours.map(\.name) == ["Ivory"]
                    && detail.designer.username == "dana"
            )
            let preview = try await client.send(.get, "/v1/cards/templates/\(id)/preview.svg")
            #expect(preview.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(
                preview.text.contains(">Ana &amp; Ben</tspan>") && preview.text.contains("font-family=\"plaza-script\"")
            )
            #expect(
                preview.text.contains("@font-face{font-family:\"plaza-script\";src:url(\"/v1/cards/fonts/script\")")
            )
            #expect(!preview.text.contains("foreignObject"))
            #expect(try await client.send(.get, "/v1/cards/templates/\(id)/preview.svg?page=back").status == .notFound)
            let font = try await client.send(.get, "/v1/cards/fonts/script")
            #expect(
                font.status == .ok && font.headers[.contentType] == "font/ttf"
                    && Data(font.body.readableBytesView).starts(with: [0, 1, 0, 0])
            )
        }
    }

    @Test func theCatalogueFiltersByCategoryWordsAndColour() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            var party = try await CardsDriver.request(
                client,
                shop.designer,
                category: shop.party,
                sub: nil,
                paper: shop.linen
            )
            party.name = "Confetti Pop"
            party.colours = [
                CardColourRequest(name: "Navy", art: party.colours[0].art), CardColourRequest(name: "Blush", art: [:]),
            ]
            let confetti = try await CardsDriver.template(client, shop.designer, request: party)
            try await CardsDriver.approve(client, shop.admin, confetti, designer: shop.designer)

            #expect(Set(try await Self.browse(client)) == ["Golden Circle", "Confetti Pop"])
            #expect(try await Self.browse(client, "?category=\(shop.wedding)") == ["Golden Circle"])
            #expect(try await Self.browse(client, "?subcategory=\(shop.invitations)") == ["Golden Circle"])
            #expect(try await Self.browse(client, "?q=confetti") == ["Confetti Pop"])
            #expect(try await Self.browse(client, "?q=dana").count == 2, "the designer's name finds their templates")
            #expect(try await Self.browse(client, "?colour=blush") == ["Confetti Pop"])
            #expect(try await Self.browse(client, "?colour=bl") == [], "a colour is matched whole")
            let summaries = try await client.send(.get, "/v1/cards/templates?q=golden").decode(
                Page<CardTemplateSummary>.self
            ).items
            #expect(
                summaries.first?.fromAmount == 250 && summaries.first?.currency == "USD",
                "the cheapest card: Linen from 25"
            )
            #expect(
                try await client.send(.get, "/v1/cards/templates?category=wedding").problem?.errors?.map(\.field) == [
                    "category"
                ]
            )
            let categories = try await client.send(.get, "/v1/cards/categories").decode(Page<CardCategory>.self).items
            #expect(
                categories.map(\.name) == ["Wedding", "Party"]
                    && categories[0].subcategories.map(\.name) == ["Invitations"]
            )
        }
    }

    @Test func onlyDesignersUploadAndWhatTheySendIsChecked() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let shopper = try await AccountsDriver(client).signedIn("sam").accessToken
            #expect(try await CardsDriver.uploadArt(client, shopper).problem?.code == .forbidden)
            var request = try await CardsDriver.request(
                client,
                shop.designer,
                category: shop.wedding,
                sub: nil,
                paper: shop.linen
            )
            #expect(
                try await client.send(.post, "/v1/cards/templates", json: request, token: shopper).status == .forbidden
            )

            // Art Plaza cannot print faithfully, or that could carry script, is refused with what to do instead.
            let scripted = Data(
                #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script></svg>"#.utf8
            )
            #expect(try await CardsDriver.uploadArt(client, shop.designer, scripted).problem?.code == .invalidImage)
            let texty = Data(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>Hi</text></svg>"#.utf8)
            #expect(
                try await CardsDriver.uploadArt(client, shop.designer, texty).problem?.title.contains("outlines")
                    == true
            )
            #expect(
                try await CardsDriver.uploadArt(client, shop.designer, Data("GIF89a".utf8), type: "image/gif").status
                    == .unsupportedMediaType
            )
            // What is kept is the clean SVG Plaza writes: nothing of the upload's own markup.
            let upload = try await CardsDriver.uploadArt(
                client,
                shop.designer,
                Data(
                    #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="urn:x" viewBox="0 0 10 10" x:evil="1"><rect width="10" height="10"/></svg>"#
                        .utf8
                )
            ).decode(CardArtUpload.self)
            let served = try await client.send(.get, upload.url, token: shop.designer)
            #expect(served.status == .ok && !served.text.contains("evil") && served.text.contains("<path"))

            // Every mistake in a template comes back at once, by field.
            request.trim = CardTrim(widthMm: 20, heightMm: 177.8)
            request.labels[0].font = "comic"
            request.labels[1].x = 120
            request.paperTypeIds = []
            let refused = try await client.send(.post, "/v1/cards/templates", json: request, token: shop.designer)
            let fields = Set(refused.problem?.errors?.map(\.field) ?? [])
            #expect(
                fields.isSuperset(of: ["trim", "labels[0].font", "labels[1].x", "paperTypeIds"]),
                "\(refused.text)"
            )
            // Another designer's art is not yours to use.
            let other = try await CardsDriver.designer(client, services, "otto", admin: shop.admin)
            let stolen = try await CardsDriver.request(
                client,
                shop.designer,
                category: shop.wedding,
                sub: nil,
                paper: shop.linen
            )
            #expect(
                try await client.send(.post, "/v1/cards/templates", json: stolen, token: other).problem?.errors?.map(
                    \.field
                ) == ["colours[0].art"]
            )
        }
    }
}
