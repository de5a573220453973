import PlazaCore

/// Standard ligatures from the OpenType `GSUB` table: the lookups the `liga` feature lists for script `latn` (else
/// `DFLT`), default language system (the required feature counts only when it is `liga`), applied in LookupList order
/// to the glyphs of one paragraph, left to right, as HarfBuzz applies them with only `liga` on.
///
/// Applied lookup types: 1 (single substitution, formats 1 and 2), 4 (ligature substitution: in a LigatureSet the first
/// ligature that matches wins, in table order), 5 and 6 (contextual and chained contextual substitution, formats 1, 2
/// and 3, whose SubstLookupRecords call other lookups of these types at the matched positions, nested up to
/// `maximumNesting` deep) and 7 (extension) wrapping any of them. Within a lookup the first subtable that applies at a
/// position wins. Multiple (2), alternate (3) and reverse chaining (8) substitutions are not applied: they are not
/// ligature material (one glyph to several, a choice of alternates, right-to-left contexts), so a `liga` lookup of
/// those types, or a rule calling one, does nothing.
///
/// Lookup flags IgnoreBaseGlyphs, IgnoreLigatures and IgnoreMarks (0x2, 0x4, 0x8) skip glyphs by GDEF's
/// GlyphClassDef when the font has one (without it nothing is skipped). Two differences from HarfBuzz follow from
/// returning clusters of consecutive input glyphs: a ligature whose components have skipped glyphs between them is not
/// formed (HarfBuzz forms it and leaves the marks after it), and MarkAttachmentType and mark filtering sets are not
/// read (such marks are not skipped). A substitution that would produce a glyph id past the font's glyph count does
/// not apply: the glyph is kept, and the next subtable is tried.
///
/// Parsing reads everything up front (every read through `TrueTypeReader`, bounded by `OpenTypeLayoutParser`'s work
/// budget), so `apply` reads no bytes; a table that cannot be read throws and `TrueTypeFont` sets without ligatures.
/// Applying is bounded too: the operations of one call are capped in proportion to the glyph count (like HarfBuzz's
/// max-ops), and when a hostile table reaches the cap the glyphs substituted so far are returned.
struct TrueTypeGSUBLigatures: Sendable {
    /// The `liga` feature's lookups, as sorted LookupList indices, each with at least one subtable applied here.
    let featureLookups: [Int]
    /// Every lookup those reach (themselves and the lookups their contextual rules call), by LookupList index.
    let lookups: [Int: Lookup]
    /// GDEF's GlyphClassDef, for the lookup flags.
    let glyphClasses: GlyphRanges?
    let numberOfGlyphs: Int

    /// No ligatures.
    init() {
        self.init(featureLookups: [], lookups: [:], glyphClasses: nil, numberOfGlyphs: 0)
    }

    init(featureLookups: [Int], lookups: [Int: Lookup], glyphClasses: GlyphRanges?, numberOfGlyphs: Int) {
        self.featureLookups = featureLookups
        self.lookups = lookups
        self.glyphClasses = glyphClasses
        self.numberOfGlyphs = numberOfGlyphs
    }

    /// Contextual rules call lookups at most this many levels below a feature's lookup (a contextual lookup called at
    /// the deepest level matches but calls nothing), which also ends a lookup that calls itself. HarfBuzz allows 64;
    /// fonts nest one level (EB Garamond's contexts call single substitutions).
    static let maximumNesting = 3

    /// The operations one `apply` may spend on `glyphCount` glyphs, an operation being a lookup tried at a position, a
    /// subtable, rule or ligature tried, or a glyph compared. These are finer than HarfBuzz's max-ops (64 a glyph): EB
    /// Garamond's 24 chained subtables take about 26 a glyph of ordinary text, so the cap leaves room for fonts with
    /// more subtables while a paragraph still costs at most a few hundred thousand steps.
    static func operationLimit(glyphCount: Int) -> Int {
        256 * glyphCount + 4096
    }

    /// True when the font has no usable `liga` lookup (then `apply` returns its input).
    var isEmpty: Bool { featureLookups.isEmpty }

    struct Lookup: Sendable {
        let flag: UInt16
        let subtables: [Subtable]
        /// The glyphs some subtable covers as its first glyph: at any other glyph the lookup does nothing, which is
        /// found with one bit test instead of a walk through every subtable (most glyphs of a text start no ligature).
        let firstGlyphs: GlyphBitSet

        init(flag: UInt16, subtables: [Subtable], numberOfGlyphs: Int) {
            self.flag = flag
            self.subtables = subtables
            firstGlyphs = GlyphBitSet(subtables.map(\.coverage), numberOfGlyphs: numberOfGlyphs)
        }

        /// Whether the lookup's flags skip this glyph (by its GDEF class: 1 base, 2 ligature, 3 mark).
        func skips(_ glyph: UInt16, classes: GlyphRanges?) -> Bool {
            guard flag & 0x000E != 0, let classes else { return false }
            switch classes.value(of: glyph) {
            case 1: return flag & 0x0002 != 0
            case 2: return flag & 0x0004 != 0
            case 3: return flag & 0x0008 != 0
            default: return false
            }
        }
    }

    enum Subtable: Sendable {
        /// Single substitution format 1: a covered glyph plus the delta, modulo 65536.
        case delta(GlyphRanges, UInt16)
        /// Single substitution format 2: the substitute by coverage index.
        case substitutes(GlyphRanges, [UInt16])
        /// Ligature substitution: the LigatureSet of a covered first glyph by coverage index, in table order.
        case ligatures(GlyphRanges, [[Ligature]])
        /// Contextual or chained contextual substitution, any format.
        case context(Context)

        /// The Coverage of the first glyph.
        var coverage: GlyphRanges {
            switch self {
            case .delta(let coverage, _), .substitutes(let coverage, _), .ligatures(let coverage, _): return coverage
            case .context(let context): return context.coverage
            }
        }
    }

    /// A set of glyph ids below the font's glyph count, one bit each.
    struct GlyphBitSet: Sendable {
        private var words: [UInt64]

        init(_ coverages: [GlyphRanges], numberOfGlyphs: Int) {
            words = Array(repeating: 0, count: (numberOfGlyphs + 63) / 64)
            for coverage in coverages {
                for index in 0..<coverage.rangeCount {
                    let range = coverage.range(index)
                    let last = min(Int(range.end), numberOfGlyphs - 1)
                    guard Int(range.start) <= last else { continue }
                    for glyph in Int(range.start)...last { words[glyph >> 6] |= 1 << UInt64(glyph & 63) }
                }
            }
        }

        func contains(_ glyph: UInt16) -> Bool {
            let word = Int(glyph) >> 6
            return word < words.count && words[word] & (1 << UInt64(glyph & 63)) != 0
        }
    }

    struct Ligature: Sendable {
        let glyph: UInt16
        /// The components after the first glyph.
        let components: [UInt16]
    }

    /// A (chained) contextual subtable. Format 3 is kept as one rule of coverages, so all formats match alike. A class,
    /// so trying one costs a reference count, not a copy of its tables'.
    final class Context: Sendable {
        enum RuleSetIndex: Sendable {
            /// Format 1: the first glyph's coverage index.
            case coverageIndex
            /// Format 2: the first glyph's class in the input ClassDef.
            case inputClass(GlyphRanges)
            /// Format 3: the only rule set.
            case first
        }

        /// The first input glyph's Coverage.
        let coverage: GlyphRanges
        let index: RuleSetIndex
        let ruleSets: [[Rule]]
        /// The lookups its rules call, sorted.
        let lookupIndices: [Int]

        init(coverage: GlyphRanges, index: RuleSetIndex, ruleSets: [[Rule]]) {
            self.coverage = coverage
            self.index = index
            self.ruleSets = ruleSets
            lookupIndices = Set(ruleSets.joined().flatMap { $0.records.map(\.lookupIndex) }).sorted()
        }

        /// The rules to try, in order, when `glyph` is the first input glyph.
        func rules(for glyph: UInt16) -> [Rule] {
            guard let coverageIndex = coverage.coverageIndex(of: glyph) else { return [] }
            let set: Int
            switch index {
            case .coverageIndex: set = coverageIndex
            case .inputClass(let classes): set = Int(classes.value(of: glyph) ?? 0)
            case .first: set = 0
            }
            return set < ruleSets.count ? ruleSets[set] : []
        }
    }

    /// A rule: the glyphs it matches around and after the first input glyph, and the lookups it then calls.
    struct Rule: Sendable {
        /// Backtrack, nearest glyph first (empty for type 5).
        let backtrack: GlyphSequence
        /// The input glyphs after the first (which the subtable's coverage or class already matched).
        let input: GlyphSequence
        let lookahead: GlyphSequence
        let records: [SubstLookupRecord]
    }

    /// The input glyph a rule calls a lookup at (0 for the first) and the lookup's LookupList index.
    typealias SubstLookupRecord = (sequenceIndex: Int, lookupIndex: Int)

    /// What a rule matches glyph by glyph.
    enum GlyphSequence: Sendable {
        case glyphs([UInt16])
        /// Classes of this ClassDef (format 2).
        case classes([UInt16], GlyphRanges)
        case coverages([GlyphRanges])

        var count: Int {
            switch self {
            case .glyphs(let glyphs): return glyphs.count
            case .classes(let classes, _): return classes.count
            case .coverages(let coverages): return coverages.count
            }
        }

        func matches(_ glyph: UInt16, at index: Int) -> Bool {
            switch self {
            case .glyphs(let glyphs): return glyphs[index] == glyph
            case .classes(let classes, let classDef): return classes[index] == classDef.value(of: glyph) ?? 0
            case .coverages(let coverages): return coverages[index].coverageIndex(of: glyph) != nil
            }
        }
    }
}
