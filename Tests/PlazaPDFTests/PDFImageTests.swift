import Foundation
import Testing

@testable import PlazaPDF

/// JPEG pass-through and raw RGB images.
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
        let image = try PDFImage.rgb(width: 2, height: 2, pixels: Data(count: 12))
        #expect(!image.dictionary.contains("/Filter"))
    }
}
