import Foundation
import PlazaCore
import PlazaMedia
import Testing

/// Uploads as phones and editors write them, made with Pillow 13 (16×12 gradients): a JPEG with EXIF (maker, GPS
/// latitude/longitude, Orientation 6), an XMP APP1 and a COM "secret"; a progressive JPEG; a PNG with tEXt "Comment
/// secret" and an eXIf chunk; a lossy WebP in a VP8X container with EXIF and XMP chunks; a lossless WebP.
@Suite struct ImageSanitizerTests {
    static let jpeg = fixture(
        [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/4QCsRXhpZgAATU0AKgAAAAgAAwEPAAIAAAALAAAAMgESAAMAAAABAAYAAIglAAQAAAABAAAAPgAAAABQaG9uZU1h",
            "a2VyAAAABAABAAIAAAACTgAAAAACAAUAAAADAAAAdAADAAIAAAACVwAAAAAEAAUAAAADAAAAjAAAAAAAAAArAAAAAQAAAAQAAAABAAAAGQAAAAIAAABM",
            "AAAAAQAAAAgAAAABAAAAJQAAAAT/4QDuaHR0cDovL25zLmFkb2JlLmNvbS94YXAvMS4wLwA8eDp4bXBtZXRhIHhtbG5zOng9ImFkb2JlOm5zOm1ldGEv",
            "Ij48cmRmOlJERiB4bWxuczpyZGY9Imh0dHA6Ly93d3cudzMub3JnLzE5OTkvMDIvMjItcmRmLXN5bnRheC1ucyMiPjxyZGY6RGVzY3JpcHRpb24geG1s",
            "bnM6eG1wPSJodHRwOi8vbnMuYWRvYmUuY29tL3hhcC8xLjAvIiB4bXA6Q3JlYXRvclRvb2w9InNlY3JldCIvPjwvcmRmOlJERj48L3g6eG1wbWV0YT7/",
            "/gAIc2VjcmV0/9sAQwAQCwwODAoQDg0OEhEQExgoGhgWFhgxIyUdKDozPTw5Mzg3QEhcTkBEV0U3OFBtUVdfYmdoZz5NcXlwZHhcZWdj/9sAQwEREhIY",
            "FRgvGhovY0I4QmNjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj/8AAEQgADAAQAwEiAAIRAQMRAf/EAB8AAAEF",
            "AQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYX",
            "GBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TF",
            "xsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/EAB8BAAMBAQEBAQEBAQEAAAAAAAABAgMEBQYHCAkKC//EALURAAIBAgQEAwQHBQQEAAEC",
            "dwABAgMRBAUhMQYSQVEHYXETIjKBCBRCkaGxwQkjM1LwFWJy0QoWJDThJfEXGBkaJicoKSo1Njc4OTpDREVGR0hJSlNUVVZXWFlaY2RlZmdoaWpzdHV2",
            "d3h5eoKDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uLj5OXm5+jp6vLz9PX29/j5+v/aAAwDAQACEQMR",
            "AD8A52203p8taltpfT5a1LWCPjiti1t4+OK8xVXPcMBjpaH/2Q==",
        ].joined()
    )
    static let progressiveJPEG = fixture(
        [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxl",
            "Z2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wgARCAAMABADASIAAhEB",
            "AxEB/8QAFQABAQAAAAAAAAAAAAAAAAAABAX/xAAVAQEBAAAAAAAAAAAAAAAAAAAABP/aAAwDAQACEAMQAAABnKUyV//EABcQAAMBAAAAAAAAAAAAAAAA",
            "AAABAgP/2gAIAQEAAQUCnMnIlImUf//EABYRAQEBAAAAAAAAAAAAAAAAAAMAAf/aAAgBAwEBPwEH2//EABYRAAMAAAAAAAAAAAAAAAAAAAAREv/aAAgB",
            "AgEBPwGmf//EABQQAQAAAAAAAAAAAAAAAAAAACD/2gAIAQEABj8CH//EABYQAQEBAAAAAAAAAAAAAAAAAGEAEP/aAAgBAQABPyEYN0//2gAMAwEAAgAD",
            "AAAAEAv/xAAVEQEBAAAAAAAAAAAAAAAAAAAAIf/aAAgBAwEBPxCR/8QAFhEBAQEAAAAAAAAAAAAAAAAAAQAx/9oACAECAQE/EB7v/8QAFhABAQEAAAAA",
            "AAAAAAAAAAAAACEx/9oACAEBAAE/EMjIiiCP/9k=",
        ].joined()
    )
    static let png = fixture(
        [
            "iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAADnRFWHRDb21tZW50AHNlY3JldGSqxSkAAACkZVhJZk1NACoAAAAIAAMBDwACAAAACwAA",
            "ADIBEgADAAAAAQAGAACIJQAEAAAAAQAAAD4AAAAAUGhvbmVNYWtlcgAAAAQAAQACAAAAAk4AAAAAAgAFAAAAAwAAAHQAAwACAAAAAlcAAAAABAAFAAAA",
            "AwAAAIwAAAAAAAAAKwAAAAEAAAAEAAAAAQAAABkAAAACAAAATAAAAAEAAAAIAAAAAQAAACUAAAAE1NPqAwAAAENJREFUeJyVy7kNACAMBLAL/9NQsP+s",
            "dAgBCUFyawLQfjh0AKQ3g1Fag9XYgns6g5ddQxBwIXKEkK7kkE/PUDaaUFcDkP0E/DG3LXIAAAAASUVORK5CYII=",
        ].joined()
    )
    static let webp = fixture(
        [
            "UklGRt4BAABXRUJQVlA4WAoAAAAMAAAADwAACwAAVlA4IDwAAADwAQCdASoQAAwAAsBMJbACdLoAAwguL4AA/vlSfVhQomb5LXcAcFe3ZWlSDuqEb79P",
            "p5h0/+JhNR0/gABFWElGpAAAAE1NACoAAAAIAAMBDwACAAAACwAAADIBEgADAAAAAQAGAACIJQAEAAAAAQAAAD4AAAAAUGhvbmVNYWtlcgAAAAQAAQAC",
            "AAAAAk4AAAAAAgAFAAAAAwAAAHQAAwACAAAAAlcAAAAABAAFAAAAAwAAAIwAAAAAAAAAKwAAAAEAAAAEAAAAAQAAABkAAAACAAAATAAAAAEAAAAIAAAA",
            "AQAAACUAAAAEWE1QIM8AAAA8eDp4bXBtZXRhIHhtbG5zOng9ImFkb2JlOm5zOm1ldGEvIj48cmRmOlJERiB4bWxuczpyZGY9Imh0dHA6Ly93d3cudzMu",
            "b3JnLzE5OTkvMDIvMjItcmRmLXN5bnRheC1ucyMiPjxyZGY6RGVzY3JpcHRpb24geG1sbnM6eG1wPSJodHRwOi8vbnMuYWRvYmUuY29tL3hhcC8xLjAv",
            "IiB4bXA6Q3JlYXRvclRvb2w9InNlY3JldCIvPjwvcmRmOlJERj48L3g6eG1wbWV0YT4A",
        ].joined()
    )
    static let losslessWebP = fixture("UklGRi4AAABXRUJQVlA4TCIAAAAvD8ACALkyRPQ/dlH/6H+ASNumIu7f7tjxQExATABcB+s/")

    /// A HEIC's first box as an iPhone writes it: `ftyp`, major brand heic, compatible brands mif1 and heic.
    static let heic = Data([0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
    static let gif = Data(Array("GIF89a".utf8) + [0x10, 0x00, 0x0C, 0x00, 0x80, 0x00, 0x00])

    static func fixture(_ base64: String) -> Data {
        Data(base64Encoded: base64) ?? Data()
    }

    // MARK: Sniffing and declared types

    @Test func sniffingNamesEachFormatByItsContent() {
        let avif = Data([0, 0, 0, 28] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8))
        let mp4 = Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8))
        let bmp = Data(
            Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0] + [UInt8](repeating: 0, count: 36)
        )
        #expect(ImageSanitizer.sniff(Self.jpeg) == "image/jpeg")
        #expect(ImageSanitizer.sniff(Self.progressiveJPEG) == "image/jpeg")
        #expect(ImageSanitizer.sniff(Self.png) == "image/png")
        #expect(ImageSanitizer.sniff(Self.webp) == "image/webp")
        #expect(ImageSanitizer.sniff(Self.losslessWebP) == "image/webp")
        #expect(ImageSanitizer.sniff(Self.heic) == "image/heic")
        #expect(ImageSanitizer.sniff(avif) == "image/avif")
        #expect(ImageSanitizer.sniff(Self.gif) == "image/gif")
        #expect(ImageSanitizer.sniff(bmp) == "image/bmp")
        #expect(ImageSanitizer.sniff(Data("II*\0\u{8}\0\0\0".utf8)) == "image/tiff")
        #expect(ImageSanitizer.sniff(Data("MM\0*\0\0\0\u{8}".utf8)) == "image/tiff")
        #expect(ImageSanitizer.sniff(Data("%PDF-1.7\n".utf8)) == "application/pdf")
        #expect(ImageSanitizer.sniff(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == "image/svg+xml")
        #expect(
            ImageSanitizer.sniff(Data("<?xml version=\"1.0\"?>\n<!-- map -->\n<svg width=\"1\"/>".utf8))
                == "image/svg+xml"
        )
        #expect(ImageSanitizer.sniff(Data("<?xml version=\"1.0\"?><note/>".utf8)) == nil)
        #expect(ImageSanitizer.sniff(mp4) == nil)
        #expect(ImageSanitizer.sniff(Data("Bonjour".utf8)) == nil)
        #expect(ImageSanitizer.sniff(Data()) == nil)
    }

    @Test func aHEICIsUnsupportedEvenWhenDeclaredAsJPEG() {
        #expect(ImageSanitizer.sanitize(Self.heic, declared: "image/jpeg") == .failure(.unsupported("HEIC")))
        #expect(ImageSanitizer.sanitize(Self.heic, declared: "image/heic") == .failure(.unsupported("HEIC")))
    }

    @Test func aGIFIsUnsupportedWhateverItIsDeclaredAs() {
        #expect(ImageSanitizer.sanitize(Self.gif, declared: "image/gif") == .failure(.unsupported("GIF")))
        #expect(ImageSanitizer.sanitize(Self.gif, declared: "image/png") == .failure(.unsupported("GIF")))
    }

    @Test func aPNGDeclaredAsJPEGIsInvalid() {
        #expect(
            ImageSanitizer.sanitize(Self.png, declared: "image/jpeg")
                == .failure(.invalid("The file is not a JPEG image."))
        )
        #expect(
            ImageSanitizer.sanitize(Self.jpeg, declared: "image/webp")
                == .failure(.invalid("The file is not a WebP image."))
        )
    }

    @Test func randomBytesDeclaredAsPNGAreInvalid() {
        var generator = SeededGenerator(seed: 7)
        let noise = Data((0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(ImageSanitizer.sniff(noise) == nil)
        #expect(
            ImageSanitizer.sanitize(noise, declared: "image/png") == .failure(.invalid("The file is not a PNG image."))
        )
    }

    @Test func aDeclaredTypeThatIsNotAnImageIsUnsupported() {
        #expect(ImageSanitizer.sanitize(Self.png, declared: "text/plain") == .failure(.unsupported("text/plain")))
        #expect(
            ImageSanitizer.sanitize(Self.png, declared: "text/plain; charset=utf-8")
                == .failure(.unsupported("text/plain"))
        )
    }

    @Test func declaredTypesIgnoreCaseAndParameters() throws {
        let image = try ImageSanitizer.sanitize(Self.png, declared: " Image/PNG; charset=binary").get()
        #expect(image.format == .png)
    }

    @Test func eachFormatSanitizesToItsTypeAndSize() throws {
        let uploads: [(name: String, data: Data, format: ImageFormat)] = [
            ("JPEG", Self.jpeg, .jpeg), ("progressive JPEG", Self.progressiveJPEG, .jpeg), ("PNG", Self.png, .png),
            ("lossy WebP", Self.webp, .webp), ("lossless WebP", Self.losslessWebP, .webp),
        ]
        for upload in uploads {
            let image = try ImageSanitizer.sanitize(upload.data, declared: upload.format.rawValue).get()
            #expect(image.format == upload.format, "\(upload.name)")
            #expect(image.width == 16, "\(upload.name)")
            #expect(image.height == 12, "\(upload.name)")
            #expect(ImageSanitizer.sniff(image.bytes) == upload.format.rawValue, "\(upload.name)")
        }
    }

    // MARK: PNG

    @Test func aStrippedPNGLosesItsTextAndEXIFButNotItsPixels() throws {
        let image = try ImageSanitizer.sanitize(Self.png, declared: "image/png").get()
        let before = try #require(Self.pngChunks(Self.png))
        let after = try #require(Self.pngChunks(image.bytes))
        #expect(before.map(\.type) == ["IHDR", "tEXt", "eXIf", "IDAT", "IEND"])
        #expect(after.map(\.type) == ["IHDR", "IDAT", "IEND"])
        #expect(after.first { $0.type == "IDAT" }?.data == before.first { $0.type == "IDAT" }?.data)
        #expect(image.bytes.range(of: Data("secret".utf8)) == nil)
        #expect(image.orientation == 6)
    }

    @Test func aPNGWithOneFlippedByteInItsImageDataIsInvalid() throws {
        var damaged = Self.png
        let idat = try #require(Self.png.range(of: Data("IDAT".utf8)))
        damaged[idat.upperBound + 10] ^= 0x01
        #expect(
            ImageSanitizer.sanitize(damaged, declared: "image/png") == .failure(.invalid("The PNG image is damaged."))
        )
    }

    @Test func bytesAfterAPNGsEndAreDropped() throws {
        let image = try ImageSanitizer.sanitize(Self.png + Data("hidden archive".utf8), declared: "image/png").get()
        #expect(image.bytes.suffix(12) == Data([0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]))
        #expect(image.bytes.range(of: Data("hidden".utf8)) == nil)
    }

    @Test func aPNGCutShortIsInvalid() {
        #expect(Self.isInvalid(ImageSanitizer.sanitize(Self.png.prefix(Self.png.count - 12), declared: "image/png")))
    }

    // MARK: WebP

    @Test func aStrippedWebPLosesItsEXIFAndXMPChunksAndTheirFlags() throws {
        let image = try ImageSanitizer.sanitize(Self.webp, declared: "image/webp").get()
        let before = try #require(Self.webpChunks(Self.webp))
        let after = try #require(Self.webpChunks(image.bytes))
        #expect(before.map(\.fourCC) == ["VP8X", "VP8 ", "EXIF", "XMP "])
        #expect(after.map(\.fourCC) == ["VP8X", "VP8 "])
        #expect(before[0].payload[0] & 0x0C == 0x0C)
        #expect(after[0].payload[0] & 0x0C == 0)
        #expect(after[1].payload == before[1].payload)
        let riffSize = image.bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(riffSize == image.bytes.count - 8)
        #expect(image.bytes.range(of: Data("secret".utf8)) == nil)
        #expect(image.orientation == 6)
    }

    @Test func aWebPWithoutAnImageChunkIsInvalid() {
        // A VP8X header for a 16×12 canvas and nothing to draw on it.
        let vp8x = Array("VP8X".utf8) + [10, 0, 0, 0] + [0, 0, 0, 0, 15, 0, 0, 11, 0, 0]
        let webp = Data(Array("RIFF".utf8) + [UInt8(vp8x.count + 4), 0, 0, 0] + Array("WEBP".utf8) + vp8x)
        #expect(
            ImageSanitizer.sanitize(webp, declared: "image/webp") == .failure(.invalid("The WebP image is damaged."))
        )
    }

    @Test func aWebPWhoseRIFFRunsPastItsDataIsInvalid() {
        #expect(Self.isInvalid(ImageSanitizer.sanitize(Self.webp.prefix(Self.webp.count - 1), declared: "image/webp")))
    }

    // MARK: Hostile input

    @Test func mutatedAndTruncatedImagesAreAnsweredWithoutCrashing() {
        var generator = SeededGenerator(seed: 2_024)
        let uploads: [(data: Data, declared: String)] = [
            (Self.jpeg, "image/jpeg"), (Self.progressiveJPEG, "image/jpeg"), (Self.png, "image/png"),
            (Self.webp, "image/webp"),
            (Self.losslessWebP, "image/webp"),
        ]
        for upload in uploads {
            for _ in 0..<200 {
                var mutated = upload.data
                let position = Int.random(in: 0..<mutated.count, using: &generator)
                mutated[position] ^= UInt8.random(in: 1...255, using: &generator)
                // Whatever passes must already be clean: sanitizing it again changes none of its bytes. (Only JPEG keeps its
                // orientation in the bytes, so the orientation is not compared.)
                if case .success(let image) = ImageSanitizer.sanitize(mutated, declared: upload.declared) {
                    let again = try? ImageSanitizer.sanitize(image.bytes, declared: upload.declared).get()
                    #expect(again?.bytes == image.bytes)
                    #expect(again?.width == image.width && again?.height == image.height)
                }
            }
            for _ in 0..<50 {
                let truncated = upload.data.prefix(Int.random(in: 0..<upload.data.count, using: &generator))
                #expect(Self.isInvalid(ImageSanitizer.sanitize(truncated, declared: upload.declared)))
            }
        }
    }

    // MARK: Reading the answers back

    static func isInvalid(_ result: Result<SanitizedImage, ImageRefusal>) -> Bool {
        if case .failure(.invalid) = result { return true }
        return false
    }

    /// The markers of a JPEG's segments up to and including its first SOS, and where that SOS starts.
    static func jpegSegments(_ data: Data) -> (markers: [UInt8], scanStart: Int)? {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var markers: [UInt8] = []
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            markers.append(marker)
            if marker == 0xDA { return (markers, position) }
            position += 2 + Int(bytes[position + 2]) << 8 + Int(bytes[position + 3])
        }
        return nil
    }

    /// The Orientation of a JPEG's APP1 when it is the minimal EXIF block: big-endian IFD0 holding that one tag.
    static func exifOrientation(inJPEG data: Data) -> Int? {
        let bytes = [UInt8](data)
        guard let start = data.range(of: Data([0xFF, 0xE1]))?.lowerBound, start + 36 <= bytes.count else { return nil }
        let app1 = Array(bytes[start..<(start + 36)])
        let word = { (at: Int) in Int(app1[at]) << 8 | Int(app1[at + 1]) }
        guard word(2) == 34, app1[4..<10].elementsEqual("Exif\0\0".utf8), app1[10..<14].elementsEqual("MM\0*".utf8),
            app1[14..<18] == [0, 0, 0, 8], word(18) == 1, word(20) == 0x0112, word(22) == 3,
            app1[24..<28] == [0, 0, 0, 1],
            word(30) == 0, app1[32..<36] == [0, 0, 0, 0]
        else { return nil }
        return word(28)
    }

    static func pngChunks(_ data: Data) -> [(type: String, data: Data)]? {
        let bytes = [UInt8](data)
        var chunks: [(type: String, data: Data)] = []
        var position = 8
        while position + 12 <= bytes.count {
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard position + 12 + length <= bytes.count else { return nil }
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            chunks.append((type, Data(bytes[(position + 8)..<(position + 8 + length)])))
            position += 12 + length
        }
        return chunks
    }

    static func webpChunks(_ data: Data) -> [(fourCC: String, payload: Data)]? {
        let bytes = [UInt8](data)
        var chunks: [(fourCC: String, payload: Data)] = []
        var position = 12
        while position + 8 <= bytes.count {
            let size = bytes[(position + 4)..<(position + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard position + 8 + size <= bytes.count else { return nil }
            let fourCC = String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
            chunks.append((fourCC, Data(bytes[(position + 8)..<(position + 8 + size)])))
            position += 8 + size + size % 2
        }
        return chunks
    }
}

/// SplitMix64: the same "random" bytes on every run, so a failure can be replayed.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
