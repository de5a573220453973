import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// A 1200×800 RGBA listing photo saved by Pillow 13 (`Image.save(..., "PNG", optimize=True)`): opaque red top left, opaque
/// blue top right; at the bottom left, 300 columns fully transparent then 300 of green at alpha 128; at the bottom right,
/// one-pixel vertical stripes, black on even columns and white on odd ones.
@Suite struct PNGThumbnailerTests {
    static let photo = fixture(
        [
            "iVBORw0KGgoAAAANSUhEUgAABLAAAAMgCAYAAAAz4JsCAAAWF0lEQVR42u3asQ1CQQwFQZvGoXNTBD9YpJnk5Y5Oq9ubuQEA4DHreQUA8KiXEwAAAABQ",
            "JmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmAB",
            "AAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAA",
            "kCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZg",
            "AQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAA",
            "AJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAm",
            "YAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEA",
            "AACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQ",
            "JmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmAB",
            "AAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAA",
            "kCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZg",
            "AQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAA",
            "AJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAm",
            "YAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEA",
            "AACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQ",
            "JmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmAB",
            "AAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAA",
            "kCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZg",
            "AQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAA",
            "AJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAm",
            "YAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEA",
            "AACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQ",
            "JmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmAB",
            "AAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAA",
            "kCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZg",
            "AQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAA",
            "AJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAm",
            "YAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEA",
            "AACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQ",
            "JmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmAB",
            "AAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAA",
            "kCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZg",
            "AQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAAAJAmYAEAAACQJmABAAAAkCZgAQAA",
            "AJC2TgD8jZuPIwB/8sJ6393s7lhrrbXW2t/XDywAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAA",
            "AADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADS",
            "BCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwA",
            "AAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA",
            "0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQs",
            "AAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAA",
            "ANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIE",
            "LAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAA",
            "AADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADS",
            "BCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwA",
            "AAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA",
            "0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQs",
            "AAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAA",
            "ANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIE",
            "LAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAA",
            "AADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADS",
            "BCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwA",
            "AAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA",
            "0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQs",
            "AAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAA",
            "ANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIE",
            "LAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAA",
            "AADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADS",
            "BCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwA",
            "AAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA",
            "0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQs",
            "AAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAA",
            "ANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIE",
            "LAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAA",
            "AADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADS",
            "BCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwA",
            "AAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSBCwAAAAA",
            "0gQsAAAAANIELAAAAADSBCwAAAAA0gQsAAAAANIELAAAAADSvkxMj2YOQ8gwAAAAAElFTkSuQmCC",
        ].joined()
    )

    static func fixture(_ base64: String) -> Data {
        Data(base64Encoded: base64)!
    }

    /// Made once for the suite: decoding 1200×800 pixels in a debug build takes a moment.
    static let thumbnail = PNGThumbnailer.thumbnail(photo)
    static let tile = (try? PNGDecoder.decode(photo)).flatMap { PNGThumbnailer.tile($0, maxSide: 480) }

    /// SOF0's size and component count, found by walking the JPEG's segments.
    static func baselineFrame(_ jpeg: Data) -> (width: Int, height: Int, components: Int)? {
        let bytes = [UInt8](jpeg)
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            if marker == 0xC0, position + 10 <= bytes.count {
                let height = Int(bytes[position + 5]) << 8 | Int(bytes[position + 6])
                let width = Int(bytes[position + 7]) << 8 | Int(bytes[position + 8])
                return (width, height, Int(bytes[position + 9]))
            }
            position += 2 + length
        }
        return nil
    }

    /// What the tile must hold at (x, y), before JPEG: every region but the stripes lies on whole output pixels, so exactly.
    static func expectedTilePixel(x: Int, y: Int) -> [Int]? {
        switch (x < 240, y < 160) {
        case (true, true): [255, 0, 0]
        case (false, true): [0, 0, 255]
        // Green at alpha 128 over white: (0 × 128 + 255 × 127) / 255 ≈ 127, and 255.
        case (true, false): x < 120 ? [255, 255, 255] : [127, 255, 127]
        case (false, false): nil
        }
    }

    @Test func aLargePNGBecomesABaselineJPEGOfTheTileSize() throws {
        let thumbnail = try #require(Self.thumbnail)
        #expect(thumbnail.prefix(2) == Data([0xFF, 0xD8]) && thumbnail.suffix(2) == Data([0xFF, 0xD9]))
        let frame = try #require(Self.baselineFrame(thumbnail))
        #expect(frame.width == 480 && frame.height == 320 && frame.components == 3)
        #expect(thumbnail.count < Self.photo.count * 4)
    }

    @Test func theThumbnailKeepsThePhotosColours() throws {
        // Read back by the JPEG thumbnailer's own decoder: one pixel per 8×8 block, 60×40.
        let thumbnail = try #require(Self.thumbnail)
        let image = try #require(JPEGThumbnailer.eighthScale(thumbnail))
        #expect(image.scaledWidth == 60 && image.scaledHeight == 40 && image.channels == 3)
        let expectations: [(x: Int, y: Int, colour: [Int], what: String)] = [
            (15, 10, [255, 0, 0], "red"), (45, 10, [0, 0, 255], "blue"),
            (7, 30, [255, 255, 255], "transparent, over white"),
            (22, 30, [127, 255, 127], "half-transparent green"), (45, 30, [128, 128, 128], "fine stripes, averaged"),
        ]
        for expected in expectations {
            let index = (expected.y * image.scaledWidth + expected.x) * 3
            let colour = image.samples[index..<(index + 3)].map { Int($0) }
            #expect(zip(colour, expected.colour).allSatisfy { abs($0 - $1) <= 24 }, "\(expected.what): \(colour)")
        }
    }

    @Test func theTileIsCompositedOverWhiteAndAreaAveraged() throws {
        let tile = try #require(Self.tile)
        #expect(tile.width == 480 && tile.height == 320 && tile.channels == 3)
        var stripes: [Int: Int] = [:]
        for y in 0..<320 {
            for x in 0..<480 {
                let index = (y * 480 + x) * 3
                let pixel = tile.pixels[index..<(index + 3)].map { Int($0) }
                if let expected = Self.expectedTilePixel(x: x, y: y) {
                    #expect(pixel == expected, "(\(x), \(y))")
                } else {
                    // Each tile pixel covers 2.5 stripe columns: one white and a half, or one: 153 or 102. Picking the
                    // nearest pixel instead would give 0 or 255.
                    #expect(
                        pixel[0] == pixel[1] && pixel[1] == pixel[2] && [102, 153].contains(pixel[0]),
                        "(\(x), \(y)): \(pixel)"
                    )
                    stripes[pixel[0], default: 0] += 1
                }
            }
        }
        #expect(stripes[102] == 240 * 160 / 2 && stripes[153] == 240 * 160 / 2)
    }

    @Test func aPictureNoLargerThanTheTileIsServedAsItIs() {
        let gray = PNGDecoderTests.fixture("gray8").png
        #expect(PNGThumbnailer.thumbnail(gray, maxSide: 9) == nil)
        #expect(PNGThumbnailer.thumbnail(gray, maxSide: 20) == nil)
        #expect(PNGThumbnailer.thumbnail(gray, maxSide: 8) != nil)
        #expect(PNGThumbnailer.thumbnail(Self.photo, maxSide: 1200) == nil)
    }

    @Test(arguments: [("gray8", 1), ("grayAlpha16", 1), ("interlacedPalette2", 3), ("rgba16", 3), ("grayKey8", 1)])
    func grayPicturesGiveOneComponentAndColourOnesThree(name: String, components: Int) throws {
        let thumbnail = try #require(PNGThumbnailer.thumbnail(PNGDecoderTests.fixture(name).png, maxSide: 4))
        let frame = try #require(Self.baselineFrame(thumbnail))
        // 9×6 at most 4 wide: 4×3 (6 × 4/9 = 2.7, rounded).
        #expect(frame.width == 4 && frame.height == 3 && frame.components == components)
    }

    @Test func unreadablePicturesGetNoThumbnail() {
        var damaged = [UInt8](Self.photo)
        damaged[damaged.count / 2] ^= 0x01
        for bytes in [
            Data(), Data(damaged), Self.photo.prefix(Self.photo.count / 2), JPEGThumbnailerTests.baseline,
            Data("not a picture".utf8),
        ] {
            #expect(PNGThumbnailer.thumbnail(bytes, maxSide: 64) == nil)
        }
        #expect(PNGThumbnailer.thumbnail(Self.photo, maxSide: 0) == nil)
    }
}
