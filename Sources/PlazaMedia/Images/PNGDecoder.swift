import Foundation
import PlazaCore

/// Decodes a PNG to 8-bit pixels without an image library: every colour type and bit depth, palettes with transparency,
/// the five scanline filters and Adam7 interlacing.
///
/// Uploads are hostile until proven otherwise: every chunk's CRC is checked, every read bounds-checked, and the size the
/// header claims is refused before anything is allocated for it when it passes the caller's limit; the compressed data is
/// then inflated to exactly the size the header implies, never more.
public enum PNGDecoder {
    /// Why a PNG was refused.
    public enum Failure: Error, Sendable, Hashable {
        /// The bytes do not start with the PNG signature.
        case notPNG
        /// A bad CRC, header, chunk order, palette index, filter or compressed stream.
        case damaged
        /// The file ends before its image data or IEND chunk does.
        case truncated
        /// The header's width × height × channels passes the caller's limit.
        case tooLarge
    }

    /// 50 megapixels with four channels each (the most a PNG decodes to): larger than any phone camera's photo.
    public static let defaultMaxSamples = 200_000_000

    /// The picture at 8 bits a sample; throws `PNGDecoder.Failure`. `maxSamples` bounds width × height × channels,
    /// counting the alpha channel a tRNS chunk may add, and is checked on the header, before decoding.
    public static func decode(_ png: Data, maxSamples: Int = defaultMaxSamples) throws -> PNGImage {
        let chunks = try readChunks([UInt8](png), maxSamples: maxSamples)
        let header = chunks.header
        var raw: [UInt8]
        do {
            raw = try Inflate.zlib(chunks.data, limit: header.rawCount, expectedCount: header.rawCount)
        } catch Inflate.Failure.truncated {
            throw Failure.truncated
        } catch {
            throw Failure.damaged
        }
        guard raw.count == header.rawCount else { throw Failure.damaged }
        return try PixelConverter(header: header, palette: chunks.palette, transparency: chunks.transparency).image(
            from: &raw
        )
    }

    /// The width and height in the IHDR chunk (CRC checked), without decoding: nil when that much is unreadable.
    public static func size(_ png: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](png.prefix(33))
        guard bytes.count == 33, bytes.starts(with: signature), integer(bytes, 8) == 13,
            bytes[12..<16].elementsEqual("IHDR".utf8),
            UInt32(integer(bytes, 29)) == CRC32.checksum(bytes[12..<29])
        else { return nil }
        let width = integer(bytes, 16)
        let height = integer(bytes, 20)
        return width > 0 && height > 0 ? (width, height) : nil
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// IHDR's fields, and the sizes that follow from them.
    struct Header {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool

        /// Samples a pixel has in the file: gray, RGB, palette index, gray + alpha, RGBA.
        var fileChannels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1 }
        var bitsPerPixel: Int { fileChannels * bitDepth }
        /// The most channels the decoded picture can have, once tRNS is counted (a palette becomes RGB or RGBA).
        var maxChannels: Int { [0: 2, 2: 4, 3: 4, 4: 2, 6: 4][colorType] ?? 4 }

        /// Adam7's passes as (first column, first row, column step, row step); one pass over everything when not interlaced.
        var passes: [(x: Int, y: Int, dx: Int, dy: Int)] {
            guard interlaced else { return [(0, 0, 1, 1)] }
            return [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        }

        /// A pass's size in pixels; an empty pass has no bytes at all, not even filter bytes.
        func passSize(_ pass: (x: Int, y: Int, dx: Int, dy: Int)) -> (width: Int, height: Int) {
            (
                width > pass.x ? (width - pass.x + pass.dx - 1) / pass.dx : 0,
                height > pass.y ? (height - pass.y + pass.dy - 1) / pass.dy : 0
            )
        }

        func rowBytes(width: Int) -> Int {
            (width * bitsPerPixel + 7) / 8
        }

        /// The inflated size: for each pass, each row's filter byte and packed samples.
        var rawCount: Int {
            passes.reduce(0) { total, pass in
                let size = passSize(pass)
                return size.width == 0 ? total : total + size.height * (1 + rowBytes(width: size.width))
            }
        }
    }

    /// The chunks that matter, CRC-checked and in a legal order; `data` is the IDAT chunks' contents joined.
    static func readChunks(
        _ bytes: [UInt8],
        maxSamples: Int
    ) throws -> (header: Header, palette: [UInt8]?, transparency: [UInt8]?, data: [UInt8]) {
        guard bytes.starts(with: signature) else { throw Failure.notPNG }
        var header: Header?
        var palette: [UInt8]?
        var transparency: [UInt8]?
        var data: [UInt8] = []
        var position = signature.count
        while true {
            guard bytes.count - position >= 12 else { throw Failure.truncated }
            let length = integer(bytes, position)
            guard length <= 0x7FFF_FFFF else { throw Failure.damaged }
            guard length <= bytes.count - position - 12 else { throw Failure.truncated }
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            let body = (position + 8)..<(position + 8 + length)
            guard UInt32(integer(bytes, body.upperBound)) == CRC32.checksum(bytes[(position + 4)..<body.upperBound])
            else {
                throw Failure.damaged
            }
            position = body.upperBound + 4
            guard let known = header else {
                guard type == "IHDR" else { throw Failure.damaged }
                header = try readHeader(bytes[body], maxSamples: maxSamples)
                continue
            }
            switch type {
            case "IHDR":
                throw Failure.damaged
            case "PLTE":
                // Gray pictures must not have one; for RGB ones it is only a suggestion, which a decoder may ignore.
                guard palette == nil, data.isEmpty, known.colorType != 0, known.colorType != 4, length % 3 == 0,
                    (3...768).contains(length), known.colorType != 3 || length / 3 <= 1 << known.bitDepth
                else { throw Failure.damaged }
                if known.colorType == 3 { palette = Array(bytes[body]) }
            case "tRNS":
                let expected = [0: 2, 2: 6][known.colorType] ?? (palette?.count ?? 0) / 3
                guard transparency == nil, data.isEmpty, known.colorType == 3 ? length <= expected : length == expected,
                    known.colorType != 4, known.colorType != 6
                else { throw Failure.damaged }
                transparency = Array(bytes[body])
            case "IDAT":
                guard known.colorType != 3 || palette != nil else { throw Failure.damaged }
                data += bytes[body]
            case "IEND":
                guard !data.isEmpty else { throw Failure.damaged }
                return (known, palette, transparency, data)
            default:
                // An unknown chunk whose type starts with a capital letter is critical: the picture cannot be drawn without it.
                guard type.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }),
                    type.utf8.first! >= 0x61
                else {
                    throw Failure.damaged
                }
            }
        }
    }

    static func readHeader(_ body: ArraySlice<UInt8>, maxSamples: Int) throws -> Header {
        let bytes = Array(body)
        guard bytes.count == 13 else { throw Failure.damaged }
        let header = Header(
            width: integer(bytes, 0),
            height: integer(bytes, 4),
            bitDepth: Int(bytes[8]),
            colorType: Int(bytes[9]),
            interlaced: bytes[12] == 1
        )
        let depths: [Int: Set<Int>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard (1...0x7FFF_FFFF).contains(header.width), (1...0x7FFF_FFFF).contains(header.height),
            depths[header.colorType]?.contains(header.bitDepth) == true, bytes[10] == 0, bytes[11] == 0, bytes[12] <= 1
        else { throw Failure.damaged }
        let pixels = header.width.multipliedReportingOverflow(by: header.height)
        let samples = pixels.partialValue.multipliedReportingOverflow(by: header.maxChannels)
        guard !pixels.overflow, !samples.overflow, samples.partialValue <= maxSamples else { throw Failure.tooLarge }
        return header
    }

    /// A big-endian 32-bit integer; callers have checked the four bytes are there.
    static func integer(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }
}

/// A decoded PNG: 8 bits a sample, alpha straight (not premultiplied).
public struct PNGImage: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA. A palette gives RGB, or RGBA with a tRNS chunk; a tRNS colour key adds alpha.
    public var channels: Int
    /// Row by row, `channels` bytes a pixel.
    public var samples: [UInt8]

    /// A picture from its samples, as the decoder answers it.
    public init(width: Int, height: Int, channels: Int, samples: [UInt8]) {
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
    }
}
