import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Uploaded pictures: checked by content, stripped of the phone's EXIF and GPS tags before anyone can fetch them, and
/// readable by their uploader alone until something (a listing) uses them; served with an ETag and a year's cache.
@Suite struct MediaTests {
    /// 24×16 pixels from a "SecretPhone", with GPS latitude and longitude and orientation 6 in its EXIF (Pillow made it).
    static let phoneJPEG = Data(
        base64Encoded:
            "/9j/4AAQSkZJRgABAQAAAQABAAD/4QCsRXhpZgAATU0AKgAAAAgAAwEPAAIAAAAMAAAAMgESAAMAAAABAAYAAIglAAQAAAABAAAAPgAAAABTZWNyZXRQaG9uZQAABAABAAIAAAACTgAAAAACAAUAAAADAAAAdAADAAIAAAACRQAAAAAEAAUAAAADAAAAjAAAAAAAAAAwAAAAAQAAAAgAAAABAAAAHgAAAAEAAAALAAAAAQAAACIAAAABAAAAMgAAAAH/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAQABgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDx6x8P9PkrfsfD/T5P0rv7Hw/0+SugsfD/AE+T9K7MTnXmeTkvEO2pwFj4f6fJ+lFevWPh/p8n6UV4lTOve3P07B8Q/u1qf//Z"
    )!

    /// 600×400, red beside blue (Pillow, quality 20): larger than a feed's tile.
    static let wideJPEG = Data(
        base64Encoded:
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDACgcHiMeGSgjISMtKygwPGRBPDc3PHtYXUlkkYCZlo+AjIqgtObDoKrarYqMyP/L2u71////m8H////6/+b9//j/2wBDASstLTw1PHZBQXb4pYyl+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj/wAARCAGQAlgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwCvRRRWJ6AUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABQaKDWlH40Y1/4bEoooruPOCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKAFooorzT1wooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACg0UGtKPxoxr/AMNiUUUV3HnBRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFAC0UUV5p64UUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABQaKDWlH40Y1/4bEoooruPOCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKAFooorzT1wooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACg0UGtKPxoxr/wANiUUUV3HnBRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFAC0UUV5p64UUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABQaKDWlH40Y1/4bEoooruPOCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKAFooorzT1wooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACg0UGtKPxoxr/w2JRRRXcecFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUALRRRXmnrhRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFBooNaUfjRjX/AIbEoooruPOCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKAFooorzT1wooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACg0UGtKPxoxr/w2JRRRXcecFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUALRRRXmnrhRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFBooNaUfjRjX/hsSiiiu484KKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAWiiivNPXCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKDRQa0o/GjGv8Aw2JRRRXcecFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUALRRRXmnrhRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFBooNaUfjRjX/hsSiiiu484KKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAWiiivNPXCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKDRQa0o/GjGv/AA2JRRRXcecFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUALRRRXmnrhRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFBooNaUfjRjX/hsSiiiu484KKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAWiiivNPXCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKDRQa0o/GjGv/DYlFFFdx5wUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAtFFFeaeuFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUGig1pR+NGNf8AhsSiiiu484KKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAWiiivNPXCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKDRQa0o/GjGv/DYlFFFdx5wUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAtFFFeaeuFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUGig1pR+NGNf+GxKKKK7jzgooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigBaKKK809cKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAoNFBrSj8aMa/wDDYlFFFdx5wUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAtFFFeaeuFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUGig1pR+NGNf+GxKKKK7jzgooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigBaKKK809cKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAoNFBrSj8aMa/8ADYlFFFdx5wUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAtFFFeaeuFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUGig1pR+NGNf+GxKKKK7jzgooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigBaKKK809cKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAoNFBrSj8aMa/8NiUUUV3HnBRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFAC0UUV5p64UUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABQaKDWlH40Y1/wCGxKKKK7jzgooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigBaKKK809cKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAoNFBrSj8aMa/8NiUUUV3HnBRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFAC0UUV5p64UUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABQaKDWlH40Y1/4bEoooruPOCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKAP//Z"
    )!

    /// An RGB PNG of red and blue stripes, its pixels in stored (uncompressed) deflate blocks: no zlib needed here.
    /// `claimedHeight` puts another height in the header than the pixels have (a picture cut short, or a lie).
    static func stripedPNG(width: Int, height: Int, claimedHeight: Int? = nil) -> Data {
        rgbPNG(width: width, height: height, claimedHeight: claimedHeight) { x, _ in
            (x / 10) % 2 == 0 ? [220, 30, 30] : [30, 30, 220]
        }
    }

    /// An RGB PNG whose pixel (x, y) is `pixel(x, y)` (three bytes), in stored deflate blocks.
    static func rgbPNG(width: Int, height: Int, claimedHeight: Int? = nil, pixel: (Int, Int) -> [UInt8]) -> Data {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width { raw += pixel(x, y) }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        while offset < raw.count {
            let count = min(65_535, raw.count - offset)
            zlib.append(offset + count == raw.count ? 1 : 0)
            zlib += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        }
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        zlib += withUnsafeBytes(of: ((b << 16) | a).bigEndian, Array.init)
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + typed
                + withUnsafeBytes(of: (~crc).bigEndian, Array.init)
        }
        let header =
            withUnsafeBytes(of: UInt32(width).bigEndian, Array.init)
            + withUnsafeBytes(of: UInt32(claimedHeight ?? height).bigEndian, Array.init)
            + [8, 2, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
                + chunk("IEND", [])
        )
    }

    static func upload(
        _ client: any TestClientProtocol,
        _ data: Data,
        type: String,
        token: String?
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: type]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(
            uri: "/v1/media",
            method: .post,
            headers: headers,
            body: ByteBuffer(bytes: data)
        )
    }

    @Test(arguments: TestEngine.enabled)
    func aPhotoLosesItsLocationAndOnlyItsUploaderSeesItUntilUsed(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let accounts = AccountsDriver(client)
            let ana = try await accounts.signedIn("ana").accessToken
            let ben = try await accounts.signedIn("ben").accessToken
            #expect(
                String(decoding: Self.phoneJPEG, as: UTF8.self).contains("SecretPhone"),
                "the fixture carries what must go"
            )

            let created = try await Self.upload(client, Self.phoneJPEG, type: "image/jpeg", token: ana)
            #expect(created.status == .created, "\(created.text)")
            let upload = try created.decode(MediaUpload.self)
            #expect(upload.contentType == "image/jpeg" && upload.width == 24 && upload.height == 16)

            let fetched = try await client.send(.get, upload.url, token: ana)
            #expect(fetched.status == .ok && fetched.headers[.contentType] == "image/jpeg")
            let bytes = Data(fetched.body.readableBytesView)
            #expect(bytes.starts(with: [0xFF, 0xD8]) && bytes.suffix(2) == Data([0xFF, 0xD9]))
            #expect(!String(decoding: bytes, as: UTF8.self).contains("SecretPhone"), "the camera's EXIF is gone")
            #expect(bytes.firstRange(of: Data([0x88, 0x25])) == nil, "no GPS IFD pointer is left")
            #expect(bytes.count < Self.phoneJPEG.count)
            let etag = try #require(fetched.headers[.eTag])
            #expect(fetched.headers[.cacheControl] == "private, max-age=31536000, immutable")
            let again = try await client.send(.get, upload.url, token: ana, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            // A small picture is its own thumbnail; a large one gets a tile of 480 pixels on its longer side.
            let small = try await client.send(.get, upload.thumbnailUrl, token: ana)
            #expect(small.status == .ok && Data(small.body.readableBytesView) == bytes && small.headers[.eTag] != etag)
            let wide = try await Self.upload(client, Self.wideJPEG, type: "image/jpeg", token: ana).decode(
                MediaUpload.self
            )
            let tile = Data(try await client.send(.get, wide.thumbnailUrl, token: ana).body.readableBytesView)
            let frame = try #require(tile.firstRange(of: Data([0xFF, 0xC0])))
            let size = tile[(frame.lowerBound + 5)..<(frame.lowerBound + 9)].map { Int($0) }
            #expect((size[2] << 8 | size[3], size[0] << 8 | size[1]) == (480, 320), "width 480, height 320")
            // A large PNG's tile is a JPEG of the same size (a photo saved as PNG would weigh megabytes in a feed).
            let png = try await Self.upload(
                client,
                Self.stripedPNG(width: 600, height: 400),
                type: "image/png",
                token: ana
            )
            .decode(MediaUpload.self)
            let pngTile = try await client.send(.get, png.thumbnailUrl, token: ana)
            #expect(
                pngTile.headers[.contentType] == "image/jpeg"
                    && Data(pngTile.body.readableBytesView).starts(with: [0xFF, 0xD8])
            )
            #expect(try await client.send(.get, png.url, token: ana).headers[.contentType] == "image/png")

            // Nobody else, signed in or not, until something uses it.
            #expect(try await client.send(.get, upload.url, token: ben).status == .notFound)
            #expect(try await client.send(.get, upload.url).status == .notFound)
            let user = try #require(try await AccountStore().user(login: "ana", on: services.database.sql))
            let used = try await MediaStore().use(
                [upload.id],
                owner: user.id,
                by: "listing:test",
                on: services.database.sql
            )
            #expect(used == [upload.id])
            #expect(try await client.send(.get, upload.url, token: ben).status == .ok)
        }
    }

    @Test func whatIsNotAPictureOfItsTypeIsRefusedWithWhatToSend() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let ana = try await AccountsDriver(client).signedIn("ana").accessToken
            // An iPhone's HEIC photo, by its content, whatever it says it is.
            var heic = Data([0, 0, 0, 24]) + Data("ftypheic".utf8) + Data([0, 0, 0, 0]) + Data("mif1heic".utf8)
            heic.append(Data(repeating: 0, count: 64))
            let refused = try await Self.upload(client, heic, type: "image/jpeg", token: ana)
            #expect(refused.status == .unsupportedMediaType && refused.problem?.code == .unsupportedMediaType)
            #expect(
                refused.problem?.title.contains("HEIC") == true && refused.problem?.detail?.contains("JPEG") == true
            )
            #expect(
                try await Self.upload(client, Data("hello".utf8), type: "text/plain", token: ana).status
                    == .unsupportedMediaType
            )
            // A JPEG cut short in the upload, and a JPEG that says it is a PNG.
            let cut = try await Self.upload(
                client,
                Self.phoneJPEG.prefix(Self.phoneJPEG.count / 2),
                type: "image/jpeg",
                token: ana
            )
            #expect(cut.status == .unprocessableContent && cut.problem?.code == .invalidImage)
            #expect(
                try await Self.upload(client, Self.phoneJPEG, type: "image/png", token: ana).problem?.code
                    == .invalidImage
            )
            // Over 10 MB, and signed out.
            let huge = try await Self.upload(
                client,
                Data(count: 10 * 1_024 * 1_024 + 1),
                type: "image/jpeg",
                token: ana
            )
            #expect(huge.status == .contentTooLarge)
            #expect(
                try await Self.upload(client, Self.phoneJPEG, type: "image/jpeg", token: nil).status == .unauthorized
            )
        }
    }
}
