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
        #expect(throws: TrueTypeFontError.notTrueType(signature: "ttcf")) {
            try TrueTypeFont(data: Data("ttcf0000".utf8))
        }
        #expect(throws: TrueTypeFontError.notTrueType(signature: "%PDF")) {
            try TrueTypeFont(data: Data("%PDF-1.7".utf8))
        }
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
            #expect(throws: TrueTypeFontError.self, "prefix of \(length) bytes") {
                try TrueTypeFont(data: data.prefix(length))
            }
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
            for _ in 0..<8 {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            guard let font = try? TrueTypeFont(data: Data(bytes)) else { continue }
            parsed += 1
            let card = CardFont(id: "garbled", font: font)
            let layout = CardTypesetter.layout(
                CardTextLabel(
                    text: "Happy birthday, AVATAR é€",
                    font: card,
                    size: 12,
                    box: CardRect(x: 0, y: 0, width: 30, height: 20)
                )
            )
            #expect(!layout.lines.isEmpty)
            _ = try? font.glyphClosure(layout.lines.flatMap { $0.glyphs.map(\.id) })
        }
        #expect(parsed > 0)
    }

    /// Where a table's directory record is (its offset and length follow the tag and checksum).
    static func directoryRecord(_ bytes: [UInt8], _ tag: String) -> Int? {
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        return (0..<tables).map { 12 + $0 * 16 }.first { bytes[$0..<($0 + 4)].elementsEqual(tag.utf8) }
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> Int {
        bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// A GPOS that cannot be read is ignored: EB Garamond (no `kern` table) then sets unkerned, and still sets.
    @Test func aMalformedGPOSIsIgnoredAndTheFontSetsUnkerned() throws {
        let original = [UInt8](CardTestFonts.data("serif"))
        let record = try #require(Self.directoryRecord(original, "GPOS"))
        let gpos = Self.u32(original, record + 8)
        var badLookupList = original
        badLookupList[gpos + 8] = 0xFF  // LookupList offset past the table's end
        var cutShort = original
        cutShort.replaceSubrange((record + 12)..<(record + 16), with: [0, 0, 0, 12])  // 12 bytes: the header only
        var badCoverage = original
        // The first kern lookup's first subtable's Coverage format becomes 7 (LookupList → lookup 0 → subtable 0).
        let lookupList = gpos + (Int(original[gpos + 8]) << 8 | Int(original[gpos + 9]))
        let lookup = lookupList + (Int(original[lookupList + 2]) << 8 | Int(original[lookupList + 3]))
        let subtable = lookup + (Int(original[lookup + 6]) << 8 | Int(original[lookup + 7]))
        let coverage = subtable + (Int(original[subtable + 2]) << 8 | Int(original[subtable + 3]))
        badCoverage[coverage + 1] = 7
        for (name, bytes) in [("lookup list", badLookupList), ("cut short", cutShort), ("coverage", badCoverage)] {
            let font = try TrueTypeFont(data: Data(bytes))
            #expect(font.kerningSource == .unkerned, "\(name)")
            #expect(!font.hasKerning && font.kerningPairCount == 0, "\(name)")
            let line = CardTypesetter.layout(
                CardTextLabel(
                    text: "AVAV",
                    font: CardFont(id: "bad", font: font),
                    size: 12,
                    box: CardRect(x: 0, y: 0, width: 100, height: 20)
                )
            ).lines[0]
            #expect(abs(line.width - line.glyphs.reduce(0) { $0 + $1.advance }) < 1e-9, "\(name)")
        }
    }

    @Test func garbledGPOSNeverCrashes() throws {
        let original = [UInt8](CardTestFonts.data("display"))
        let record = try #require(Self.directoryRecord(original, "GPOS"))
        let gpos = Self.u32(original, record + 8)
        let length = Self.u32(original, record + 12)
        var random = GarbleGenerator(seed: 0x6B65_726E)
        for _ in 0..<200 {
            var bytes = original
            // The headers, lists and the first subtables live in the first KB; a few more anywhere in the table.
            for _ in 0..<6 { bytes[gpos + Int(random.next() % 1024)] = UInt8(truncatingIfNeeded: random.next()) }
            for _ in 0..<4 {
                bytes[gpos + Int(random.next() % UInt64(length))] = UInt8(truncatingIfNeeded: random.next())
            }
            // Only GPOS changed, and a GPOS is never fatal.
            let font = try TrueTypeFont(data: Data(bytes))
            let layout = CardTypesetter.layout(
                CardTextLabel(
                    text: "AVATAR To Wa P. fi",
                    font: CardFont(id: "garbled", font: font),
                    size: 12,
                    box: CardRect(x: 0, y: 0, width: 60, height: 20)
                )
            )
            #expect(!layout.lines.isEmpty)
        }
    }

    /// Pair sets shared by thousands of first glyphs would expand to tens of millions of pairs: the work cap refuses it.
    @Test func aGPOSThatWouldExpandWithoutBoundIsRefused() {
        let firsts = 30_000
        let seconds = 1_000
        let pairSet = 10 + 2 * firsts
        var words: [Int] = [
            1, 0, 10, 30, 46, 1, 0x6C61, 0x746E, 8, 4, 0, 0, 0xFFFF, 1, 0, 1, 0x6B65, 0x726E, 8, 0, 2, 0, 0,
        ]
        // LookupList @46: one lookup @50: type 2, one subtable @58: format 1, XAdvance, every pair set the same one.
        words += [1, 4, 2, 0, 1, 8]
        words += [1, pairSet + 2 + 4 * seconds, 4, 0, firsts] + Array(repeating: pairSet, count: firsts)
        words += [seconds] + (0..<seconds).flatMap { [$0, -10] }
        words += [2, 1, 0, 0xFFFE, 0]  // Coverage: every glyph
        let bytes = GPOSBytes.words(words)
        #expect(throws: TrueTypeFontError.self) {
            try TrueTypeGPOSKerning.parse(TrueTypeReader(bytes: bytes, table: "GPOS"), numberOfGlyphs: 0xFFFF)
        }
    }

    /// A class matrix of 65535 × 65535 records costs nothing when its records are empty, and is refused (truncated)
    /// when they are not.
    @Test func aHugeClassMatrixIsNeitherAllocatedNorTrusted() throws {
        func table(valueFormat: Int) -> [UInt8] {
            GPOSBytes.words(
                [1, 0, 10, 30, 46, 1, 0x6C61, 0x746E, 8, 4, 0, 0, 0xFFFF, 1, 0, 1, 0x6B65, 0x726E, 8, 0, 2, 0, 0]
                    + [1, 4, 2, 0, 1, 8]
                    // PairPos format 2 @58: Coverage @+16, ClassDef1 and ClassDef2 @+26 (format 2, no ranges).
                    + [2, 16, valueFormat, 0, 26, 26, 0xFFFF, 0xFFFF]
                    + [2, 1, 0, 0xFFFE, 0, 2, 0]
            )
        }
        let empty = try TrueTypeGPOSKerning.parse(
            TrueTypeReader(bytes: table(valueFormat: 0), table: "GPOS"),
            numberOfGlyphs: 100
        )
        #expect(empty.value(1, 2) == 0 && !empty.hasAdjustments)
        #expect(throws: TrueTypeFontError.truncated(table: "GPOS")) {
            try TrueTypeGPOSKerning.parse(
                TrueTypeReader(bytes: table(valueFormat: 4), table: "GPOS"),
                numberOfGlyphs: 100
            )
        }
    }

    @Test func locaGoingBackwardsIsMalformed() {
        // A short-format loca whose second entry is below the first.
        let loca = TrueTypeTableBytes.words([4, 2, 8])
        let glyf = [UInt8](repeating: 0, count: 16)
        #expect(throws: TrueTypeFontError.self) {
            try TrueTypeFont.readGlyphLocations(
                TrueTypeReader(bytes: loca, table: "loca"),
                glyf: TrueTypeReader(bytes: glyf, table: "glyf"),
                longFormat: false,
                glyphs: 2
            )
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
