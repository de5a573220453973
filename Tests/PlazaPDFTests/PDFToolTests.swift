import Foundation
import PlazaCore
import PlazaMedia
import PlazaTestSupport
import Testing

@testable import PlazaPDF

/// The sample card read by independent tools: qpdf checks the structure, poppler lists the fonts, extracts the text,
/// reports the page size and renders the page (pixels checked where the layout put ink and where it did not).
@Suite struct PDFToolTests {
    static let k = 72 / 25.4

    @Test func qpdfFindsNoProblems() throws {
        let file = try PDFFixtures.temporaryFile(try SampleCard().pdf())
        defer { try? FileManager.default.removeItem(at: file) }
        if let keep = ProcessInfo.processInfo.environment["PLAZA_KEEP_SAMPLE_PDF"] {
            try? FileManager.default.copyItem(at: file, to: URL(fileURLWithPath: keep))
        }
        let output = try ExternalTool.run("qpdf", ["--check", file.path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("No syntax or stream encoding errors found"))
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    /// qpdf decodes our Flate streams with zlib and writes them out plain: the pixels and operators come back exactly.
    @Test func qpdfInflatesEveryStreamWithZlib() throws {
        var pixels: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 5), UInt8((x ^ y) * 3 % 256)] }
        }
        var canvas = try SampleCard().canvas()
        canvas.draw(
            try PDFImage.rgb(width: 64, height: 48, pixels: Data(pixels)),
            in: CardRect(x: 10, y: 80, width: 16, height: 12)
        )
        var writer = PDFWriter()
        writer.add(canvas)
        let pdf = try writer.render()
        let file = try PDFFixtures.temporaryFile(pdf)
        let plain = file.deletingPathExtension().appendingPathExtension("plain.pdf")
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: plain)
        }
        let output = try ExternalTool.run(
            "qpdf",
            ["--stream-data=uncompress", "--decode-level=generalized", file.path, plain.path]
        )
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let bytes = [UInt8](try Data(contentsOf: plain))
        let text = String(decoding: bytes.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)
        #expect(!text.contains("/FlateDecode") && text.contains("/DCTDecode"))
        #expect(bytes.firstRange(of: pixels) != nil, "the image's pixels, byte for byte")
        #expect(text.contains("beginbfchar") && text.contains(" Do\n") && text.contains(" Tj\n"))
    }

    @Test func pdffontsListsEveryFontEmbeddedSubsetWithUnicode() throws {
        let file = try PDFFixtures.temporaryFile(try SampleCard().pdf())
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ExternalTool.run("pdffonts", [file.path])
        #expect(output.status == 0)
        // name, type (2 words), encoding, emb, sub, uni, object, generation
        let rows = output.stdout.split(separator: "\n").dropFirst(2).map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        #expect(rows.count == 4, "\(output.stdout)")
        let names = rows.map { String($0[0].split(separator: "+").last ?? "") }.sorted()
        #expect(names == ["Comfortaa-Regular", "EBGaramond12-Regular", "Kristi", "LiberationSans"])
        for row in rows {
            #expect(row[0].range(of: "^[A-Z]{6}\\+", options: .regularExpression) != nil, "\(row)")
            #expect(row[1...2].joined(separator: " ") == "CID TrueType", "\(row)")
            #expect(row[3] == "Identity-H", "\(row)")
            #expect(Array(row[4...6]) == ["yes", "yes", "yes"], "emb sub uni: \(row)")
        }
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    @Test func pdftotextExtractsTheDrawnText() throws {
        let card = SampleCard()
        let file = try PDFFixtures.temporaryFile(try card.pdf())
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ExternalTool.run("pdftotext", ["-layout", file.path, "-"])
        #expect(output.status == 0)
        for (layout, _) in card.layouts {
            for line in layout.lines {
                #expect(output.stdout.contains(line.text), "\(line.text) not in:\n\(output.stdout)")
            }
        }
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    @Test func pdfinfoReportsTheTrimPlusBleed() throws {
        let file = try PDFFixtures.temporaryFile(try SampleCard().pdf())
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ExternalTool.run("pdfinfo", ["-box", file.path])
        #expect(output.status == 0)
        let size = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("Page size:") })
        let numbers = size.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count >= 2)
        #expect(abs(numbers[0] - (148 + 6) * Self.k) < 0.01 && abs(numbers[1] - (105 + 6) * Self.k) < 0.01, "\(size)")
        let trim = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("TrimBox:") })
        let box = trim.split(separator: " ").compactMap { Double($0) }
        #expect(box.count == 4 && abs(box[0] - 3 * Self.k) < 0.01 && abs(box[2] - 151 * Self.k) < 0.01, "\(trim)")
        #expect(
            output.stdout.split(separator: "\n").contains { $0.hasPrefix("Title:") && $0.hasSuffix(" Sample card") }
        )
    }

    @Test func pdftoppmRendersInkWhereTheLayoutPutIt() throws {
        let card = SampleCard()
        let file = try PDFFixtures.temporaryFile(try card.pdf())
        let prefix = file.deletingPathExtension().path
        defer {
            for suffix in [".pdf", "-1.png", "-1.ppm"] { try? FileManager.default.removeItem(atPath: prefix + suffix) }
        }
        // The PNG the brief's tool run produces; pixels are then read from the same render as PPM, which needs no inflate.
        let png = try ExternalTool.run("pdftoppm", ["-r", "72", "-png", file.path, prefix])
        #expect(png.status == 0, "\(png.stderr)")
        let pngBytes = try Data(contentsOf: URL(fileURLWithPath: prefix + "-1.png"))
        #expect(pngBytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let ppm = try ExternalTool.run("pdftoppm", ["-r", "72", file.path, prefix])
        #expect(ppm.status == 0, "\(ppm.stderr)")
        let image = try PortablePixmap(Data(contentsOf: URL(fileURLWithPath: prefix + "-1.ppm")))
        #expect(image.width == Int((154 * Self.k).rounded(.up)) || image.width == Int((154 * Self.k).rounded()))

        // Card millimetres → pixels at 72 dpi (1 px = 1 pt), shifted by the 3 mm bleed.
        func pixel(_ x: Double, _ y: Double) -> (r: Int, g: Int, b: Int) {
            image.pixel(Int(((x + 3) * Self.k).rounded(.down)), Int(((y + 3) * Self.k).rounded(.down)))
        }
        // "Hello" in Liberation Sans 36 pt. fontTools: H's left stem spans x 168...359 units, its counter 359...1121 above
        // the bar (y 813...1409), of 2048 units per em.
        let line = card.layouts[0].layout.lines[0]
        let unit = 36 / 2048.0 * 25.4 / 72
        let stem = pixel(line.glyphs[0].x + 263 * unit, line.baseline - 1100 * unit)
        #expect(stem.r < 80 && stem.g < 80 && stem.b < 80, "H stem \(stem)")
        let counter = pixel(line.glyphs[0].x + 740 * unit, line.baseline - 1100 * unit)
        #expect(counter == (255, 255, 255), "inside H \(counter)")
        #expect(pixel(60, 52) == (255, 255, 255), "empty card")
        #expect(pixel(SampleCard.redPatch.x + 10, SampleCard.redPatch.y + 5) == (255, 0, 0))
        #expect(pixel(SampleCard.blueSwatch.x + 7, SampleCard.blueSwatch.y + 5) == (0, 0, 255))
        let photoLeft = pixel(SampleCard.photo.x + 6, SampleCard.photo.y + 8)
        let photoRight = pixel(SampleCard.photo.maxX - 6, SampleCard.photo.y + 8)
        #expect(photoLeft.r > 200 && photoLeft.b < 60, "JPEG left half \(photoLeft)")
        #expect(photoRight.b > 200 && photoRight.r < 60, "JPEG right half \(photoRight)")
        // Every shipped font put ink inside its line's box.
        for (layout, _) in card.layouts {
            let line = layout.lines[0]
            let top = Int(((line.baseline - layout.ascent + 3) * Self.k).rounded(.down))
            let bottom = Int(((line.baseline + 3) * Self.k).rounded(.up))
            let left = Int(((line.x + 3) * Self.k).rounded(.down))
            let right = Int(((line.x + line.width + 3) * Self.k).rounded(.up))
            let ink = (top..<bottom).reduce(0) { count, y in
                count + (left..<right).filter { image.pixel($0, y).r < 128 }.count
            }
            #expect(ink > 20, "\(layout.fontID): \(ink) dark pixels")
        }
    }
}
