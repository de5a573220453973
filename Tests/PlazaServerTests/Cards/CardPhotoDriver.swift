import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
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
        MediaTests.rgbPNG(width: width, height: height, pixel: blockColour)
    }
}
