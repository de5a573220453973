import Foundation
import PlazaCore
import PlazaMedia
import Testing

@testable import PlazaPDF

/// JPEG pass-through and RGB images, deflated.
@Suite struct PDFImageTests {
    @Test func jpegSizeAndComponentsComeFromTheFrameHeader() throws {
        let image = try PDFImage.jpeg(PDFFixtures.jpeg)
        #expect(image.width == 16 && image.height == 8 && image.components == 3)
        #expect(image.dictionary.contains("/Filter /DCTDecode"))
        #expect(image.dictionary.contains("/ColorSpace /DeviceRGB"))
    }

    @Test func notAJPEGThrows() {
        #expect(throws: PDFError.self) { try PDFImage.jpeg(Data("GIF89a".utf8)) }
        #expect(throws: PDFError.self) { try PDFImage.jpeg(PDFFixtures.jpeg.prefix(40)) }
        #expect(throws: PDFError.self) { try PDFImage.jpeg(Data([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9])) }
    }

    @Test func rawPixelsMustMatchTheSize() throws {
        #expect(throws: PDFError.self) { try PDFImage.rgb(width: 2, height: 2, pixels: Data(count: 11)) }
        #expect(throws: PDFError.self) { try PDFImage.rgb(width: 0, height: 4, pixels: Data()) }
    }

    @Test func pixelsAreDeflatedWhenThatMakesThemSmaller() throws {
        // A 40 × 30 gradient: rows repeat, so it shrinks, and reads back exactly.
        var bytes: [UInt8] = []
        for _ in 0..<30 {
            for x in 0..<40 { bytes += [UInt8(x * 6), 128, UInt8(255 - x * 6)] }
        }
        let gradient = Data(bytes)
        let image = try PDFImage.rgb(width: 40, height: 30, pixels: gradient)
        #expect(image.dictionary.contains("/Filter /FlateDecode") && !image.dictionary.contains("DCTDecode"))
        #expect(image.bytes.count < gradient.count / 4)
        #expect(try Inflate.zlib([UInt8](image.bytes), limit: gradient.count) == [UInt8](gradient))
        // Noise does not shrink: its bytes are written as they are, with no filter.
        var state: UInt32 = 2_463_534_242
        let noise = Data(
            (0..<48).map { _ in
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                return UInt8(truncatingIfNeeded: state)
            }
        )
        let raw = try PDFImage.rgb(width: 4, height: 4, pixels: noise)
        #expect(!raw.dictionary.contains("/Filter") && raw.bytes == noise)
    }
}
