import Foundation
import PlazaCore

/// PNG and WebP: their chunks kept or dropped, their sizes read; and the bounds-checked byte reading and CRC-32 the
/// sanitizer shares.
extension ImageSanitizer {
    // MARK: PNG

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// What a PNG needs to be drawn as its author meant: image data, palette, transparency, color and pixel size, APNG frames.
    fileprivate static let keptPNGChunks: Set<String> = [
        "IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "pHYs", "bKGD", "acTL", "fcTL",
        "fdAT",
    ]

    static func sanitizePNG(_ bytes: ByteReader) -> Result<SanitizedImage, ImageRefusal> {
        let damaged = ImageRefusal.invalid("The PNG image is damaged.")
        let incomplete = ImageRefusal.invalid("The PNG image is incomplete; try uploading it again.")
        guard bytes.matches(0, pngSignature) else { return .failure(damaged) }
        var output = pngSignature
        output.reserveCapacity(bytes.count)
        var size: (width: Int, height: Int)?
        var orientation: Int?
        var hasData = false
        var position = 8
        while true {
            guard let length = bytes.u32(position, bigEndian: true), bytes.contains(position + 4, 4) else {
                return .failure(incomplete)
            }
            guard length <= 0x7FFF_FFFF, let type = bytes.ascii(position + 4, 4),
                type.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
            else { return .failure(damaged) }
            guard length <= bytes.count - position - 12, let crc = bytes.u32(position + 8 + length, bigEndian: true)
            else {
                return .failure(incomplete)
            }
            guard UInt32(crc) == CRC32.checksum(bytes.raw[(position + 4)..<(position + 8 + length)]) else {
                return .failure(damaged)
            }
            let data = ByteReader(Array(bytes.raw[(position + 8)..<(position + 8 + length)]))
            if size == nil {
                guard type == "IHDR", length == 13, let width = data.u32(0, bigEndian: true),
                    let height = data.u32(4, bigEndian: true),
                    (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height)
                else { return .failure(damaged) }
                size = (width, height)
            } else if type == "IHDR" {
                return .failure(damaged)
            }
            if type == "IDAT" { hasData = true }
            if type == "eXIf", orientation == nil { orientation = self.orientation(ofEXIFChunk: data) }
            if keptPNGChunks.contains(type) { output += bytes.raw[position..<(position + 12 + length)] }
            position += 12 + length
            if type == "IEND" {
                // Bytes after IEND are not image; they are dropped rather than served.
                guard hasData, let size else { return .failure(damaged) }
                let image = SanitizedImage(
                    format: .png,
                    width: size.width,
                    height: size.height,
                    bytes: Data(output),
                    orientation: orientation ?? 1
                )
                return .success(image)
            }
        }
    }

    // MARK: WebP

    static func sanitizeWebP(_ bytes: ByteReader) -> Result<SanitizedImage, ImageRefusal> {
        let damaged = ImageRefusal.invalid("The WebP image is damaged.")
        let incomplete = ImageRefusal.invalid("The WebP image is incomplete; try uploading it again.")
        guard bytes.matches(0, "RIFF"), bytes.matches(8, "WEBP"), let riffSize = bytes.u32(4, bigEndian: false),
            riffSize >= 4
        else {
            return .failure(damaged)
        }
        guard riffSize <= bytes.count - 8 else { return .failure(incomplete) }
        let end = 8 + riffSize  // bytes past the RIFF are dropped
        var output = Array("RIFF\0\0\0\0WEBP".utf8)
        output.reserveCapacity(bytes.count)
        var canvas: (width: Int, height: Int)?
        var frame: (width: Int, height: Int)?
        var hasImage = false
        var orientation: Int?
        var position = 12
        while position < end {
            guard end - position >= 8, let size = bytes.u32(position + 4, bigEndian: false) else {
                return .failure(incomplete)
            }
            guard let fourCC = bytes.ascii(position, 4) else { return .failure(damaged) }
            let padded = size + size % 2
            guard padded <= end - position - 8, let payload = bytes.slice(position + 8, size) else {
                return .failure(incomplete)
            }
            let whole = bytes.raw[position..<(position + 8 + padded)]
            // The first chunk says which WebP this is: simple lossy, simple lossless, or extended.
            if position == 12, !["VP8 ", "VP8L", "VP8X"].contains(fourCC) { return .failure(damaged) }
            switch fourCC {
            case "VP8X":
                guard position == 12, let flags = payload.u8(0), let width = payload.u24(4), let height = payload.u24(7)
                else {
                    return .failure(damaged)
                }
                canvas = (width + 1, height + 1)
                // The EXIF and XMP chunks go, so the flags announcing them go too.
                output += bytes.raw[position..<(position + 8)]
                output.append(UInt8(flags & ~0x0C))
                output += whole.dropFirst(9)
            case "VP8 ", "VP8L":
                guard let size = fourCC == "VP8 " ? lossySize(payload) : losslessSize(payload) else {
                    return .failure(damaged)
                }
                frame = frame ?? size
                hasImage = true
                output += whole
            case "ANMF":
                hasImage = true
                output += whole
            case "EXIF":
                if orientation == nil { orientation = self.orientation(ofEXIFChunk: payload) }
            case "XMP ":
                break
            default:
                output += whole  // alpha, animation, color profile: what the image is drawn with
            }
            position += 8 + padded
        }
        guard hasImage, let size = canvas ?? frame else { return .failure(damaged) }
        let riff = UInt32(output.count - 8)
        for index in 0..<4 { output[4 + index] = UInt8(truncatingIfNeeded: riff >> (8 * UInt32(index))) }
        return .success(
            SanitizedImage(
                format: .webp,
                width: size.width,
                height: size.height,
                bytes: Data(output),
                orientation: orientation ?? 1
            )
        )
    }

    /// A VP8 key frame: a 3-byte frame tag (bit 0 clear on key frames), start code 9D 01 2A, then 14-bit sizes.
    fileprivate static func lossySize(_ payload: ByteReader) -> (width: Int, height: Int)? {
        guard let tag = payload.u8(0), tag & 1 == 0, payload.matches(3, [0x9D, 0x01, 0x2A]),
            let width = payload.u16(6, bigEndian: false), let height = payload.u16(8, bigEndian: false),
            width & 0x3FFF > 0, height & 0x3FFF > 0
        else { return nil }
        return (width & 0x3FFF, height & 0x3FFF)
    }

    /// A VP8L header: signature 0x2F, then width − 1 and height − 1 in 14 bits each and a 3-bit version that must be 0.
    fileprivate static func losslessSize(_ payload: ByteReader) -> (width: Int, height: Int)? {
        guard payload.u8(0) == 0x2F, let bits = payload.u32(1, bigEndian: false), bits >> 29 == 0 else { return nil }
        return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
    }
}

/// Bounds-checked reads from bytes: every accessor answers nil rather than reading past either end.
struct ByteReader {
    let raw: [UInt8]

    init(_ raw: [UInt8]) {
        self.raw = raw
    }

    var count: Int { raw.count }

    func u8(_ offset: Int) -> Int? {
        offset >= 0 && offset < raw.count ? Int(raw[offset]) : nil
    }

    func u16(_ offset: Int, bigEndian: Bool) -> Int? {
        integer(offset, width: 2, bigEndian: bigEndian)
    }

    /// 24-bit little-endian, as VP8X writes its canvas size.
    func u24(_ offset: Int) -> Int? {
        integer(offset, width: 3, bigEndian: false)
    }

    func u32(_ offset: Int, bigEndian: Bool) -> Int? {
        integer(offset, width: 4, bigEndian: bigEndian)
    }

    /// Whether `count` bytes from `offset` lie within the bytes.
    func contains(_ offset: Int, _ count: Int) -> Bool {
        offset >= 0 && count >= 0 && offset <= raw.count && count <= raw.count - offset
    }

    func slice(_ offset: Int, _ count: Int) -> ByteReader? {
        contains(offset, count) ? ByteReader(Array(raw[offset..<(offset + count)])) : nil
    }

    /// Four-character codes and chunk types; nil when out of bounds or not ASCII.
    func ascii(_ offset: Int, _ count: Int) -> String? {
        guard contains(offset, count) else { return nil }
        let bytes = raw[offset..<(offset + count)]
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    func matches(_ offset: Int, _ expected: [UInt8]) -> Bool {
        contains(offset, expected.count) && raw[offset..<(offset + expected.count)].elementsEqual(expected)
    }

    func matches(_ offset: Int, _ expected: String) -> Bool {
        matches(offset, Array(expected.utf8))
    }

    private func integer(_ offset: Int, width: Int, bigEndian: Bool) -> Int? {
        guard contains(offset, width) else { return nil }
        var value = 0
        for index in 0..<width {
            let byte = Int(raw[bigEndian ? offset + index : offset + width - 1 - index])
            value = value << 8 | byte
        }
        return value
    }
}
