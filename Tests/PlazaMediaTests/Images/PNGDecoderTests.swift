import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// 9×6 PNGs made once by a small Python encoder (zlib + struct, in the PR that added them), every one checked against
/// Pillow 13's decoder before it was kept. Sample `c` of the pixel at (x, y) is `v = 3x + 5y + 7c + xy` modulo 2^depth, or
/// `(2557v + 11c) mod 65536` at 16 bits; palette entry `i` is (40i + 10, 255 − 3i, 7i + 1) mod 256; row `r` of each pass
/// uses filter `r mod 5` (the `filterN` fixtures: filter N on every row). `paletteAlpha4`'s tRNS gives entries 0–9 alpha
/// 25i; the colour-key fixtures make the colour of pixel (2, 1) transparent. `rgb8` carries a tEXt chunk and splits its
/// data over several IDAT chunks.
@Suite struct PNGDecoderTests {
    enum Transparency: Sendable {
        case none, paletteAlpha, colorKey
    }

    struct Fixture: Sendable, CustomTestStringConvertible {
        var name: String
        var colorType: Int
        var depth: Int
        var interlaced: Bool
        var transparency: Transparency
        var png: Data

        init(_ name: String, colorType: Int, depth: Int, interlaced: Bool, transparency: Transparency, base64: String) {
            self.name = name
            self.colorType = colorType
            self.depth = depth
            self.interlaced = interlaced
            self.transparency = transparency
            png = Data(base64Encoded: base64)!
        }

        var testDescription: String { name }
    }

    static func fixture(_ name: String) -> Fixture {
        fixtures.first { $0.name == name }!
    }

    // MARK: The expected pixels, from the formulas above

    static func value(_ x: Int, _ y: Int, _ channel: Int, depth: Int) -> Int {
        let v = 3 * x + 5 * y + 7 * channel + x * y
        return depth == 16 ? (v * 2557 + channel * 11) % 65536 : v % (1 << depth)
    }

    /// The PNG specification's scaling to 8 bits: low depths stretched to 0–255, 16 bits divided by 257 and rounded.
    static func eightBit(_ value: Int, depth: Int) -> UInt8 {
        depth == 16 ? UInt8((Double(value) / 257).rounded()) : UInt8(value * 255 / ((1 << depth) - 1))
    }

    static func expectedPixel(_ fixture: Fixture, x: Int, y: Int) -> [UInt8] {
        let depth = fixture.depth
        switch fixture.colorType {
        case 3:
            let index = value(x, y, 0, depth: depth)
            let entry = [(40 * index + 10) % 256, (255 - 3 * index + 256) % 256, (7 * index + 1) % 256].map {
                UInt8($0)
            }
            return fixture.transparency == .paletteAlpha ? entry + [index < 10 ? UInt8(25 * index % 256) : 255] : entry
        default:
            let channels = [0: 1, 2: 3, 4: 2, 6: 4][fixture.colorType]!
            let raw = (0..<channels).map { value(x, y, $0, depth: depth) }
            let key = (0..<channels).map { value(2, 1, $0, depth: depth) }
            let pixel = raw.map { eightBit($0, depth: depth) }
            return fixture.transparency == .colorKey ? pixel + [raw == key ? 0 : 255] : pixel
        }
    }

    static func expectedSamples(_ fixture: Fixture) -> [UInt8] {
        (0..<6).flatMap { y in (0..<9).flatMap { x in expectedPixel(fixture, x: x, y: y) } }
    }

    // MARK: Reading and writing chunks, independently of the decoder

    static func chunks(_ png: Data) -> [(type: String, body: [UInt8])] {
        let bytes = [UInt8](png)
        var chunks: [(type: String, body: [UInt8])] = []
        var position = 8
        while position + 12 <= bytes.count {
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            chunks.append((type, Array(bytes[(position + 8)..<(position + 8 + length)])))
            position += 12 + length
        }
        return chunks
    }

    static func png(_ chunks: [(type: String, body: [UInt8])]) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for chunk in chunks {
            let typed = Array(chunk.type.utf8) + chunk.body
            bytes += bigEndian(chunk.body.count) + typed + bigEndian(Int(crc(typed)))
        }
        return Data(bytes)
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    /// CRC-32 bit by bit, the slow way the specification's annex describes.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func header(
        width: Int,
        height: Int,
        depth: Int,
        colorType: Int,
        interlace: UInt8 = 0
    ) -> (type: String, body: [UInt8]) {
        ("IHDR", bigEndian(width) + bigEndian(height) + [UInt8(depth), UInt8(colorType), 0, 0, interlace])
    }

    /// A zlib stream of one stored block, so tests can write any scanlines they like.
    static func storedZlib(_ bytes: [UInt8]) -> [UInt8] {
        [
            0x78, 0x01, 0x01, UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8), UInt8(~bytes.count & 0xFF),
            UInt8(~bytes.count >> 8 & 0xFF),
        ]
            + bytes + InflateTests.bigEndianAdler32(bytes)
    }

    // MARK: Tests

    @Test(arguments: fixtures)
    func everyColourTypeAndBitDepthDecodesToTheExpectedPixels(_ fixture: Fixture) throws {
        // The fixture is what its name says.
        let header = try #require(Self.chunks(fixture.png).first)
        #expect(
            header.type == "IHDR" && Int(header.body[8]) == fixture.depth && Int(header.body[9]) == fixture.colorType
        )
        #expect(header.body[12] == (fixture.interlaced ? 1 : 0))
        let image = try PNGDecoder.decode(fixture.png)
        let expected = Self.expectedSamples(fixture)
        #expect(image.width == 9 && image.height == 6)
        #expect(image.channels == expected.count / 54)
        #expect(image.samples == expected)
    }

    @Test(arguments: 0...4)
    func eachScanlineFilterIsUndone(filter: Int) throws {
        let fixture = Self.fixture("filter\(filter)")
        let data = Self.chunks(fixture.png).filter { $0.type == "IDAT" }.flatMap(\.body)
        let scanlines = try Inflate.zlib(data, limit: 1 << 16)
        // RGBA at 8 bits: a filter byte and 36 bytes a row.
        #expect(stride(from: 0, to: scanlines.count, by: 37).allSatisfy { scanlines[$0] == UInt8(filter) })
        #expect(try PNGDecoder.decode(fixture.png).samples == Self.expectedSamples(fixture))
    }

    /// 12×8 RGB, 8 bits, samples from the LCG below, which puts the neighbours on every side of one another (the smooth
    /// fixtures above never make Paeth pick the upper-left pixel): rows use filter `r mod 5` in `noiseRGB8`, Paeth in
    /// `noisePaeth`. Same Python encoder, same Pillow check.
    static let noise: [String: String] = [
        "noiseRGB8": [
            "iVBORw0KGgoAAAANSUhEUgAAAAwAAAAICAIAAABChommAAABM0lEQVR42gEoAdf+AFPDfXiOtE23SC9tRj0Z5XAkTLug41j8eHT6jLGVXK+1MhJT/gGT",
            "0SOZdMogpNxNJLRmz4QxdVT8EkuEZM0+HV9I7GYKxl+drdoCk9m1UJEpKSjdwT3Rh0NQI+us7rN0Fo2OVndOAlFgw1VzwKWNA+f1B+mfuOHTRwomjum0",
            "1EltikEiQhJUDFccQpyTWUBjzHPDzAS4sc9ypPvFMhB5Q0vOUfrNdUrLarDZDeg8TmVyQ7INVXuk+GcAtXTw9qfGFEo6tt+NmjqwDizQfKV78qGO5Vhr",
            "CwrwYrjwnlmsAfazOF7M9zCRKzOjMDyhqOjnv1chaGHa83ogEhmSzUvYA+Lr9QKQ5xTa6SVZ2elijSB+7E0PoCsfiBNmNacqfi+Df7PX7rxc5DzJWpJB",
            "zQIR6QAAAABJRU5ErkJggg==",
        ].joined(),
        "noisePaeth": [
            "iVBORw0KGgoAAAANSUhEUgAAAAwAAAAICAIAAABChommAAABM0lEQVR42gEoAdf+BFPDfSXLN9UplOK2/g6snzMLZ0t8l51clRz+FD2b0P4g1mOezARA",
            "DqaZt3AgWxVqVrRmzxwxdVS8w72EJ/U+HVRIO6YKxl/L8G0Ek9m1VpEp+SiQwT3R7UNQIx2sx8W/FvHnVgcfAsZ4w8pywFL0BNSgm6rl5sniHBPRqdxh",
            "nFBhuEze7/5A4pfso0qcQ1Fdzk4NtwS4sc9ypPvFMhB5Q0vOUfrNdUrLarDZDeg8TmVyQ7INVXuk+GcEA3mu4DPPHiUSondlRlsjdBogginUdtn+zk92",
            "JiCFV64+PLC8BEE/SF7M93DGKwHU/VkagkEBv1e33hfa0XogEhveOw/YA7VS9QSQ5xTa6QiJ2ek8VyBYAE15oCsfCVBmh5qkaZpyf4CfRwxn5HX6kY2w",
            "ovTlNgAAAABJRU5ErkJggg==",
        ].joined(),
    ]

    @Test(arguments: ["noiseRGB8", "noisePaeth"])
    func noisyPixelsTakeEveryBranchOfTheFilters(name: String) throws {
        var seed = 3
        var expected: [UInt8] = []
        for _ in 0..<(12 * 8 * 3) {
            seed = (seed * 1_103_515_245 + 12345) % (1 << 31)
            expected.append(UInt8(seed >> 16 & 0xFF))
        }
        let image = try PNGDecoder.decode(Data(base64Encoded: try #require(Self.noise[name]))!)
        #expect(image.width == 12 && image.height == 8 && image.channels == 3)
        #expect(image.samples == expected)
    }

    @Test func ancillaryChunksAreSkippedAndSplitImageDataJoined() throws {
        let fixture = Self.fixture("rgb8")
        let types = Self.chunks(fixture.png).map(\.type)
        #expect(types.contains("tEXt") && types.filter { $0 == "IDAT" }.count > 2)
        #expect(try PNGDecoder.decode(fixture.png).samples == Self.expectedSamples(fixture))
    }

    @Test func aBadCRCIsRefused() {
        let bytes = [UInt8](Self.fixture("rgb8").png)
        for chunk in Self.chunks(Self.fixture("rgb8").png) {
            guard
                let start = bytes.indices.first(where: {
                    bytes[$0...].starts(with: Array(chunk.type.utf8) + chunk.body)
                })
            else {
                Issue.record("chunk \(chunk.type) not found")
                continue
            }
            // A changed type, body or stored CRC byte.
            for offset in [0, 4 + chunk.body.count / 2, 4 + chunk.body.count + 3] {
                var damaged = bytes
                damaged[start + offset] ^= 0x20
                #expect(throws: PNGDecoder.Failure.damaged, "\(chunk.type) +\(offset)") {
                    try PNGDecoder.decode(Data(damaged))
                }
            }
        }
    }

    @Test func everyCutOffFileIsRefused() {
        let png = Self.fixture("interlacedRGBA16").png
        for length in 0..<png.count {
            let failure: PNGDecoder.Failure = length < 8 ? .notPNG : .truncated
            #expect(throws: failure, "cut at \(length)") { try PNGDecoder.decode(png.prefix(length)) }
        }
    }

    @Test func oversizedDimensionsAreRefusedFromTheHeaderAlone() {
        // Only a header: were the size not refused right there, the missing data would be reported instead.
        for (width, height, depth, colorType) in [
            (100_000, 100_000, 8, 2), (0x7FFF_FFFF, 0x7FFF_FFFF, 16, 6), (8000, 7000, 8, 6),
        ] {
            let png = Self.png([Self.header(width: width, height: height, depth: depth, colorType: colorType)])
            #expect(throws: PNGDecoder.Failure.tooLarge, "\(width)×\(height)") { try PNGDecoder.decode(png) }
        }
        // The limit counts the channels a picture can decode to: RGB may gain alpha from a tRNS chunk.
        let rgb = Self.fixture("rgb8").png
        #expect(throws: PNGDecoder.Failure.tooLarge) { try PNGDecoder.decode(rgb, maxSamples: 9 * 6 * 4 - 1) }
        #expect((try? PNGDecoder.decode(rgb, maxSamples: 9 * 6 * 4)) != nil)
    }

    @Test func invalidHeadersAndChunkOrdersAreRefused() {
        let data = ("IDAT", Self.storedZlib([0, 1, 2]))
        let end = ("IEND", [UInt8]())
        let cases: [(String, [(type: String, body: [UInt8])])] = [
            ("bit depth 3", [Self.header(width: 2, height: 1, depth: 3, colorType: 0), data, end]),
            ("4-bit RGB", [Self.header(width: 2, height: 1, depth: 4, colorType: 2), data, end]),
            ("colour type 5", [Self.header(width: 2, height: 1, depth: 8, colorType: 5), data, end]),
            ("zero width", [Self.header(width: 0, height: 1, depth: 8, colorType: 0), data, end]),
            (
                "interlace method 2",
                [Self.header(width: 2, height: 1, depth: 8, colorType: 0, interlace: 2), data, end]
            ),
            ("data before the header", [data, Self.header(width: 2, height: 1, depth: 8, colorType: 0), end]),
            (
                "two headers",
                [
                    Self.header(width: 2, height: 1, depth: 8, colorType: 0),
                    Self.header(width: 2, height: 1, depth: 8, colorType: 0), data, end,
                ]
            ),
            ("no image data", [Self.header(width: 2, height: 1, depth: 8, colorType: 0), end]),
            (
                "palette picture without a palette",
                [Self.header(width: 2, height: 1, depth: 8, colorType: 3), data, end]
            ),
            (
                "tRNS on RGBA",
                [Self.header(width: 1, height: 1, depth: 8, colorType: 6), ("tRNS", [0, 0, 0, 0, 0, 0]), data, end]
            ),
            (
                "unknown critical chunk",
                [Self.header(width: 2, height: 1, depth: 8, colorType: 0), ("CRIT", [1]), data, end]
            ),
        ]
        for (name, chunks) in cases {
            #expect(throws: PNGDecoder.Failure.damaged, "\(name)") { try PNGDecoder.decode(Self.png(chunks)) }
        }
        // The control: the same chunks in order make a 2×1 gray picture, and an unknown ancillary chunk is skipped.
        let good = Self.png([Self.header(width: 2, height: 1, depth: 8, colorType: 0), ("abCd", [1]), data, end])
        #expect((try? PNGDecoder.decode(good))?.samples == [1, 2])
    }

    @Test func wrongScanlinesAreRefused() {
        let header = Self.header(width: 2, height: 2, depth: 8, colorType: 0)
        func decode(_ scanlines: [UInt8]) throws -> [UInt8] {
            try PNGDecoder.decode(Self.png([header, ("IDAT", Self.storedZlib(scanlines)), ("IEND", [])])).samples
        }
        #expect((try? decode([0, 10, 20, 2, 1, 1])) == [10, 20, 11, 21])
        #expect(throws: PNGDecoder.Failure.damaged, "filter type 5") { try decode([0, 10, 20, 5, 1, 1]) }
        #expect(throws: PNGDecoder.Failure.damaged, "a byte short") { try decode([0, 10, 20, 2, 1]) }
        #expect(throws: PNGDecoder.Failure.damaged, "a byte over") { try decode([0, 10, 20, 2, 1, 1, 0]) }
    }

    @Test func aPaletteIndexPastThePaletteIsRefused() throws {
        // palette2 uses indices 0–3; keep only its first two entries.
        let chunks = Self.chunks(Self.fixture("palette2").png).map { chunk in
            chunk.type == "PLTE" ? (chunk.type, Array(chunk.body.prefix(6))) : chunk
        }
        #expect(throws: PNGDecoder.Failure.damaged) { try PNGDecoder.decode(Self.png(chunks)) }
    }

    @Test func theSizeIsReadFromTheHeaderAlone() throws {
        let size = try #require(PNGDecoder.size(Self.fixture("rgb8").png.prefix(33)))
        #expect(size.width == 9 && size.height == 6)
        #expect(PNGDecoder.size(Self.fixture("rgb8").png.prefix(32)) == nil)
    }

    @Test func damagedImageDataNeverTraps() {
        var random = InflateTests.SplitMix64(seed: 2083)
        for name in ["interlacedRGBA16", "palette4", "rgb8", "interlacedGray1"] {
            let chunks = Self.chunks(Self.fixture(name).png)
            for _ in 0..<150 {
                // Damage behind a correct CRC, so the damage reaches the inflater, the filters and the unpacking.
                let damaged = chunks.map { chunk -> (type: String, body: [UInt8]) in
                    guard chunk.type == "IDAT", random.next() % 2 == 0 else { return chunk }
                    var body = chunk.body
                    body[Int(random.next() % UInt64(body.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                    return (chunk.type, body)
                }
                _ = try? PNGDecoder.decode(Self.png(damaged))
            }
        }
        #expect((try? PNGDecoder.decode(Self.fixture("rgb8").png)) != nil)
    }
}
