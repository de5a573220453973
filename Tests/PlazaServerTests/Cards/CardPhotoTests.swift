import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Photo cards (issue 40): a template's photo slots sit on its pages; a shopper puts their own upload in a slot, zooms
/// and pans it; preflight says when it prints under 250 dpi and stops an order without a required photo; the preview
/// draws it clipped to its slot and the print file embeds the upload whole.
@Suite struct CardPhotoTests {
    @Test(arguments: TestEngine.enabled)
    func aTemplatesPhotoSlotsSitOnItsPages(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await CardsDriver.open(client, services)
            var request = try await CardsDriver.request(
                client,
                shop.designer,
                category: shop.wedding,
                sub: nil,
                paper: shop.linen
            )
            request.photoSlots = [
                CardPhotoSlot(id: "wide", page: .front, x: 100, y: 10, width: 80, height: 40),
                CardPhotoSlot(id: "names", page: .front, x: 10, y: 10, width: 20, height: 20),
                CardPhotoSlot(id: "back", page: .back, x: 10, y: 10, width: 20, height: 20),
            ]
            let refused = try await client.send(.post, "/v1/cards/templates", json: request, token: shop.designer)
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.problem?.errors?.map(\.field) == ["photoSlots[0].x", "photoSlots[1].id", "photoSlots[2].page"],
                "\(refused.text)"
            )

            request.photoSlots = [CardsDriver.slot]
            let created = try await client.send(.post, "/v1/cards/templates", json: request, token: shop.designer)
            #expect(created.status == .created, "\(created.text)")
            let template = try created.decode(CardTemplate.self)
            #expect(template.photoSlots == [CardsDriver.slot])
            // A template without slots answers an empty list (and versions saved before photo cards read as such).
            let plain = try await client.send(.get, "/v1/cards/templates/\(shop.template)").decode(CardTemplate.self)
            #expect(plain.photoSlots.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aShopperPutsTheirOwnPhotoInASlot(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let template = try await shop.photoTemplate(services)
            let sam = try await AccountsDriver(client).signedIn("sam").accessToken
            let lee = try await AccountsDriver(client).signedIn("lee").accessToken

            // Without its required photo the design cannot be ordered.
            let empty = try await shop.design(sam, CardDesignRequest(templateId: template))
            let missing = try #require(empty.findings.first { $0.code == .photoMissing })
            #expect(missing.severity == .error && missing.labelId == "couple" && !empty.orderable)

            // 200 × 150 pixels over 80 mm: 63 dpi, a warning; the design may be ordered.
            let small = try await shop.uploadPhoto(sam, CardsDriver.blockPNG(width: 200, height: 150))
            let path = "/v1/cards/designs/\(empty.id)"
            let placed = CardPhotoPlacement(slotId: "couple", mediaId: small.id, zoom: 1, panX: 0, panY: 0)
            var response = try await client.send(.patch, path, json: CardDesignRequest(photos: [placed]), token: sam)
            #expect(response.status == .ok, "\(response.text)")
            var design = try response.decode(CardDesign.self)
            #expect(design.photos.map(\.mediaId) == [small.id] && design.photos.first?.width == 200)
            let soft = try #require(design.findings.first { $0.code == .photoLowResolution })
            #expect(soft.severity == .warning && soft.labelId == "couple" && soft.message.contains("63 dpi"))
            #expect(design.orderable && !design.findings.contains { $0.code == .photoMissing })

            // Someone else's upload, a zoom under 1 or a pan past the edge: refused by field, nothing saved.
            let lees = try await shop.uploadPhoto(lee, CardsDriver.blockPNG(width: 1_000, height: 800))
            for (photo, field) in [
                (CardPhotoPlacement(slotId: "couple", mediaId: lees.id), "photos[0].mediaId"),
                (CardPhotoPlacement(slotId: "couple", mediaId: small.id, zoom: 0.5), "photos[0].zoom"),
                (CardPhotoPlacement(slotId: "couple", mediaId: small.id, panX: 1.5), "photos[0].panX"),
                (CardPhotoPlacement(slotId: "nowhere", mediaId: small.id), "photos[0].slotId"),
            ] {
                response = try await client.send(.patch, path, json: CardDesignRequest(photos: [photo]), token: sam)
                #expect(response.status == .unprocessableContent, "\(field): \(response.text)")
                #expect(response.problem?.errors?.map(\.field) == [field], "\(response.text)")
            }
            let other = try await client.send(
                .post,
                "/v1/cards/designs",
                json: CardDesignRequest(
                    templateId: template,
                    photos: [CardPhotoPlacement(slotId: "couple", mediaId: lees.id)]
                ),
                token: sam
            )
            #expect(other.problem?.errors?.map(\.field) == ["photos[0].mediaId"], "\(other.text)")
            design = try await client.send(.get, path, token: sam).decode(CardDesign.self)
            #expect(design.photos.map(\.mediaId) == [small.id])

            // 1000 × 800 pixels: 317 dpi at zoom 1, no warning; zoomed 2×, 158 dpi and the warning again.
            let large = try await shop.uploadPhoto(sam, CardsDriver.blockPNG(width: 1_000, height: 800))
            design = try await client.send(
                .patch,
                path,
                json: CardDesignRequest(photos: [CardPhotoPlacement(slotId: "couple", mediaId: large.id)]),
                token: sam
            ).decode(CardDesign.self)
            #expect(!design.findings.contains { $0.code == .photoLowResolution }, "\(design.findings)")
            design = try await client.send(
                .patch,
                path,
                json: CardDesignRequest(photos: [CardPhotoPlacement(slotId: "couple", mediaId: large.id, zoom: 2)]),
                token: sam
            ).decode(CardDesign.self)
            #expect(design.findings.first { $0.code == .photoLowResolution }?.message.contains("158 dpi") == true)

            // Nobody else sees the design, nor the upload through it.
            #expect(try await client.send(.get, path, token: lee).status == .notFound)
            #expect(try await client.send(.get, "/media/\(large.id)", token: lee).status == .notFound)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func thePreviewClipsThePhotoAndThePrintEmbedsItWhole(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let template = try await shop.photoTemplate(services)
            let sam = try await AccountsDriver(client).signedIn("sam").accessToken
            let png = try await shop.uploadPhoto(sam, CardsDriver.blockPNG(width: 1_000, height: 800))
            let design = try await shop.design(
                sam,
                CardDesignRequest(
                    templateId: template,
                    photos: [CardPhotoPlacement(slotId: "couple", mediaId: png.id, zoom: 1.5, panX: 1, panY: -1)]
                )
            )
            let svg = try await client.send(.get, "/v1/cards/designs/\(design.id)/preview.svg", token: sam).text
            // Cover fit: 0.08 mm a pixel (80 mm over 1000), ×1.5 is 120 × 96 mm; panned right and up, the photo's
            // right edge meets the slot's and its top the slot's top.
            #expect(
                svg.contains(
                    #"<svg data-photo="couple" x="23.5" y="15" width="80" height="45" viewBox="23.5 15 80 45" overflow="hidden">"#
                        + #"<image href="/media/\#(png.id.uuidString.lowercased())" x="-16.5" y="15" width="120" height="96""#
                ),
                "\(svg)"
            )

            let pdf = try await client.send(.get, "/v1/cards/designs/\(design.id)/print.pdf", token: sam)
            #expect(pdf.status == .ok)
            let folder = try CardPrintTests.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("card.pdf")
            try Data(pdf.body.readableBytesView).write(to: file)
            let check = try ExternalTool.run("qpdf", ["--check", file.path])
            #expect(check.status == 0 && check.stdout.contains("No syntax or stream encoding errors found"))
            // The photo whole, at the upload's full pixel size (the slot shows 667 × 375 of them).
            let images = try Self.images(file)
            #expect(images.contains { $0.count > 8 && $0[3...5] == ["1000", "800", "rgb"] }, "\(images)")

            // A JPEG goes in as it is (DCTDecode), its bytes unchanged.
            let jpeg = try await shop.uploadPhoto(sam, MediaTests.wideJPEG, type: "image/jpeg")
            let changed = try await client.send(
                .patch,
                "/v1/cards/designs/\(design.id)",
                json: CardDesignRequest(photos: [CardPhotoPlacement(slotId: "couple", mediaId: jpeg.id)]),
                token: sam
            )
            #expect(changed.status == .ok, "\(changed.text)")
            let print = try await client.send(.get, "/v1/cards/designs/\(design.id)/print.pdf", token: sam)
            try Data(print.body.readableBytesView).write(to: file)
            let listed = try Self.images(file)
            #expect(listed.contains { $0.count > 8 && $0[3...4] == ["600", "400"] && $0[8] == "jpeg" }, "\(listed)")
            let stored = try await client.send(.get, "/media/\(jpeg.id)", token: sam)
            #expect(Data(print.body.readableBytesView).range(of: Data(stored.body.readableBytesView)) != nil)

            // A phone's photo (24 × 16 stored, EXIF orientation 6) is 16 × 24 as shown: the print turns it a quarter.
            let phone = try await shop.uploadPhoto(sam, MediaTests.phoneJPEG, type: "image/jpeg")
            let turned = try await client.send(
                .patch,
                "/v1/cards/designs/\(design.id)",
                json: CardDesignRequest(photos: [CardPhotoPlacement(slotId: "couple", mediaId: phone.id)]),
                token: sam
            ).decode(CardDesign.self)
            #expect(turned.photos.map { [$0.width, $0.height] } == [[16, 24]])
            let turnedPDF = try await client.send(.get, "/v1/cards/designs/\(design.id)/print.pdf", token: sam)
            try Data(turnedPDF.body.readableBytesView).write(to: file)
            let plain = folder.appendingPathComponent("plain.pdf")
            _ = try ExternalTool.run("qpdf", ["--qdf", "--object-streams=disable", file.path, plain.path])
            let content = String(decoding: try Data(contentsOf: plain), as: UTF8.self)
            // 5 mm a pixel covers the 80 mm slot: 80 × 120 mm, that is 226.7717 × 340.1575 pt, turned clockwise.
            #expect(content.contains("0 -340.1575 226.7717 0 "), "\(content.prefix(3_000))")
        }
    }

    /// `pdfimages -list`'s rows, split into their columns (page, num, type, width, height, color, comp, bpc, enc…).
    static func images(_ file: URL) throws -> [[String]] {
        try ExternalTool.run("pdfimages", ["-list", file.path]).stdout.split(separator: "\n").dropFirst(2).map {
            $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
    }
}
