import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaMedia
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The print file and the preview come from one layout: the PDF passes the print shop's tools, is the same bytes while
/// the design is unchanged, and Chromium drawing the preview's SVG gives the same pixels as poppler drawing the PDF.
@Suite struct CardPrintTests {
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-card-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(arguments: TestEngine.enabled)
    func thePrintFileHasItsBoxesItsFontsAndTheSameBytesEachTime(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let sam = try await AccountsDriver(client).signedIn("sam").accessToken
            let design = try await shop.design(
                sam,
                CardDesignRequest(templateId: shop.template, labels: [CardLabelEdit(id: "names", text: "Mia & Leo")])
            )
            let first = try await client.send(.get, "/v1/cards/designs/\(design.id)/print.pdf", token: sam)
            #expect(first.status == .ok && first.headers[.contentType] == "application/pdf")
            let pdf = Data(first.body.readableBytesView)
            #expect(pdf.starts(with: Data("%PDF-1.7".utf8)))
            #expect(
                Data(
                    try await client.send(.get, "/v1/cards/designs/\(design.id)/print.pdf", token: sam).body
                        .readableBytesView
                ) == pdf
            )

            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("card.pdf")
            try pdf.write(to: file)
            let check = try ExternalTool.run("qpdf", ["--check", file.path])
            #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
            let fonts = try ExternalTool.run("pdffonts", [file.path]).stdout.split(separator: "\n").dropFirst(2)
            #expect(
                fonts.count == 2 && fonts.allSatisfy { $0.contains("CID TrueType") && $0.contains(" yes yes yes ") },
                "\(fonts)"
            )
            // 133 × 183.8 mm (the trim and 3 mm a side) is 377.008 × 521.008 pt; the trim box sits 8.5 pt (3 mm) in.
            let info = try ExternalTool.run("pdfinfo", ["-box", file.path]).stdout
            #expect(
                info.contains("Pages:           2") && info.contains("Page size:       377.008 x 521.008 pts"),
                "\(info)"
            )
            #expect(info.contains("TrimBox:             8.50     8.50   368.50   512.50"), "\(info)")
            let text = try ExternalTool.run("pdftotext", [file.path, "-"]).stdout
            #expect(text.contains("Mia & Leo") && text.contains("June 12, 2027") && text.contains("With love"))
        }
    }

    /// Chromium draws the preview SVG (its fonts inlined, as a browser loads them from `/v1/cards/fonts`) and poppler
    /// the PDF, both at 4 pixels a millimetre; the two pictures agree to within anti-aliasing.
    @Test func thePreviewEqualsThePrintInPixels() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let sam = try await AccountsDriver(client).signedIn("sam").accessToken
            let design = try await shop.design(
                sam,
                CardDesignRequest(
                    templateId: shop.template,
                    labels: [
                        CardLabelEdit(id: "names", text: "Mia Sophie Wagner & Leo Fitzgerald"),
                        CardLabelEdit(id: "date", text: "Saturday, the fifth"),
                    ]
                )
            )
            let user = try #require(try await AccountStore().user(login: "sam", on: services.database.sql))
            let identity = Identity(user: user, sessionID: UUID())
            let svg = try await services.cards.designPreview(identity, design.id, page: .front, guides: false)
            let pdf = try await services.cards.designPrint(identity, design.id)

            // 133 × 183.8 mm at 4 px/mm; fonts as data: URLs so the file needs no server.
            let (width, height) = (532, 735)
            let renders = try CardRenders.render(svg: svg, pdf: pdf, fonts: services.cards.fonts)
            let (preview, print) = (renders.preview, renders.printed)

            let (w, h) = (min(preview.width, print.width), min(preview.height, print.height))
            #expect(
                w >= width - 1 && h >= height - 1,
                "\(preview.width)×\(preview.height) against \(print.width)×\(print.height)"
            )
            let gray = { (r: Int, g: Int, b: Int) in (r * 299 + g * 587 + b * 114) / 1000 }
            var previewInk = [Bool](repeating: false, count: w * h)
            var printInk = [Bool](repeating: false, count: w * h)
            var total = 0
            for y in 0..<h {
                for x in 0..<w {
                    let at = (y * preview.width + x) * preview.channels
                    let a = gray(Int(preview.samples[at]), Int(preview.samples[at + 1]), Int(preview.samples[at + 2]))
                    let p = print.pixel(x, y)
                    let b = gray(p.r, p.g, p.b)
                    total += abs(a - b)
                    previewInk[y * w + x] = a < 128
                    printInk[y * w + x] = b < 128
                }
            }
            // Ink (the text) of one picture with no ink of the other within a pixel (a quarter millimetre): the two
            // renderers anti-alias differently, but a moved, re-broken or re-fonted line leaves whole strokes alone.
            func stray(_ ink: [Bool], against other: [Bool]) -> (count: Int, of: Int) {
                var (count, of) = (0, 0)
                for y in 1..<(h - 1) {
                    for x in 1..<(w - 1) where ink[y * w + x] {
                        of += 1
                        let near = (-1...1).contains { dy in (-1...1).contains { dx in other[(y + dy) * w + x + dx] } }
                        if !near { count += 1 }
                    }
                }
                return (count, of)
            }
            let lost = stray(printInk, against: previewInk)
            let added = stray(previewInk, against: printInk)
            #expect(lost.of > 1_500, "the print has text: \(lost.of) dark pixels")
            #expect(
                lost.count * 100 < lost.of && added.count * 100 < added.of,
                "stray ink: \(lost) in print, \(added) in preview"
            )
            #expect(
                Double(total) / Double(w * h) < 1.5,
                "the art and paper agree too: mean difference \(Double(total) / Double(w * h))"
            )
        }
    }

    /// PNG art reaches the print as pixels composited over white and deflated once (`CardArtCache` keeps the image):
    /// the file is a fraction of the raw pixels' size, passes qpdf, and poppler draws the stripes where they are.
    @Test func pngArtPrintsAsADeflatedImage() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            // 400 × 560 pixels, red and blue stripes 10 pixels wide: 672,000 bytes of RGB.
            let upload = try await CardsDriver.uploadArt(
                client,
                shop.designer,
                MediaTests.stripedPNG(width: 400, height: 560),
                type: "image/png"
            )
            #expect(upload.status == .created, "\(upload.text)")
            var request = try await CardsDriver.request(
                client,
                shop.designer,
                category: shop.wedding,
                sub: nil,
                paper: shop.linen
            )
            request.name = "Stripes"
            request.colours = [
                CardColourRequest(name: "Stripes", art: ["front": try upload.decode(CardArtUpload.self).id])
            ]
            let template = try await CardsDriver.template(client, shop.designer, request: request)
            try await CardsDriver.approve(client, shop.admin, template, designer: shop.designer)
            let sam = try await AccountsDriver(client).signedIn("sam").accessToken
            let design = try await shop.design(sam, CardDesignRequest(templateId: template))
            let response = try await client.send(.get, "/v1/cards/designs/\(design.id)/print.pdf", token: sam)
            #expect(response.status == .ok)
            let pdf = Data(response.body.readableBytesView)
            #expect(pdf.count < 100_000, "\(pdf.count) bytes")
            let text = String(decoding: pdf.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)
            #expect(
                text.contains(
                    "/Subtype /Image /Width 400 /Height 560 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode"
                )
            )

            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("card.pdf")
            try pdf.write(to: file)
            let check = try ExternalTool.run("qpdf", ["--check", file.path])
            #expect(
                check.status == 0 && check.stdout.contains("No syntax or stream encoding errors found"),
                "\(check.stdout) \(check.stderr)"
            )
            let out = folder.appendingPathComponent("front")
            let rendered = try ExternalTool.run(
                "pdftoppm",
                ["-r", "72", "-f", "1", "-l", "1", "-singlefile", file.path, out.path]
            )
            #expect(rendered.status == 0, "\(rendered.stderr)")
            let page = try PortablePixmap(try Data(contentsOf: out.appendingPathExtension("ppm")))
            // The art fills the page with its bleed; sample the middle of stripes near the top, above the labels.
            for stripe in [0, 1, 2, 17, 38, 39] {
                let pixel = page.pixel(Int((Double(stripe * 10 + 5) / 400 * Double(page.width)).rounded(.down)), 20)
                let expected = stripe % 2 == 0 ? (220, 30, 30) : (30, 30, 220)
                #expect(
                    abs(pixel.r - expected.0) < 12 && abs(pixel.g - expected.1) < 12 && abs(pixel.b - expected.2) < 12,
                    "stripe \(stripe): \(pixel)"
                )
            }
        }
    }
}
