import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// A font upload or a damaged file must fail with an error, never crash the process that parses it.
@Suite struct TrueTypeMalformedFontTests {
    @Test func emptyDataIsTruncated() {
        #expect(throws: TrueTypeFontError.truncated(table: "directory")) { try TrueTypeFont(data: Data()) }
    }

    @Test func cffOpenTypeIsRefusedByName() {
        var data = CardTestFonts.data("sans")
        data.replaceSubrange(0..<4, with: Array("OTTO".utf8))
        #expect(throws: TrueTypeFontError.notTrueType(signature: "OTTO")) { try TrueTypeFont(data: data) }
        #expect(TrueTypeFontError.notTrueType(signature: "OTTO").description.contains("CFF"))
    }

    @Test func collectionsAndOtherFilesAreNotTrueType() {
        #expect(throws: TrueTypeFontError.notTrueType(signature: "ttcf")) { try TrueTypeFont(data: Data("ttcf0000".utf8)) }
        #expect(throws: TrueTypeFontError.notTrueType(signature: "%PDF")) { try TrueTypeFont(data: Data("%PDF-1.7".utf8)) }
    }

    @Test func aMissingRequiredTableIsNamed() throws {
        var bytes = [UInt8](CardTestFonts.data("script"))
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        for index in 0..<tables where bytes[(12 + index * 16)..<(16 + index * 16)].elementsEqual("glyf".utf8) {
            bytes.replaceSubrange((12 + index * 16)..<(16 + index * 16), with: Array("xxxx".utf8))
        }
        #expect(throws: TrueTypeFontError.missingTable("glyf")) { try TrueTypeFont(data: Data(bytes)) }
    }

    @Test func everyTruncationThrows() {
        let data = CardTestFonts.data("script")
        var lengths = Array(stride(from: 0, to: 2048, by: 3))
        lengths += stride(from: 2048, to: data.count, by: 997).map { $0 }
        lengths.append(data.count - 1)
        for length in lengths {
            #expect(throws: TrueTypeFontError.self, "prefix of \(length) bytes") { try TrueTypeFont(data: data.prefix(length)) }
        }
    }

    @Test func garbledBytesThrowOrParseButNeverCrash() throws {
        let original = [UInt8](CardTestFonts.data("sans"))
        var random = GarbleGenerator(seed: 0x5EED)
        var parsed = 0
        for _ in 0..<300 {
            var bytes = original
            // Garble the first 4 KB (directory, head, hhea, maxp, OS/2, cmap header) where structure lives, plus a few anywhere.
            for _ in 0..<8 { bytes[Int(random.next() % 4096)] = UInt8(truncatingIfNeeded: random.next()) }
            for _ in 0..<8 { bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next()) }
            guard let font = try? TrueTypeFont(data: Data(bytes)) else { continue }
            parsed += 1
            let card = CardFont(id: "garbled", font: font)
            let layout = CardTypesetter.layout(
                CardTextLabel(text: "Happy birthday, AVATAR é€", font: card, size: 12, box: CardRect(x: 0, y: 0, width: 30, height: 20)))
            #expect(!layout.lines.isEmpty)
            _ = try? font.glyphClosure(layout.lines.flatMap { $0.glyphs.map(\.id) })
        }
        #expect(parsed > 0)
    }

    @Test func locaGoingBackwardsIsMalformed() {
        // A short-format loca whose second entry is below the first.
        let loca = TrueTypeTableBytes.words([4, 2, 8])
        let glyf = [UInt8](repeating: 0, count: 16)
        #expect(throws: TrueTypeFontError.self) {
            try TrueTypeFont.readGlyphLocations(
                TrueTypeReader(bytes: loca, table: "loca"), glyf: TrueTypeReader(bytes: glyf, table: "glyf"), longFormat: false, glyphs: 2)
        }
    }
}

/// Big-endian table bytes for hand-made tables.
private enum TrueTypeTableBytes {
    static func words(_ values: [UInt16]) -> [UInt8] {
        values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}

/// SplitMix64, so the garbling is the same on every run and a failure can be replayed.
private struct GarbleGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
