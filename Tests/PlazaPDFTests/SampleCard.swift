import Foundation
import PlazaCore
import PlazaMedia

@testable import PlazaPDF

/// A card front as the shop will make one: an A6 landscape trim with 3 mm bleed, a frame, a red patch, a photo (JPEG)
/// and a raw RGB swatch, and text set by the layout engine in each shipped font.
struct SampleCard {
    static let trimWidth = 148.0
    static let trimHeight = 105.0
    static let redPatch = CardRect(x: 100, y: 60, width: 20, height: 10)
    static let blueSwatch = CardRect(x: 125, y: 60, width: 15, height: 10)
    static let photo = CardRect(x: 100, y: 78, width: 32, height: 16)

    let fonts: [String: CardFont]
    let layouts: [(layout: CardTextLayout, color: PDFColor)]

    init(greeting: String = "Hello") {
        let fonts = Dictionary(
            uniqueKeysWithValues: ["serif", "sans", "script", "display"].map { ($0, PDFFixtures.font($0)) }
        )
        func set(_ text: String, _ font: String, _ size: Double, _ box: CardRect) -> CardTextLayout {
            CardTypesetter.layout(CardTextLabel(text: text, font: fonts[font]!, size: size, box: box))
        }
        self.fonts = fonts
        layouts = [
            (set(greeting, "sans", 36, CardRect(x: 10, y: 8, width: 120, height: 20)), .black),
            (
                set("Happy birthday, dear Zoë!", "serif", 14, CardRect(x: 10, y: 30, width: 85, height: 10)),
                PDFColor(red: 0.1, green: 0.1, blue: 0.4)
            ),
            (set("With love", "script", 20, CardRect(x: 10, y: 44, width: 85, height: 12)), .black),
            (
                set("from the office — 100% “true”.", "display", 12, CardRect(x: 10, y: 62, width: 85, height: 10)),
                .black
            ),
        ]
    }

    func canvas() throws -> PDFCanvas {
        var canvas = PDFCanvas(trimWidth: Self.trimWidth, trimHeight: Self.trimHeight, bleed: 3)
        var frame = PDFPath.rectangle(CardRect(x: 2, y: 2, width: Self.trimWidth - 4, height: Self.trimHeight - 4))
        frame.move(x: 74, y: 98)
        frame.curve(x1: 80, y1: 92, x2: 86, y2: 104, x: 92, y: 98)
        canvas.draw(frame, stroke: PDFColor(red: 0, green: 0.6, blue: 0), lineWidth: 0.5)
        canvas.fill(Self.redPatch, color: PDFColor(red: 1, green: 0, blue: 0))
        let blue = Data((0..<16).flatMap { _ in [UInt8(0), 0, 255] })
        canvas.draw(try PDFImage.rgb(width: 4, height: 4, pixels: blue), in: Self.blueSwatch)
        canvas.draw(try PDFImage.jpeg(PDFFixtures.jpeg), in: Self.photo)
        for (layout, color) in layouts {
            try canvas.draw(layout, font: fonts[layout.fontID]!, color: color)
        }
        return canvas
    }

    func pdf(info: PDFWriter.Info = PDFWriter.Info(title: "Sample card")) throws -> Data {
        var writer = PDFWriter(info: info)
        writer.add(try canvas())
        return try writer.render()
    }
}

/// Byte-level helpers for reading our own output back.
enum PDFBytes {
    static func find(_ needle: String, in bytes: [UInt8], from start: Int = 0) -> Int? {
        let pattern = Array(needle.utf8)
        guard pattern.count <= bytes.count else { return nil }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The file as ASCII text (other bytes as "?"), its /FlateDecode streams inflated, for looking at dictionaries and
    /// content streams.
    static func text(_ data: Data) -> String {
        String(decoding: inflated(data).map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)
    }

    /// The file with every /FlateDecode stream replaced by its decoded bytes (no longer a valid PDF: lengths and offsets
    /// are the compressed ones). Our writer puts a stream's dictionary on the line before `stream`, /Length last.
    static func inflated(_ data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        var out: [UInt8] = []
        var copied = 0
        while let keyword = find("\nstream\n", in: bytes, from: copied) {
            let start = keyword + "\nstream\n".utf8.count
            let line = (bytes[copied..<keyword].lastIndex(of: 0x0A) ?? copied)
            let dictionary = String(decoding: bytes[line..<keyword], as: UTF8.self)
            guard
                let length = dictionary.components(separatedBy: "/Length ").last.flatMap({
                    Int($0.prefix { $0.isNumber })
                })
            else { break }
            out += bytes[copied..<start]
            if dictionary.contains("/FlateDecode"),
                let decoded = try? Inflate.zlib(Array(bytes[start..<(start + length)]), limit: 1 << 26)
            {
                out += decoded
            } else {
                out += bytes[start..<(start + length)]
            }
            copied = start + length
        }
        return out + bytes[copied...]
    }
}
