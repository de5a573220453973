import Foundation
import PlazaCore
import PlazaMedia

/// A raster image to place on a page: a JPEG passed through untouched (DCTDecode, so no recompression loss) or 8-bit RGB
/// pixels (PNG art composited over white), compressed once here with PlazaCore's `Deflate` as /FlateDecode (lossless;
/// Foundation has no zlib on Linux). Compressing when the image is made, not when a PDF is, lets a caller that keeps the
/// image (the server's art cache does) write every print file without compressing megabytes of pixels again.
public struct PDFImage: Sendable, Hashable {
    /// How the samples are stored.
    public enum Encoding: Sendable, Hashable {
        case jpeg
        case rgb
    }

    public let encoding: Encoding
    public let width: Int
    public let height: Int
    /// 1 (gray), 3 (RGB) or 4 (CMYK).
    public let components: Int
    /// Adobe CMYK JPEGs store inverted samples (APP14 "Adobe"), which PDF must be told to undo with /Decode.
    let invertedCMYK: Bool
    /// The stream's bytes: the JPEG file, or the pixels, deflated when `deflated` (raw pixels otherwise, when compressing
    /// would not make them smaller, as with noise).
    let bytes: Data
    let deflated: Bool

    /// Reads width, height and component count from the JPEG's frame header (SOFn); throws for anything else.
    public static func jpeg(_ data: Data) throws -> PDFImage {
        let bytes = [UInt8](data)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw PDFError.invalidJPEG("no SOI marker") }
        var index = 2
        var adobe = false
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { throw PDFError.invalidJPEG("expected a marker at byte \(index)") }
            let marker = bytes[index + 1]
            // Fill bytes and markers without a length (TEM, RSTn) carry no segment.
            if marker == 0xFF || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += marker == 0xFF ? 1 : 2
                continue
            }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else {
                throw PDFError.invalidJPEG("segment past the end")
            }
            let segment = bytes[(index + 4)..<(index + 2 + length)]
            if marker == 0xEE, segment.starts(with: Array("Adobe".utf8)) { adobe = true }
            // SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard segment.count >= 6 else { throw PDFError.invalidJPEG("short frame header") }
                let s = segment.startIndex
                guard segment[s] == 8 else {
                    throw PDFError.invalidJPEG("\(segment[s])-bit samples (only 8-bit print reliably)")
                }
                let height = Int(segment[s + 1]) << 8 | Int(segment[s + 2])
                let width = Int(segment[s + 3]) << 8 | Int(segment[s + 4])
                let components = Int(segment[s + 5])
                guard width > 0, height > 0, [1, 3, 4].contains(components) else {
                    throw PDFError.invalidJPEG("\(width)×\(height) with \(components) components")
                }
                return PDFImage(
                    encoding: .jpeg,
                    width: width,
                    height: height,
                    components: components,
                    invertedCMYK: adobe && components == 4,
                    bytes: data,
                    deflated: false
                )
            }
            if marker == 0xDA || marker == 0xD9 { break }
            index += 2 + length
        }
        throw PDFError.invalidJPEG("no frame header before the scan")
    }

    /// Raw pixels, three bytes (R, G, B) per pixel, rows top to bottom; compressed here, which for print-size art takes a
    /// while (a 300 dpi 5 × 7 in page is 9 MB of pixels): make the image once and keep it.
    public static func rgb(width: Int, height: Int, pixels: Data) throws -> PDFImage {
        guard width > 0, height > 0, pixels.count == width * height * 3 else {
            throw PDFError.invalidImage("\(pixels.count) bytes for \(width)×\(height) RGB pixels")
        }
        let compressed = Deflate.zlib([UInt8](pixels))
        let deflated = compressed.count < pixels.count
        return PDFImage(
            encoding: .rgb,
            width: width,
            height: height,
            components: 3,
            invertedCMYK: false,
            bytes: deflated ? Data(compressed) : pixels,
            deflated: deflated
        )
    }

    /// The image XObject's dictionary entries (without /Length).
    var dictionary: String {
        let space = components == 1 ? "/DeviceGray" : components == 3 ? "/DeviceRGB" : "/DeviceCMYK"
        var entries =
            "/Type /XObject /Subtype /Image /Width \(width) /Height \(height) /ColorSpace \(space) /BitsPerComponent 8"
        if encoding == .jpeg { entries += " /Filter /DCTDecode" }
        if deflated { entries += " /Filter /FlateDecode" }
        if invertedCMYK { entries += " /Decode [1 0 1 0 1 0 1 0]" }
        return entries
    }
}
