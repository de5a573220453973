import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The editor's photo slots without a script: a form with the file (its CSRF token inside), then move, zoom and
/// remove buttons, each a POST that comes back to the editor saying what happened.
@Suite struct CardPhotoPagesTests {
    @Test(arguments: TestEngine.enabled)
    func aShopperAddsMovesZoomsAndRemovesAPhotoWithForms(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let template = try await shop.photoTemplate(services)
            let sam = try await AccountsDriver(client).signedIn("sam").accessToken
            let design = try await shop.design(sam, CardDesignRequest(templateId: template))
            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "sam", "password": AccountsDriver.password])
            let editor = "/cards/designs/\(design.id.uuidString.lowercased())"
            let empty = try await page.get(editor).text
            #expect(empty.contains(#"<label for="photo-file-couple">Add a photo</label>"#))
            #expect(empty.contains("The photo slot “Couple” is empty: add a photo to order the card."))
            #expect(empty.contains(#"data-photo-slot="couple""#), "the editor shades the empty slot")
            let csrf = PageSession.csrfToken(in: empty)
            let png = (
                name: "photo", filename: "us.png", type: "image/png",
                data: CardsDriver.blockPNG(width: 200, height: 150)
            )

            // Without the form's token nothing is stored.
            let forged = try await page.postMultipart(
                "\(editor)/photos/couple",
                ["page": "front"],
                file: png,
                csrf: nil
            )
            #expect(forged.status == .forbidden)
            #expect(
                try await client.send(.get, "/v1/cards/designs/\(design.id)", token: sam).decode(CardDesign.self).photos
                    .isEmpty
            )

            let added = try await page.postMultipart(
                "\(editor)/photos/couple",
                ["page": "front"],
                file: png,
                csrf: csrf
            )
            #expect(added.headers[.location] == "\(editor)?page=front&notice=photo-added&slot=couple#photo-couple")
            let shown = try await page.follow(added).text
            #expect(shown.contains("Your photo is in the card.") && shown.contains(#"<svg data-photo="couple""#))
            #expect(shown.contains("prints at 63 dpi, below 250: it may look blurry."))
            #expect(shown.contains("your photo of 200 × 150 pixels fills this space at 100%."))

            // 200 × 150 over 80 × 45 mm fills the slot's width: left is already the edge, up moves it.
            let left = try await page.post(
                "\(editor)/photos/couple/adjust",
                ["action": "left", "page": "front"],
                csrf: csrf
            )
            #expect(left.headers[.location]?.contains("notice=photo-edge") == true)
            let up = try await page.post(
                "\(editor)/photos/couple/adjust",
                ["action": "up", "page": "front"],
                csrf: csrf
            )
            #expect(up.headers[.location]?.contains("notice=photo-moved") == true)
            let moved = try await page.follow(up).text
            #expect(moved.contains("<p class=\"photo-status\" role=\"status\" data-photo-status>The photo moved"))
            #expect(moved.contains(#"class="photo-crop" aria-hidden="true"><svg data-photo="couple""#))
            _ = try await page.post("\(editor)/photos/couple/adjust", ["action": "in", "page": "front"], csrf: csrf)
            var saved = try await client.send(.get, "/v1/cards/designs/\(design.id)", token: sam).decode(
                CardDesign.self
            )
            #expect(saved.photos.map { [$0.zoom, $0.panX, $0.panY] } == [[1.25, 0, 0.25]])
            #expect(try await page.get(editor).text.contains("<span data-photo-zoom>125%</span>"))

            // Not a picture: said beside the slot, the photo kept.
            let text = (name: "photo", filename: "notes.txt", type: "text/plain", data: Data("hello".utf8))
            let refused = try await page.postMultipart(
                "\(editor)/photos/couple",
                ["page": "front"],
                file: text,
                csrf: csrf
            )
            #expect(refused.headers[.location] == "\(editor)?page=front#photo-couple")
            let again = try await page.follow(refused).text
            #expect(again.contains(#"<p class="field-error" role="alert">"#), "\(again)")
            saved = try await client.send(.get, "/v1/cards/designs/\(design.id)", token: sam).decode(CardDesign.self)
            #expect(saved.photos.count == 1)

            let removed = try await page.post(
                "\(editor)/photos/couple/adjust",
                ["action": "remove", "page": "front"],
                csrf: csrf
            )
            #expect(removed.headers[.location]?.contains("notice=photo-removed") == true)
            saved = try await client.send(.get, "/v1/cards/designs/\(design.id)", token: sam).decode(CardDesign.self)
            #expect(saved.photos.isEmpty && !saved.orderable)

            // Someone else's design is not there at all.
            _ = try await AccountsDriver(client).signedIn("lee")
            let lee = PageSession(client)
            _ = try await lee.submit("/login", to: "/login", ["login": "lee", "password": AccountsDriver.password])
            let leeCSRF = PageSession.csrfToken(in: try await lee.get("/cards").text)
            let other = try await lee.post(
                "\(editor)/photos/couple/adjust",
                ["action": "remove", "page": "front"],
                csrf: leeCSRF
            )
            #expect(other.status == .notFound)
        }
    }
}
