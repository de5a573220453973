import PlazaCore

/// Pair kerning from the OpenType `GPOS` table: the lookups the `kern` feature lists for script `latn` (else `DFLT`),
/// default language system, of type 2 (pair adjustment, formats 1 and 2) and type 9 (extension) wrapping type 2.
///
/// Only the first glyph's XAdvance counts (horizontal, left-to-right kerning); every other ValueRecord field is skipped
/// by its valueFormat bits. Within a lookup the first subtable that matches a pair wins (the OpenType rule: a format 1
/// subtable matches when the pair is listed, a format 2 one when its Coverage holds the first glyph); the values of the
/// several lookups add up. Contextual positioning (types 7 and 8, e.g. EB Garamond's chained kerning), mark attachment
/// and lookup flags (skipping marks) are not applied: the layout kerns each glyph with the one before it, nothing else,
/// which is what both the SVG preview and the PDF draw.
///
/// Parsing is bounded: every read goes through `TrueTypeReader`, shared subtables, Coverage and ClassDef tables are
/// read once, and the total work is capped by the table's size (`OpenTypeLayoutParser`, which also reads the script,
/// feature and lookup lists `GSUB` shares), so a hostile table throws instead of trapping or spinning. `TrueTypeFont`
/// then ignores the table (and falls back to `kern`, or sets unkerned).
struct TrueTypeGPOSKerning: Sendable {
    /// The `kern` feature's pair-adjustment lookups in LookupList order (each with at least one subtable).
    private(set) var lookups: [Lookup] = []
    /// Glyph pairs listed by format 1 subtables plus class pairs with a non-zero value in format 2 subtables.
    private(set) var count = 0
    /// Whether any value is non-zero (a table of zeros does not kern).
    private(set) var hasAdjustments = false

    /// True when the font has no usable `kern` feature (then `kern`, if present, is used instead).
    var isEmpty: Bool { lookups.isEmpty }

    func value(_ left: UInt16, _ right: UInt16) -> Int {
        var total = 0
        for lookup in lookups { total += lookup.value(left, right) }
        return total
    }

    struct Lookup: Sendable {
        var subtables: [Subtable]

        func value(_ left: UInt16, _ right: UInt16) -> Int {
            let key = UInt32(left) << 16 | UInt32(right)
            for subtable in subtables {
                switch subtable {
                case .pairs(let pairs):
                    if let value = pairs[key] { return Int(value) }
                case .classes(let classes):
                    if let value = classes.value(left, right) { return value }
                }
            }
            return 0
        }
    }

    enum Subtable: Sendable {
        /// Format 1, expanded: (first << 16 | second) → first glyph's XAdvance. Consecutive format 1 subtables of a
        /// lookup are merged into one dictionary, earlier entries kept.
        case pairs([UInt32: Int16])
        /// Format 2, kept by class so it costs memory in proportion to the table, not to glyph pairs.
        case classes(ClassPairs)
    }

    struct ClassPairs: Sendable {
        let coverage: GlyphRanges
        let classDef1: GlyphRanges
        let classDef2: GlyphRanges
        let class1Count: Int
        let class2Count: Int
        /// `class1 * class2Count + class2` → XAdvance; empty when valueFormat1 has no XAdvance (every value 0).
        let values: [Int16]

        /// nil when the subtable does not apply (first glyph not covered, or a class past the matrix).
        func value(_ left: UInt16, _ right: UInt16) -> Int? {
            guard coverage.value(of: left) != nil else { return nil }
            let class1 = Int(classDef1.value(of: left) ?? 0)
            let class2 = Int(classDef2.value(of: right) ?? 0)
            guard class1 < class1Count, class2 < class2Count else { return nil }
            return values.isEmpty ? 0 : Int(values[class1 * class2Count + class2])
        }
    }

    static func parse(_ r: TrueTypeReader, numberOfGlyphs: Int) throws -> TrueTypeGPOSKerning {
        var parser = Parser(r: r, numberOfGlyphs: numberOfGlyphs)
        return try parser.parse()
    }
}

extension TrueTypeGPOSKerning {
    /// The bytes of a ValueRecord with these valueFormat bits: 2 per field (0x0001 ... 0x0080; higher bits are reserved).
    static func valueRecordSize(_ format: UInt16) -> Int {
        (format & 0x00FF).nonzeroBitCount * 2
    }

    /// Where XAdvance sits in a ValueRecord, or nil when the format has none.
    static func xAdvanceOffset(_ format: UInt16) -> Int? {
        format & 0x0004 == 0 ? nil : (format & 0x0003).nonzeroBitCount * 2
    }

    private struct Parser {
        var layout: OpenTypeLayoutParser
        var subtables: [Int: Subtable?] = [:]

        init(r: TrueTypeReader, numberOfGlyphs: Int) {
            layout = OpenTypeLayoutParser(r: r, numberOfGlyphs: numberOfGlyphs)
        }

        var r: TrueTypeReader { layout.r }

        mutating func parse() throws -> TrueTypeGPOSKerning {
            var kerning = TrueTypeGPOSKerning()
            for index in try layout.lookupIndices(feature: "kern") {
                guard let offset = try layout.lookupOffset(index) else { continue }
                let lookup = try readLookup(offset)
                guard !lookup.subtables.isEmpty else { continue }
                for subtable in lookup.subtables {
                    switch subtable {
                    case .pairs(let pairs):
                        kerning.count += pairs.count
                        kerning.hasAdjustments = kerning.hasAdjustments || pairs.values.contains { $0 != 0 }
                    case .classes(let classes):
                        let nonZero = classes.values.reduce(0) { $0 + ($1 != 0 ? 1 : 0) }
                        kerning.count += nonZero
                        kerning.hasAdjustments = kerning.hasAdjustments || nonZero > 0
                    }
                }
                kerning.lookups.append(lookup)
            }
            return kerning
        }

        /// A lookup of type 2, or 9 wrapping 2; any other type has no subtables here.
        mutating func readLookup(_ lookup: Int) throws -> Lookup {
            var result = Lookup(subtables: [])
            for subtable in try layout.readLookup(lookup, extensionType: 9, supports: { $0 == 2 }).subtables {
                guard let parsed = try readPairSubtable(subtable.offset) else { continue }
                if case .pairs(let more) = parsed, case .pairs(var pairs) = result.subtables.last {
                    try layout.charge(more.count)
                    pairs.merge(more) { earlier, _ in earlier }
                    result.subtables[result.subtables.count - 1] = .pairs(pairs)
                } else {
                    result.subtables.append(parsed)
                }
            }
            return result
        }

        /// A PairPos subtable, or nil for a format this reader does not know (it then matches nothing).
        mutating func readPairSubtable(_ s: Int) throws -> Subtable? {
            if let cached = subtables[s] { return cached }
            let parsed: Subtable?
            switch try r.u16(s) {
            case 1: parsed = try readPairFormat1(s)
            case 2: parsed = try readPairFormat2(s)
            default: parsed = nil
            }
            subtables[s] = parsed
            return parsed
        }

        mutating func readPairFormat1(_ s: Int) throws -> Subtable {
            let coverage = try layout.readCoverage(s + Int(try r.u16(s + 2)))
            let format1 = try r.u16(s + 4)
            let format2 = try r.u16(s + 6)
            let pairSetCount = Int(try r.u16(s + 8))
            let recordSize = 2 + valueRecordSize(format1) + valueRecordSize(format2)
            let xAdvance = xAdvanceOffset(format1)
            var pairs: [UInt32: Int16] = [:]
            for index in 0..<coverage.rangeCount {
                let range = coverage.range(index)
                // Glyphs past the font's count never occur in text; skipping them also bounds a range like 0...65535.
                let last = min(Int(range.end), layout.numberOfGlyphs - 1)
                guard Int(range.start) <= last else { continue }
                for glyph in Int(range.start)...last {
                    let coverageIndex = Int(range.value) + glyph - Int(range.start)
                    guard coverageIndex < pairSetCount else { continue }
                    let pairSet = s + Int(try r.u16(s + 10 + coverageIndex * 2))
                    let pairCount = Int(try r.u16(pairSet))
                    try layout.charge(1 + pairCount)
                    for pair in 0..<pairCount {
                        let record = try r.position(pairSet + 2 + pair * recordSize, recordSize) - r.start
                        let key = UInt32(glyph) << 16 | UInt32(try r.u16(record))
                        guard pairs[key] == nil else { continue }
                        pairs[key] = try xAdvance.map { try r.i16(record + 2 + $0) } ?? 0
                    }
                }
            }
            return .pairs(pairs)
        }

        mutating func readPairFormat2(_ s: Int) throws -> Subtable {
            let coverage = try layout.readCoverage(s + Int(try r.u16(s + 2)))
            let format1 = try r.u16(s + 4)
            let format2 = try r.u16(s + 6)
            let classDef1 = try layout.readClassDef(s + Int(try r.u16(s + 8)))
            let classDef2 = try layout.readClassDef(s + Int(try r.u16(s + 10)))
            let class1Count = Int(try r.u16(s + 12))
            let class2Count = Int(try r.u16(s + 14))
            let recordSize = valueRecordSize(format1) + valueRecordSize(format2)
            // The whole matrix must be inside the table, whatever is read of it.
            _ = try r.position(s + 16, class1Count * class2Count * recordSize)
            var values: [Int16] = []
            if let xAdvance = xAdvanceOffset(format1) {
                // recordSize >= 2 here, so the matrix (checked above) bounds this by the table's size.
                try layout.charge(class1Count * class2Count)
                values.reserveCapacity(class1Count * class2Count)
                for cell in 0..<(class1Count * class2Count) {
                    values.append(try r.i16(s + 16 + cell * recordSize + xAdvance))
                }
            }
            return .classes(
                ClassPairs(
                    coverage: coverage,
                    classDef1: classDef1,
                    classDef2: classDef2,
                    class1Count: class1Count,
                    class2Count: class2Count,
                    values: values
                )
            )
        }
    }
}
