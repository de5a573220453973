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
/// read once, and the total work is capped by the table's size, so a hostile table throws instead of trapping or
/// spinning. `TrueTypeFont` then ignores the table (and falls back to `kern`, or sets unkerned).
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

    /// Sorted glyph ranges with a value each: a Coverage table (value = coverage index of the range's first glyph) or a
    /// ClassDef table (value = class). Stored as read, so memory follows the table's size.
    struct GlyphRanges: Sendable {
        private(set) var starts: [UInt16] = []
        private(set) var ends: [UInt16] = []
        private(set) var values: [UInt16] = []

        init(_ ranges: [(start: UInt16, end: UInt16, value: UInt16)]) {
            var ranges = ranges.filter { $0.start <= $0.end }
            if !zip(ranges, ranges.dropFirst()).allSatisfy({ $0.start <= $1.start }) {
                ranges.sort { $0.start < $1.start }
            }
            starts = ranges.map(\.start)
            ends = ranges.map(\.end)
            values = ranges.map(\.value)
        }

        var rangeCount: Int { starts.count }

        func range(_ index: Int) -> (start: UInt16, end: UInt16, value: UInt16) {
            (starts[index], ends[index], values[index])
        }

        /// The value of the last range starting at or before `glyph`, if it reaches `glyph`.
        func value(of glyph: UInt16) -> UInt16? {
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= glyph { low = middle + 1 } else { high = middle }
            }
            guard low > 0, ends[low - 1] >= glyph else { return nil }
            return values[low - 1]
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
        let r: TrueTypeReader
        let numberOfGlyphs: Int
        /// Records read so far are charged against this; shared tables are read once, so only a hostile table runs out.
        var budget: Int
        var subtables: [Int: Subtable?] = [:]
        var coverages: [Int: GlyphRanges] = [:]
        var classDefs: [Int: GlyphRanges] = [:]

        init(r: TrueTypeReader, numberOfGlyphs: Int) {
            self.r = r
            self.numberOfGlyphs = numberOfGlyphs
            budget = 8 * r.length + 65_536
        }

        mutating func charge(_ work: Int) throws {
            budget -= work
            guard budget >= 0 else {
                throw TrueTypeFontError.malformed(table: "GPOS", reason: "too much work for its size")
            }
        }

        func tag(_ offset: Int) throws -> String {
            TrueTypeFont.tagString(try r.u32(offset))
        }

        mutating func parse() throws -> TrueTypeGPOSKerning {
            var kerning = TrueTypeGPOSKerning()
            // Version 1.0 and 1.1 share the first three offsets (1.1 adds FeatureVariations, not read).
            guard try r.u16(0) == 1 else { return kerning }
            let scriptList = Int(try r.u16(4))
            let featureList = Int(try r.u16(6))
            let lookupList = Int(try r.u16(8))
            guard scriptList != 0, featureList != 0, lookupList != 0 else { return kerning }
            guard let langSys = try defaultLanguageSystem(scriptList) else { return kerning }

            var features = [Int]()
            let required = Int(try r.u16(langSys + 2))
            if required != 0xFFFF { features.append(required) }
            let featureIndexCount = Int(try r.u16(langSys + 4))
            try charge(featureIndexCount)
            for index in 0..<featureIndexCount { features.append(Int(try r.u16(langSys + 6 + index * 2))) }

            let featureCount = Int(try r.u16(featureList))
            var lookupIndices = Set<Int>()
            for feature in Set(features) where feature < featureCount {
                let record = featureList + 2 + feature * 6
                guard try tag(record) == "kern" else { continue }
                let table = featureList + Int(try r.u16(record + 4))
                let lookupCount = Int(try r.u16(table + 2))
                try charge(lookupCount)
                for index in 0..<lookupCount { lookupIndices.insert(Int(try r.u16(table + 4 + index * 2))) }
            }

            let lookupCount = Int(try r.u16(lookupList))
            for index in lookupIndices.sorted() where index < lookupCount {
                let lookup = try readLookup(lookupList + Int(try r.u16(lookupList + 2 + index * 2)))
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

        /// The default LangSys of script `latn`, else `DFLT`; nil when neither exists or has one.
        func defaultLanguageSystem(_ scriptList: Int) throws -> Int? {
            var scripts: [String: Int] = [:]
            for index in 0..<Int(try r.u16(scriptList)) {
                let record = scriptList + 2 + index * 6
                let name = try tag(record)
                if name == "latn" || name == "DFLT", scripts[name] == nil {
                    scripts[name] = scriptList + Int(try r.u16(record + 4))
                }
            }
            guard let script = scripts["latn"] ?? scripts["DFLT"] else { return nil }
            let langSys = Int(try r.u16(script))
            return langSys == 0 ? nil : script + langSys
        }

        mutating func readLookup(_ lookup: Int) throws -> Lookup {
            let type = try r.u16(lookup)
            let subtableCount = Int(try r.u16(lookup + 4))
            try charge(subtableCount)
            var result = Lookup(subtables: [])
            guard type == 2 || type == 9 else { return result }
            for index in 0..<subtableCount {
                var subtable = lookup + Int(try r.u16(lookup + 6 + index * 2))
                if type == 9 {
                    // Extension: format 1, the wrapped type, then a 32-bit offset from the extension subtable.
                    guard try r.u16(subtable) == 1, try r.u16(subtable + 2) == 2 else { continue }
                    subtable += Int(try r.u32(subtable + 4))
                }
                guard let parsed = try readPairSubtable(subtable) else { continue }
                if case .pairs(let more) = parsed, case .pairs(var pairs) = result.subtables.last {
                    try charge(more.count)
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
            let coverage = try readCoverage(s + Int(try r.u16(s + 2)))
            let format1 = try r.u16(s + 4)
            let format2 = try r.u16(s + 6)
            let pairSetCount = Int(try r.u16(s + 8))
            let recordSize = 2 + valueRecordSize(format1) + valueRecordSize(format2)
            let xAdvance = xAdvanceOffset(format1)
            var pairs: [UInt32: Int16] = [:]
            for index in 0..<coverage.rangeCount {
                let range = coverage.range(index)
                // Glyphs past the font's count never occur in text; skipping them also bounds a range like 0...65535.
                let last = min(Int(range.end), numberOfGlyphs - 1)
                guard Int(range.start) <= last else { continue }
                for glyph in Int(range.start)...last {
                    let coverageIndex = Int(range.value) + glyph - Int(range.start)
                    guard coverageIndex < pairSetCount else { continue }
                    let pairSet = s + Int(try r.u16(s + 10 + coverageIndex * 2))
                    let pairCount = Int(try r.u16(pairSet))
                    try charge(1 + pairCount)
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
            let coverage = try readCoverage(s + Int(try r.u16(s + 2)))
            let format1 = try r.u16(s + 4)
            let format2 = try r.u16(s + 6)
            let classDef1 = try readClassDef(s + Int(try r.u16(s + 8)))
            let classDef2 = try readClassDef(s + Int(try r.u16(s + 10)))
            let class1Count = Int(try r.u16(s + 12))
            let class2Count = Int(try r.u16(s + 14))
            let recordSize = valueRecordSize(format1) + valueRecordSize(format2)
            // The whole matrix must be inside the table, whatever is read of it.
            _ = try r.position(s + 16, class1Count * class2Count * recordSize)
            var values: [Int16] = []
            if let xAdvance = xAdvanceOffset(format1) {
                // recordSize >= 2 here, so the matrix (checked above) bounds this by the table's size.
                try charge(class1Count * class2Count)
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

        mutating func readCoverage(_ c: Int) throws -> GlyphRanges {
            if let cached = coverages[c] { return cached }
            var ranges: [(start: UInt16, end: UInt16, value: UInt16)] = []
            let count = Int(try r.u16(c + 2))
            try charge(count)
            switch try r.u16(c) {
            case 1:
                // A sorted glyph array; runs of consecutive glyphs become one range.
                for index in 0..<count {
                    let glyph = try r.u16(c + 4 + index * 2)
                    if let last = ranges.last, last.end < 0xFFFF, glyph == last.end + 1,
                        Int(last.value) + Int(glyph - last.start) == index
                    {
                        ranges[ranges.count - 1].end = glyph
                    } else {
                        ranges.append((glyph, glyph, UInt16(truncatingIfNeeded: index)))
                    }
                }
            case 2:
                for index in 0..<count {
                    let record = c + 4 + index * 6
                    ranges.append((try r.u16(record), try r.u16(record + 2), try r.u16(record + 4)))
                }
            default:
                throw TrueTypeFontError.malformed(table: "GPOS", reason: "Coverage format \(try r.u16(c))")
            }
            let coverage = GlyphRanges(ranges)
            coverages[c] = coverage
            return coverage
        }

        mutating func readClassDef(_ c: Int) throws -> GlyphRanges {
            if let cached = classDefs[c] { return cached }
            var ranges: [(start: UInt16, end: UInt16, value: UInt16)] = []
            switch try r.u16(c) {
            case 1:
                let startGlyph = Int(try r.u16(c + 2))
                let count = Int(try r.u16(c + 4))
                try charge(count)
                for index in 0..<count where startGlyph + index <= 0xFFFF {
                    let glyph = UInt16(startGlyph + index)
                    let value = try r.u16(c + 6 + index * 2)
                    if let last = ranges.last, last.value == value, index > 0, last.end == glyph - 1 {
                        ranges[ranges.count - 1].end = glyph
                    } else if value != 0 {
                        ranges.append((glyph, glyph, value))
                    }
                }
            case 2:
                let count = Int(try r.u16(c + 2))
                try charge(count)
                for index in 0..<count {
                    let record = c + 4 + index * 6
                    ranges.append((try r.u16(record), try r.u16(record + 2), try r.u16(record + 4)))
                }
            default:
                throw TrueTypeFontError.malformed(table: "GPOS", reason: "ClassDef format \(try r.u16(c))")
            }
            let classDef = GlyphRanges(ranges)
            classDefs[c] = classDef
            return classDef
        }
    }
}
