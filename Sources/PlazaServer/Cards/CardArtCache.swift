import Foundation
import PlazaCore
import PlazaMedia
import PlazaPDF
import Synchronization

/// Parsed card art, kept in memory: art never changes once uploaded (a new upload is a new id), so a parsed SVG or a
/// decoded PNG serves every later preview and print file. Bounded: the least recently used go first.
final class CardArtCache: Sendable {
    /// What a page's art is, ready to draw.
    enum Art: Sendable {
        case svg(CardArt)
        /// RGB pixels composited over white (cards are printed on white paper), for the PDF; deflated once, when decoded,
        /// so every print after the first reuses the compressed pixels (and the cache holds them compressed).
        case png(PDFImage)
        /// A design's photo (a shopper's JPEG as it is, or PNG pixels over white) and its EXIF orientation.
        case photo(PDFImage, orientation: Int)
    }

    private let entries = Mutex<(items: [UUID: Art], order: [UUID])>(([:], []))
    let capacity: Int
    /// Art is parsed off the event loops, as uploads are.
    let decoding: DecodePool

    init(capacity: Int = 64, decoding: DecodePool = .shared) {
        self.capacity = capacity
        self.decoding = decoding
    }

    func art(_ id: UUID, load: () async throws -> (contentType: String, bytes: Data)?) async throws -> Art? {
        try await cached(id, load: load) { type, bytes in
            guard type == "image/png" else { return .svg(try CardArt(svg: bytes)) }
            let image = try PNGDecoder.decode(bytes)
            return .png(try PDFImage.rgb(width: image.width, height: image.height, pixels: Self.overWhite(image)))
        }
    }

    /// A design's photo ready for a PDF, decoded by `decode` on the decode pool once and kept.
    func photo(
        _ id: UUID,
        load: () async throws -> (contentType: String, bytes: Data)?,
        decode: @escaping @Sendable (String, Data) throws -> (PDFImage, orientation: Int)
    ) async throws -> (image: PDFImage, orientation: Int)? {
        let art = try await cached(id, load: load) { type, bytes in
            let (image, orientation) = try decode(type, bytes)
            return .photo(image, orientation: orientation)
        }
        guard case .photo(let image, let orientation) = art else { return nil }
        return (image, orientation)
    }

    private func cached(
        _ id: UUID,
        load: () async throws -> (contentType: String, bytes: Data)?,
        decode: @escaping @Sendable (String, Data) throws -> Art
    ) async throws -> Art? {
        if let hit = entries.withLock({ state -> Art? in
            guard let art = state.items[id] else { return nil }
            state.order.removeAll { $0 == id }
            state.order.append(id)
            return art
        }) {
            return hit
        }
        guard let (type, bytes) = try await load() else { return nil }
        let art = try await decoding.run { try decode(type, bytes) }
        entries.withLock { state in
            state.items[id] = art
            state.order.append(id)
            while state.order.count > capacity { state.items[state.order.removeFirst()] = nil }
        }
        return art
    }

    /// The picture as 8-bit RGB, transparent parts over white.
    static func overWhite(_ image: PNGImage) -> Data {
        let channels = image.channels
        let samples = image.samples
        var rgb = [UInt8](repeating: 255, count: image.width * image.height * 3)
        for pixel in 0..<(image.width * image.height) {
            let at = pixel * channels
            let (r, g, b, a): (Int, Int, Int, Int) =
                switch channels {
                case 1: (Int(samples[at]), Int(samples[at]), Int(samples[at]), 255)
                case 2: (Int(samples[at]), Int(samples[at]), Int(samples[at]), Int(samples[at + 1]))
                case 3: (Int(samples[at]), Int(samples[at + 1]), Int(samples[at + 2]), 255)
                default: (Int(samples[at]), Int(samples[at + 1]), Int(samples[at + 2]), Int(samples[at + 3]))
                }
            rgb[pixel * 3] = UInt8((r * a + 255 * (255 - a) + 127) / 255)
            rgb[pixel * 3 + 1] = UInt8((g * a + 255 * (255 - a) + 127) / 255)
            rgb[pixel * 3 + 2] = UInt8((b * a + 255 * (255 - a) + 127) / 255)
        }
        return Data(rgb)
    }
}
