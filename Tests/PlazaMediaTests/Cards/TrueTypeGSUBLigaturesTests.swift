import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Standard ligatures (GSUB `liga`), checked against HarfBuzz.
///
/// The expected glyphs and clusters come from HarfBuzz 15.0.0 (uharfbuzz 0.57, `python3 -m pip install uharfbuzz`)
/// shaping with `liga` on and every other feature HarfBuzz applies by default off, clusters counted in characters.
/// `python3 liga_hb.py display.ttf office fluffy` prints each word's glyph ids and how many characters each glyph
/// stands for:
///
/// ```python
/// import sys
/// import uharfbuzz as hb
///
/// OFF = ["kern", "calt", "ccmp", "clig", "rlig", "locl", "rclt", "mark", "mkmk", "dlig", "curs", "dist",
///        "abvm", "blwm", "rvrn", "frac", "numr", "dnom", "ltra", "ltrm"]
///
/// def shape(path, text):
///     face = hb.Face(hb.Blob.from_file_path(path))
///     buf = hb.Buffer()
///     buf.add_str(text)
///     buf.direction, buf.script, buf.language = "ltr", "Latn", "en"
///     # Characters, not graphemes: a mark keeps its own cluster unless a ligature takes it in.
///     buf.cluster_level = hb.BufferClusterLevel.MONOTONE_CHARACTERS
///     features = {tag: False for tag in OFF}
///     features["liga"] = True
///     hb.shape(hb.Font(face), buf, features)
///     glyphs = [info.codepoint for info in buf.glyph_infos]
///     starts = [info.cluster for info in buf.glyph_infos]
///     # hb's cluster is the first character of each glyph's cluster; as counts: how many characters each covers.
///     counts = [b - a for a, b in zip(starts, starts[1:] + [len(text)])]
///     return glyphs, counts
///
/// for word in sys.argv[2:]:
///     print(word, *shape(sys.argv[1], word))
/// ```
@Suite struct TrueTypeGSUBLigaturesTests {
    /// "font word" → the glyphs HarfBuzz sets and how many characters each stands for.
    static let words: [String: (glyphs: [UInt16], clusters: [Int])] = [
        // Comfortaa: one type 4 lookup (fi, fl, f_f, f_f_i, f_f_l); 397 is f_f_i, 398 f_f_l, 399 fi, 400 fl, 396 f_f.
        "display office": ([302, 397, 226, 236], [1, 3, 1, 1]),
        "display fluffy": ([400, 355, 396, 383], [2, 1, 2, 1]),
        "display fi": ([399], [2]),
        "display afflict": ([198, 398, 267, 226, 350], [1, 3, 1, 1, 1]),
        "display fffi": ([396, 399], [2, 2]),
        // EB Garamond: lookup 70 (chained contexts calling single substitutions: f._i 2992 before i, i.dotless 2980
        // after it, j.dotless 2979, f._f 2991) never merges glyphs; lookup 91 (type 4) makes Q_y 2808 and longs_t 2900,
        // after lookup 70 has turned the first of two long s into 3000.
        "serif fit": ([2992, 2980, 87], [1, 1, 1]),
        "serif fjord": ([2992, 2979, 82, 85, 71], [1, 1, 1, 1, 1]),
        "serif affix": ([68, 2991, 2992, 2980, 91], [1, 1, 1, 1, 1]),
        "serif first": ([2992, 2980, 85, 86, 87], [1, 1, 1, 1, 1]),
        "serif fluffy": ([2993, 2997, 88, 2991, 73, 92], [1, 1, 1, 1, 1, 1]),
        "serif Qy": ([2808], [2]),
        "serif \u{17F}\u{17F}t": ([3000, 2900], [1, 2]),
        // Liberation Sans and Kristi have no `liga`.
        "sans office": ([82, 73, 73, 76, 70, 72], [1, 1, 1, 1, 1, 1]),
        "script office": ([141, 112, 112, 123, 83, 98], [1, 1, 1, 1, 1, 1]),
    ]

    @Test(arguments: words.keys.sorted())
    func theFontLigatesAsHarfBuzzDoes(_ word: String) throws {
        let (id, text) = try #require(word.firstIndex(of: " ").map { (word[..<$0], word[$0...].dropFirst()) })
        let font = try #require(CardTestFonts.all.first { $0.id == id }).font
        let expected = try #require(Self.words[word])
        let result = font.ligate(text.unicodeScalars.map { font.glyphID(for: $0) })
        #expect(result.glyphs == expected.glyphs)
        #expect(result.clusters == expected.clusters)
    }

    @Test func whichFontsHaveLigatures() {
        #expect(CardTestFonts.display.font.hasLigatures)
        #expect(CardTestFonts.serif.font.hasLigatures)
        #expect(!CardTestFonts.sans.font.hasLigatures)
        #expect(!CardTestFonts.script.font.hasLigatures)
        let unchanged = CardTestFonts.sans.font.ligate([1, 2, 3])
        #expect(unchanged.glyphs == [1, 2, 3] && unchanged.clusters == [1, 1, 1])
        let empty = CardTestFonts.display.font.ligate([])
        #expect(empty.glyphs.isEmpty && empty.clusters.isEmpty)
    }

    @Test func theClustersOfAParagraphAddUpToItsGlyphs() {
        let text = "Affable officers shuffled fifty waffles; the fjord’s first ſtaff afflicts Qyx with ffi, ffl & fft."
        for card in CardTestFonts.all {
            let glyphs = text.unicodeScalars.map { card.font.glyphID(for: $0) }
            let result = card.font.ligate(glyphs)
            #expect(result.clusters.reduce(0, +) == glyphs.count, "\(card.id)")
            #expect(result.glyphs.count == result.clusters.count && result.clusters.allSatisfy { $0 >= 1 })
        }
    }

    /// A hand-made GSUB for what the bundled fonts do not use (below, with the lookups it holds). fontTools reads the
    /// same bytes (`newTable("GSUB").decompile`); put with `markGDEF` into a copy of Liberation Sans (whose glyph ids
    /// these are), the script above gives the same glyphs and clusters, but for the two differences noted.
    @Test func aHandMadeTableLigatesAsHarfBuzzDoes() throws {
        let sans = CardTestFonts.sans.font
        let ligatures = try TrueTypeGSUBLigatures.parse(
            TrueTypeReader(bytes: GSUBBytes.handMade, table: "GSUB"),
            numberOfGlyphs: sans.numberOfGlyphs,
            glyphClasses: OpenTypeLayoutParser.glyphClasses(
                gdef: TrueTypeReader(bytes: GSUBBytes.markGDEF, table: "GDEF"),
                numberOfGlyphs: sans.numberOfGlyphs
            )
        )
        #expect(ligatures.featureLookups == Array(0...6))
        #expect(ligatures.lookups.keys.sorted() == Array(0...8))
        func ligate(_ text: String) -> (glyphs: [UInt16], clusters: [Int]) {
            ligatures.apply(text.unicodeScalars.map { sans.glyphID(for: $0) })
        }
        let cases: [(String, [UInt16], [Int])] = [
            ("q", [83], [1]),  // single format 1, delta 0xFFFF: q → p
            ("cd", [70, 39], [1, 1]),  // context format 1 calling a single substitution at its second glyph
            ("gh", [43], [2]),  // context format 2 calling a ligature: g h → H
            ("mn", [80, 49], [1, 1]),  // context format 3
            ("hst", [75, 54, 87], [1, 1, 1]),  // extension → chained format 2
            ("h\u{301}st", [75, 707, 54, 87], [1, 1, 1, 1]),  // IgnoreMarks: the mark is skipped in the backtrack
            ("vxx", [59, 91], [2, 1]),  // v x → X listed before v x x → Y: the first wins
            ("vx\u{301}x", [59, 707, 91], [2, 1, 1]),
            (
                "qjcdghmnhstvxx", [83, 45, 70, 39, 43, 80, 49, 75, 54, 87, 59, 91],
                [1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1]
            ),
            ("d", [71], [1]),  // lookup 7 belongs to `dlig` (not applied) and is called by contexts only
            ("ce", [70, 72], [1, 1]),
            ("gg", [74, 74], [1, 1]),
            ("nm", [81, 80], [1, 1]),
            ("xst", [91, 86, 87], [1, 1, 1]),
            ("hsx", [75, 86, 91], [1, 1, 1]),
            // HarfBuzz gives J K and glyph 3000, past Liberation Sans's 2620 glyphs: that substitution is dropped.
            ("jkw", [45, 46, 90], [1, 1, 1]),
            // HarfBuzz forms X across the mark and sets the mark after it, both in one cluster ([59, 707], clusters
            // from 0 and 0); clusters of consecutive glyphs cannot say that, so the ligature is not formed.
            ("v\u{301}x", [89, 707, 91], [1, 1, 1]),
        ]
        for (text, glyphs, clusters) in cases {
            let result = ligate(text)
            #expect(result.glyphs == glyphs, "\(text)")
            #expect(result.clusters == clusters, "\(text)")
        }
    }

    @Test func aTruncatedTableIsIgnoredOrStillConsistent() throws {
        let display = CardTestFonts.display.font
        let gsub = try #require(display.table("GSUB"))
        let office = "office afflict".unicodeScalars.map { display.glyphID(for: $0) }
        for length in stride(from: 0, through: gsub.count, by: max(1, gsub.count / 97)) {
            let reader = try TrueTypeReader(bytes: Array(gsub[0..<length]), table: "GSUB")
            guard let ligatures = try? TrueTypeGSUBLigatures.parse(reader, numberOfGlyphs: display.numberOfGlyphs)
            else { continue }
            let result = ligatures.apply(office)
            #expect(result.clusters.reduce(0, +) == office.count, "\(length)")
        }

        // The font with its GSUB cut to 12 bytes still loads, without ligatures.
        var bytes = [UInt8](CardTestFonts.data("display"))
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        let record = try #require(
            (0..<tables).map { 12 + $0 * 16 }.first { Array(bytes[$0..<($0 + 4)]) == Array("GSUB".utf8) }
        )
        bytes[(record + 12)..<(record + 16)] = [0, 0, 0, 12]
        let cut = try TrueTypeFont(data: Data(bytes))
        #expect(!cut.hasLigatures)
        let unligated = cut.ligate(office)
        #expect(unligated.glyphs == office && unligated.clusters == Array(repeating: 1, count: office.count))
    }

    /// A chained lookup whose rule calls itself at the next glyph (and a ligature at the first): the nesting limit ends
    /// the recursion, and every call leaves consistent clusters.
    @Test func aLookupCallingItselfEnds() throws {
        let ligatures = try TrueTypeGSUBLigatures.parse(
            TrueTypeReader(bytes: GSUBBytes.selfCalling, table: "GSUB"),
            numberOfGlyphs: 100
        )
        #expect(!ligatures.isEmpty)
        for count in [0, 1, 2, 3, 7, 64, 1_000] {
            let glyphs = [UInt16](repeating: 5, count: count)
            let result = ligatures.apply(glyphs)
            #expect(result.clusters.reduce(0, +) == count)
            #expect(result.glyphs.count == result.clusters.count)
        }
        // As HarfBuzz sets the table in a copy of Liberation Sans (the script above, quotation marks): the call at the
        // next glyph recurses along the run and ligates the pair it ends on, then the first pair is ligated.
        let short: [([UInt16], [Int])] = [([5], [1]), ([6], [2]), ([5, 6], [1, 2]), ([6, 6], [2, 2])]
        for (count, (glyphs, clusters)) in zip(1..., short) {
            let result = ligatures.apply([UInt16](repeating: 5, count: count))
            #expect(result.glyphs == glyphs && result.clusters == clusters, "\(count)")
        }
        // From 5 glyphs on, an odd run recurses deeper than `maximumNesting`: HarfBuzz (64 levels) gives 5 6 6 for 5.
        let five = ligatures.apply([5, 5, 5, 5, 5])
        #expect(five.glyphs == [6, 6, 5] && five.clusters == [2, 2, 1])
    }

    /// The operations of one call are capped: a table that would work in proportion to the square of the glyph count
    /// stops at the cap, and a cap reached part way leaves the ligatures made so far with consistent clusters.
    @Test func theWorkOfOneCallIsCapped() throws {
        let display = try #require(CardTestFonts.display.font.table("GSUB"))
        let ligatures = try TrueTypeGSUBLigatures.parse(
            TrueTypeReader(bytes: display, table: "GSUB"),
            numberOfGlyphs: CardTestFonts.display.font.numberOfGlyphs
        )
        let font = CardTestFonts.display.font
        let text = String(repeating: "office ", count: 20).unicodeScalars.map { font.glyphID(for: $0) }
        let full = ligatures.apply(text)
        #expect(full.glyphs.count == 20 * 5)
        var previous = text.count
        for limit in [0, 1, 10, 40, 100, 400, 100_000] {
            let partial = ligatures.apply(text, operationLimit: limit)
            #expect(partial.clusters.reduce(0, +) == text.count)
            #expect(partial.glyphs.count <= previous)
            previous = partial.glyphs.count
        }
        #expect(previous == full.glyphs.count)

        let heavy = try TrueTypeGSUBLigatures.parse(
            TrueTypeReader(bytes: GSUBBytes.longLookahead(1_000), table: "GSUB"),
            numberOfGlyphs: 100
        )
        // Uncapped, glyphs 0 to 3999 (those with 1000 glyphs after them) would become 6, at 1000 steps or more each.
        let many = [UInt16](repeating: 5, count: 5_000)
        let result = heavy.apply(many)
        let substituted = result.glyphs.prefix { $0 == 6 }.count
        #expect(substituted > 0)
        #expect(substituted <= TrueTypeGSUBLigatures.operationLimit(glyphCount: many.count) / 1_000)
        #expect(result.glyphs.dropFirst(substituted).allSatisfy { $0 == 5 } && result.clusters.allSatisfy { $0 == 1 })
    }
}

/// Big-endian GSUB and GDEF tables for the tests. Offsets in the comments are from the table's start or, within a
/// lookup, from the lookup's start.
enum GSUBBytes {
    static func words(_ values: [Int]) -> [UInt8] { GPOSBytes.words(values) }

    /// Liberation Sans's glyph ids: a 68 … z 93, D 39, H 43, J 45, K 46, N 49, S 54, X 59, Y 60, acutecomb 707.
    static let handMade: [UInt8] = words([
        // Header: ScriptList @10, FeatureList @30, LookupList @68.
        1, 0, 10, 30, 68,
        // ScriptList: only 'DFLT' (no 'latn'), default LangSys: feature 1.
        1, 0x4446, 0x4C54, 8, 4, 0, 0, 0xFFFF, 1, 1,
        // FeatureList: 0 'dlig' → lookup 7; 1 'liga' → lookups 0 to 6.
        2, 0x646C, 0x6967, 14, 0x6C69, 0x6761, 20, 0, 1, 7, 0, 7, 0, 1, 2, 3, 4, 5, 6,
        // LookupList @68: nine lookups.
        9, 20, 40, 70, 106, 162, 200, 282, 324, 354,
        // 0: single format 1, Coverage [q], delta 0xFFFF (q → p).
        1, 0, 1, 8, 1, 6, 0xFFFF, 1, 1, 84,
        // 1: single format 2, Coverage [j, k, w] → J, K, 3000 (past the font's glyphs).
        1, 0, 1, 8, 2, 12, 3, 45, 46, 3000, 1, 3, 77, 78, 90,
        // 2: context format 1, Coverage [c]: rule c d, lookup 7 at glyph 1.
        5, 0, 1, 8, 1, 22, 1, 8, 1, 4, 2, 1, 71, 1, 7, 1, 1, 70,
        // 3: context format 2, Coverage [g], ClassDef g 1, h 2; class set 0 null, class set 1: rule 1 2, lookup 8 at 0.
        5, 0, 1, 8, 2, 26, 32, 2, 0, 12, 1, 4, 2, 1, 2, 0, 8, 1, 1, 74, 2, 2, 74, 74, 1, 75, 75, 2,
        // 4: context format 3, Coverages [m] (format 1) and [n] (format 2), lookup 7 at glyph 1.
        5, 0, 1, 8, 3, 2, 1, 14, 20, 1, 7, 1, 1, 80, 2, 1, 81, 81, 0,
        // 5: extension, IgnoreMarks, wrapping chained format 2: Coverage [s], ClassDefs (format 1) backtrack h 1,
        // input s 1, lookahead t 1; class set 1: rule backtrack 1, input 1, lookahead 1, lookup 7 at 0.
        7, 8, 1, 8, 1, 6, 0, 8,
        2, 36, 42, 50, 58, 2, 0, 16, 1, 4, 1, 1, 1, 1, 1, 1, 0, 7, 1, 1, 86, 1, 75, 1, 1, 1, 86, 1, 1, 1, 87, 1, 1,
        // 6: ligature, IgnoreMarks, Coverage [v]: v x → X, then v x x → Y.
        4, 8, 1, 8, 1, 28, 1, 8, 2, 6, 12, 59, 2, 91, 60, 3, 91, 91, 1, 1, 89,
        // 7: single format 2, Coverage [d, n, s] → D, N, S.
        1, 0, 1, 8, 2, 12, 3, 39, 49, 54, 1, 3, 71, 81, 86,
        // 8: ligature, Coverage [g]: g h → H.
        4, 0, 1, 8, 1, 18, 1, 8, 1, 4, 43, 2, 75, 1, 1, 74,
    ])

    /// GDEF 1.0 whose GlyphClassDef (format 1) makes acutecomb (707) a mark.
    static let markGDEF: [UInt8] = words([1, 0, 12, 0, 0, 0, 1, 707, 1, 3])

    /// 'latn' `liga` → lookup 0: chained format 3, input [5] [5], records: lookup 0 (itself) at glyph 1, then lookup 1
    /// at glyph 0. Lookup 1: ligature 5 5 → 6. (In Liberation Sans 5 is the quotation mark, 6 the number sign.)
    static let selfCalling: [UInt8] = words([
        1, 0, 10, 30, 44,
        1, 0x6C61, 0x746E, 8, 4, 0, 0, 0xFFFF, 1, 0,
        1, 0x6C69, 0x6761, 8, 0, 1, 0,
        // LookupList @44: lookup 0 @+6, lookup 1 @+42.
        2, 6, 42,
        6, 0, 1, 8, 3, 0, 2, 22, 22, 0, 2, 1, 0, 0, 1, 1, 1, 5,
        4, 0, 1, 8, 1, 18, 1, 8, 1, 4, 6, 2, 5, 1, 1, 5,
    ])

    /// 'latn' `liga` → lookup 0: chained format 3, input [5], lookahead `count` × [5], calling lookup 1 (single
    /// format 1: 5 → 6) at glyph 0: each glyph looks ahead `count` glyphs.
    static func longLookahead(_ count: Int) -> [UInt8] {
        let coverage = 16 + 2 * count
        return words(
            [1, 0, 10, 30, 44, 1, 0x6C61, 0x746E, 8, 4, 0, 0, 0xFFFF, 1, 0, 1, 0x6C69, 0x6761, 8, 0, 1, 0]
                // LookupList @44: lookup 0 @+6, lookup 1 after it.
                + [2, 6, 36 + 2 * count]
                + [6, 0, 1, 8, 3, 0, 1, coverage, count] + Array(repeating: coverage, count: count) + [1, 0, 1]
                + [1, 1, 5]
                + [1, 0, 1, 8, 1, 6, 1, 1, 1, 5]
        )
    }
}
