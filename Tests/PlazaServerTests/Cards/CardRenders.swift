import Foundation
import PlazaCore
import PlazaMedia
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// A preview drawn by Chromium and its print file's first page drawn by poppler, both at 4 pixels a millimetre, for
/// comparing pixel by pixel (the page's top-left pixel is the bleed's corner, 3 mm outside the trim).
struct CardRenders {
    let preview: PNGImage
    let printed: PortablePixmap

    /// `svg` (a standalone preview of a 127 × 177.8 mm card) with its fonts, and `replacing` addresses, inlined.
    static func render(
        svg original: String,
        pdf: Data,
        fonts: CardFonts,
        replacing: [String: String] = [:]
    ) throws -> CardRenders {
        var svg = original.replacingOccurrences(
            of: #"width="133mm" height="183.8mm""#,
            with: #"width="532" height="735.2""#
        )
        for id in CardRules.fontIDs {
            let data = try #require(fonts.files[id])
            svg = svg.replacingOccurrences(
                of: "/v1/cards/fonts/\(id)",
                with: "data:font/ttf;base64,\(data.base64EncodedString())"
            )
        }
        for (from, to) in replacing { svg = svg.replacingOccurrences(of: from, with: to) }
        let folder = try CardPrintTests.temporaryFolder()
        defer {
            if ProcessInfo.processInfo.environment["PLAZA_KEEP_CARD_RENDERS"] == nil {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        print("renders in \(folder.path)")
        try Data(svg.utf8).write(to: folder.appendingPathComponent("card.svg"))
        try pdf.write(to: folder.appendingPathComponent("card.pdf"))
        let shot = folder.appendingPathComponent("preview.png")
        let chromium = try ExternalTool.run(
            "chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--virtual-time-budget=3000", "--window-size=532,735", "--screenshot=\(shot.path)",
                folder.appendingPathComponent("card.svg").absoluteString,
            ]
        )
        #expect(FileManager.default.fileExists(atPath: shot.path), "\(chromium.stderr)")
        let out = folder.appendingPathComponent("print")
        let rendered = try ExternalTool.run(
            "pdftoppm",
            [
                "-r", "101.6", "-f", "1", "-l", "1", "-singlefile", folder.appendingPathComponent("card.pdf").path,
                out.path,
            ]
        )
        #expect(rendered.status == 0, "\(rendered.stderr)")
        return CardRenders(
            preview: try PNGDecoder.decode(try Data(contentsOf: shot)),
            printed: try PortablePixmap(try Data(contentsOf: out.appendingPathExtension("ppm")))
        )
    }

    /// The preview's colour at card millimetres (x, y).
    func previewColour(_ x: Double, _ y: Double) -> (r: Int, g: Int, b: Int) {
        let (px, py) = (Int(((x + 3) * 4).rounded(.down)), Int(((y + 3) * 4).rounded(.down)))
        let at = (py * preview.width + px) * preview.channels
        return (Int(preview.samples[at]), Int(preview.samples[at + 1]), Int(preview.samples[at + 2]))
    }

    /// The print's colour at card millimetres (x, y).
    func printColour(_ x: Double, _ y: Double) -> (r: Int, g: Int, b: Int) {
        printed.pixel(Int(((x + 3) * 4).rounded(.down)), Int(((y + 3) * 4).rounded(.down)))
    }
}
