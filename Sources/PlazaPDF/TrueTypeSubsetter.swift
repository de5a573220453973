import PlazaCore
import PlazaMedia

/// Builds the FontFile2 for a PDF: the font with only the glyphs a document uses.
///
/// Glyph ids are kept (CIDToGIDMap /Identity and the layout's ids stay valid): kept glyphs (those drawn, their composite
/// components and .notdef) keep their outlines, every other glyph becomes empty. Only the tables a PDF TrueType font
/// program needs are written (head, hhea, hmtx, maxp, cvt, fpgm, prep, loca, glyf; no cmap, since glyphs are addressed
/// by id), loca is rewritten in the long format, and every checksum plus head.checkSumAdjustment is recomputed.
enum TrueTypeSubsetter {
    static let keptTables = ["cvt ", "fpgm", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "prep"]

    /// `glyphs` must already include composite components and .notdef (`TrueTypeFont.glyphClosure`); nil keeps them all.
    static func subset(_ font: TrueTypeFont, keeping glyphs: Set<UInt16>?) -> [UInt8] {
        assemble(tables(font, keeping: glyphs))
    }

    /// The subset's tables, unassembled.
    static func tables(_ font: TrueTypeFont, keeping glyphs: Set<UInt16>?) -> [(tag: String, bytes: [UInt8])] {
        var glyf: [UInt8] = []
        var loca: [UInt8] = []
        for glyph in 0..<font.numberOfGlyphs {
            append32(&loca, UInt32(glyf.count))
            guard glyphs?.contains(UInt16(glyph)) ?? true else { continue }
            glyf += font.glyphData(UInt16(glyph))
            while glyf.count % 4 != 0 { glyf.append(0) }
        }
        append32(&loca, UInt32(glyf.count))

        var tables: [(tag: String, bytes: [UInt8])] = []
        for tag in keptTables {
            switch tag {
            case "glyf": tables.append((tag, glyf))
            case "loca": tables.append((tag, loca))
            case "head":
                guard var head = font.table("head"), head.count >= 54 else { continue }
                head.replaceSubrange(8..<12, with: [0, 0, 0, 0])  // checkSumAdjustment, set below
                head.replaceSubrange(50..<52, with: [0, 1])  // indexToLocFormat: long
                tables.append((tag, head))
            default:
                if let bytes = font.table(tag) { tables.append((tag, bytes)) }
            }
        }
        return tables
    }

    /// Writes the sfnt: directory (sorted tags, binary-search fields), then each table padded to 4 bytes.
    static func assemble(_ tables: [(tag: String, bytes: [UInt8])]) -> [UInt8] {
        let sorted = tables.sorted { Array($0.tag.utf8).lexicographicallyPrecedes(Array($1.tag.utf8)) }
        var power = 1
        var log = 0
        while power * 2 <= sorted.count {
            power *= 2
            log += 1
        }
        var out: [UInt8] = []
        append32(&out, 0x0001_0000)
        for value in [sorted.count, power * 16, log, sorted.count * 16 - power * 16] { append16(&out, UInt16(value)) }
        var offset = 12 + sorted.count * 16
        var body: [UInt8] = []
        var headOffset: Int?
        for (tag, bytes) in sorted {
            out += Array(tag.utf8)
            append32(&out, checksum(bytes))
            append32(&out, UInt32(offset))
            append32(&out, UInt32(bytes.count))
            if tag == "head" { headOffset = offset }
            body += bytes
            while body.count % 4 != 0 { body.append(0) }
            offset = 12 + sorted.count * 16 + body.count
        }
        out += body
        if let headOffset {
            let adjustment = 0xB1B0_AFBA &- checksum(out)
            for (index, shift) in [24, 16, 8, 0].enumerated() {
                out[headOffset + 8 + index] = UInt8(truncatingIfNeeded: adjustment >> UInt32(shift))
            }
        }
        return out
    }

    /// The sfnt checksum: the sum of big-endian 32-bit words, the last one zero-padded.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var index = 0
        while index < bytes.count {
            var word: UInt32 = 0
            for byte in 0..<4 { word = word << 8 | UInt32(index + byte < bytes.count ? bytes[index + byte] : 0) }
            sum = sum &+ word
            index += 4
        }
        return sum
    }

    private static func append16(_ out: inout [UInt8], _ value: UInt16) {
        out += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    private static func append32(_ out: inout [UInt8], _ value: UInt32) {
        out += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
