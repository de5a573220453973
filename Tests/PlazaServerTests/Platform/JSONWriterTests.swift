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
            guard try Self.agree(page) else { return }
        }
    }

    /// A page of listings, each part present or missing, ratings of every average the rules give, any amounts.
    @Test func writesListingsAsTheEncoderDoes() throws {
        var generator = SystemRandomNumberGenerator()
        func date() -> Date {
            Date(timeIntervalSince1970: Double.random(in: 0...4_000_000_000, using: &generator))
        }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &generator) ? value() : nil }
        func amount() -> Int64 {
            [0, 1, -1, 99, Int64.max, Int64.min, Int64.random(in: -1_000_000...1_000_000, using: &generator)]
                .randomElement(using: &generator)!
        }
        for round in 0..<300 {
            let items = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                let ratings = Int.random(in: 0...40, using: &generator)
                let stars = Int.random(in: ratings...(5 * ratings), using: &generator)
                return Listing(
                    id: UUID(),
                    state: ListingState.allCases.randomElement(using: &generator)!,
                    title: Self.randomText(&generator),
                    description: Self.randomText(&generator),
                    price: maybe(Money(amount: amount(), currency: Self.randomText(&generator))),
                    free: Bool.random(using: &generator),
                    category: Self.randomText(&generator),
                    condition: ListingCondition.allCases.randomElement(using: &generator)!,
                    photos: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        ListingPhoto(id: UUID(), url: Self.randomText(&generator), thumbnailUrl: "/a/b?c=d")
                    },
                    seller: ListingSeller(
                        username: Self.randomText(&generator),
                        displayName: Self.randomText(&generator),
                        rating: maybe(RatingSummary(count: ratings, stars: stars)),
                        memberSince: maybe(date()),
                        sales: maybe(Int.random(in: 0...10_000, using: &generator))
                    ),
                    createdAt: date(),
                    updatedAt: date(),
                    soldTo: maybe(Self.randomText(&generator)),
                    bidding: maybe(
                        Bidding(
                            currentPrice: amount(),
                            bidCount: Int.random(in: 0...500, using: &generator),
                            reserveMet: Bool.random(using: &generator),
                            endsAt: date(),
                            leading: Bool.random(using: &generator),
                            closed: Bool.random(using: &generator),
                            minimumBid: amount()
                        )
                    )
                )
            }
            let page = Page(items: items, nextCursor: round.isMultiple(of: 2) ? nil : Self.randomText(&generator))
            guard try Self.agree(page) else { return }
        }
    }

    /// Whether `JSONWriter` writes `page` as Foundation's encoder does (recorded as an issue when not).
    static func agree(_ page: some JSONWritable & Encodable) throws -> Bool {
        var writer = JSONWriter()
        page.write(to: &writer)
        let encoded = String(decoding: try PlazaJSON.encoder().encode(page), as: UTF8.self)
        #expect(writer.text == encoded)
        return writer.text == encoded
    }
}
