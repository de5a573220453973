import Foundation
import PlazaCore
import PlazaMedia
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The pixel test of preview against print, with a photo: Chromium drawing the preview's `<image>` in its slot and
/// poppler drawing the PDF's image XObject put each of the photo's blocks where `CardPhotoRules.placement` says, and
/// neither draws past the slot.
@Suite struct CardPhotoPixelTests {
    @Test func thePhotoSitsWhereTheGeometrySaysInThePreviewAndThePrint() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let template = try await shop.photoTemplate(services)
            let sam = try await AccountsDriver(client).signedIn("sam").accessToken
            let png = CardsDriver.blockPNG(width: 400, height: 300)
            let upload = try await shop.uploadPhoto(sam, png)
            let placement = CardPhotoPlacement(slotId: "couple", mediaId: upload.id, zoom: 1.5, panX: 0.5, panY: -0.5)
            let design = try await shop.design(sam, CardDesignRequest(templateId: template, photos: [placement]))
            let user = try #require(try await AccountStore().user(login: "sam", on: services.database.sql))
            let identity = Identity(user: user, sessionID: UUID())
            let svg = try await services.cards.designPreview(identity, design.id, page: .front, guides: false)
            let pdf = try await services.cards.designPrint(identity, design.id)
            let renders = try CardRenders.render(
                svg: svg,
                pdf: pdf,
                fonts: services.cards.fonts,
                replacing: [
                    "/media/\(upload.id.uuidString.lowercased())": "data:image/png;base64,\(png.base64EncodedString())"
                ]
            )

            // 400 × 300 over 80 × 45 mm: 0.2 mm a pixel, ×1.5 is 0.3; a 50-pixel block is 15 mm.
            let slot = CardsDriver.slot.box
            var stored = placement
            (stored.width, stored.height) = (400, 300)
            let placed = try #require(CardPhotoRules.placement(stored, in: slot))
            #expect(
                abs(placed.width - 120) < 1e-9 && abs(placed.x - (23.5 - 30)) < 1e-9
                    && abs(placed.y - (15 - 11.25)) < 1e-9
            )
            let near = { (seen: (r: Int, g: Int, b: Int), expected: [UInt8]) in
                abs(seen.r - Int(expected[0])) < 40 && abs(seen.g - Int(expected[1])) < 40
                    && abs(seen.b - Int(expected[2])) < 40
            }
            var checked = 0
            var wrong: [String] = []
            for y in stride(from: slot.y + 1, to: slot.maxY - 1, by: 2.0) {
                for x in stride(from: slot.x + 1, to: slot.maxX - 1, by: 2.0) {
                    let (px, py) = ((x - placed.x) / 0.3, (y - placed.y) / 0.3)
                    // Away from the blocks' edges, where the two renderers smooth differently.
                    let edge = min(px.truncatingRemainder(dividingBy: 50), py.truncatingRemainder(dividingBy: 50))
                    let far = max(px.truncatingRemainder(dividingBy: 50), py.truncatingRemainder(dividingBy: 50))
                    guard edge > 5, far < 45 else { continue }
                    let expected = CardsDriver.blockColour(Int(px), Int(py))
                    checked += 1
                    if !near(renders.previewColour(x, y), expected) { wrong.append("preview \(x),\(y)") }
                    if !near(renders.printColour(x, y), expected) { wrong.append("print \(x),\(y)") }
                }
            }
            #expect(checked > 300, "\(checked) points checked")
            #expect(wrong.isEmpty, "\(wrong.count) points off: \(wrong.prefix(12))")
            // Just outside the slot the photo would reach (it is 120 × 90 mm) but neither draws it: the art's paper.
            for (x, y) in [(slot.x - 2, slot.y + 20), (slot.maxX + 2, slot.y + 20), (slot.x + 40, slot.y - 2)] {
                for colour in [renders.previewColour(x, y), renders.printColour(x, y)] {
                    #expect(colour.r > 200 && colour.g > 200 && colour.b > 190, "\(x),\(y): \(colour)")
                }
            }
        }
    }
}
