import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaMedia
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// A photo card to test against: the shop's wedding invitation with a required 80 × 45 mm photo slot above the names,
/// approved; and photos made here (PNG in stored deflate blocks, no zlib needed).
extension CardsDriver {
    static let slot = CardPhotoSlot(id: "couple", page: .front, x: 23.5, y: 15, width: 80, height: 45, required: true)

    func photoTemplate(_ services: PlazaServices) async throws -> UUID {
        var request = try await Self.request(client, designer, category: wedding, sub: invitations, paper: linen)
        request.name = "Our Photo"
        request.photoSlots = [Self.slot]
        let template = try await Self.template(client, designer, request: request)
        try await Self.approve(client, admin, template, designer: designer)
        return template
    }

    /// `token`'s upload of `data`, answered as stored.
    func uploadPhoto(_ token: String, _ data: Data, type: String = "image/png") async throws -> MediaUpload {
        let response = try await MediaTests.upload(client, data, type: type, token: token)
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(MediaUpload.self)
    }

    /// 50-pixel blocks of red, green and blue in turn, diagonally: a pattern whose placement shows at a glance.
    static func blockColour(_ x: Int, _ y: Int) -> [UInt8] {
        [[220, 30, 30], [30, 160, 60], [30, 30, 220]][(x / 50 + y / 50) % 3]
    }

    static func blockPNG(width: Int, height: Int) -> Data {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width { raw += blockColour(x, y) }
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
            return withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + typed
                + withUnsafeBytes(of: CRC32.checksum(typed[...]).bigEndian, Array.init)
        }
        let header =
            withUnsafeBytes(of: UInt32(width).bigEndian, Array.init)
            + withUnsafeBytes(of: UInt32(height).bigEndian, Array.init) + [8, 2, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
                + chunk("IEND", [])
        )
    }
}
