import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

@Suite struct JSONWriterTests {
    /// Every character that needs escaping, and some that must not be escaped.
    static let alphabet: [Character] =
        (0..<0x20).map { Character(UnicodeScalar(UInt8($0))) } + [
            "\"", "\\", "/", "\u{7f}", "\u{2028}", "é", "😀", "<", "&", "'", "a", "Z", " ", "0",
        ]

    static func randomText(_ generator: inout some RandomNumberGenerator) -> String {
        String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// The hand-written presence list is the very document Foundation's encoder writes.
    @Test func writesWhatTheEncoderWrites() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let items = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                PresentCustomer(
                    username: Self.randomText(&generator),
                    displayName: Self.randomText(&generator),
                    locationId: UUID(),
                    since: Date(
                        timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000, using: &generator)) + 0.25
                    )
                )
            }
            let page = Page(items: items, nextCursor: round.isMultiple(of: 2) ? nil : Self.randomText(&generator))
            var writer = JSONWriter()
            page.write(to: &writer)
            let written = writer.text
            let encoded = String(decoding: try PlazaJSON.encoder().encode(page), as: UTF8.self)
            #expect(written == encoded)
            if written != encoded { return }
        }
    }
}
