import PlazaCore

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
        rangeIndex(of: glyph).map { values[$0] }
    }

    /// Read as a Coverage table: the glyph's coverage index, or nil when the glyph is not covered.
    func coverageIndex(of glyph: UInt16) -> Int? {
        rangeIndex(of: glyph).map { Int(values[$0]) + Int(glyph - starts[$0]) }
    }

    private func rangeIndex(of glyph: UInt16) -> Int? {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= glyph { low = middle + 1 } else { high = middle }
        }
        guard low > 0, ends[low - 1] >= glyph else { return nil }
        return low - 1
    }
}

/// What the OpenType layout tables `GPOS` and `GSUB` share: the header, the ScriptList (default LangSys of script
/// `latn`, else `DFLT`), the FeatureList, the LookupList, extension subtables and the Coverage and ClassDef tables.
///
/// Every read goes through `TrueTypeReader`; Coverage and ClassDef tables are read once per offset; the records read
/// are charged against a work budget set by the table's size, so a hostile table throws (`malformed`, named after the
/// reader's table) instead of trapping or spinning. The parsers of the two tables hold one of these and add their own
/// subtables.
struct OpenTypeLayoutParser {
    let r: TrueTypeReader
    let numberOfGlyphs: Int
    /// Records read so far are charged against this; shared tables are read once, so only a hostile table runs out.
    private(set) var budget: Int
    /// Coverage (offset << 1) and ClassDef (offset << 1 | 1) tables read so far.
    private var glyphRanges: [Int: GlyphRanges] = [:]

    init(r: TrueTypeReader, numberOfGlyphs: Int) {
        self.r = r
        self.numberOfGlyphs = numberOfGlyphs
        budget = 8 * r.length + 65_536
    }

    /// The table's tag ("GPOS", "GSUB", "GDEF"), as errors name it.
    var table: String { r.table }

    mutating func charge(_ work: Int) throws {
        budget -= work
        guard budget >= 0 else {
            throw TrueTypeFontError.malformed(table: table, reason: "too much work for its size")
        }
    }

    func tag(_ offset: Int) throws -> String {
        TrueTypeFont.tagString(try r.u32(offset))
    }

    /// The lookups a feature lists in the default language system, as sorted LookupList indices (the required feature
    /// counts only when it has this tag); empty when the table, script or feature is absent.
    mutating func lookupIndices(feature: String) throws -> [Int] {
        // Version 1.0 and 1.1 share the first three offsets (1.1 adds FeatureVariations, not read).
        guard try r.u16(0) == 1 else { return [] }
        let scriptList = Int(try r.u16(4))
        let featureList = Int(try r.u16(6))
        guard scriptList != 0, featureList != 0, try r.u16(8) != 0 else { return [] }
        guard let langSys = try defaultLanguageSystem(scriptList) else { return [] }

        var features = [Int]()
        let required = Int(try r.u16(langSys + 2))
        if required != 0xFFFF { features.append(required) }
        let featureIndexCount = Int(try r.u16(langSys + 4))
        try charge(featureIndexCount)
        for index in 0..<featureIndexCount { features.append(Int(try r.u16(langSys + 6 + index * 2))) }

        let featureCount = Int(try r.u16(featureList))
        var lookupIndices = Set<Int>()
        for index in Set(features) where index < featureCount {
            let record = featureList + 2 + index * 6
            guard try tag(record) == feature else { continue }
            let table = featureList + Int(try r.u16(record + 4))
            let lookupCount = Int(try r.u16(table + 2))
            try charge(lookupCount)
            for index in 0..<lookupCount { lookupIndices.insert(Int(try r.u16(table + 4 + index * 2))) }
        }
        return lookupIndices.sorted()
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

    /// Where lookup `index` of the LookupList starts, or nil past the list's end.
    func lookupOffset(_ index: Int) throws -> Int? {
        let lookupList = Int(try r.u16(8))
        guard index < Int(try r.u16(lookupList)) else { return nil }
        return lookupList + Int(try r.u16(lookupList + 2 + index * 2))
    }

    /// A Lookup table's flag and the subtables of a type `supports` accepts, in order, each with its type. A subtable
    /// of a lookup of `extensionType` (GPOS 9, GSUB 7) is resolved to the one it wraps (format 1: the wrapped type,
    /// then a 32-bit offset from the extension subtable); nothing more is read of a lookup of an unsupported type.
    mutating func readLookup(
        _ lookup: Int,
        extensionType: UInt16,
        supports: (UInt16) -> Bool
    ) throws -> (flag: UInt16, subtables: [(type: UInt16, offset: Int)]) {
        let type = try r.u16(lookup)
        let flag = try r.u16(lookup + 2)
        let subtableCount = Int(try r.u16(lookup + 4))
        try charge(subtableCount)
        guard type == extensionType || supports(type) else { return (flag, []) }
        var subtables: [(type: UInt16, offset: Int)] = []
        for index in 0..<subtableCount {
            let subtable = lookup + Int(try r.u16(lookup + 6 + index * 2))
            if type != extensionType {
                subtables.append((type, subtable))
                continue
            }
            let wrapped = try r.u16(subtable + 2)
            guard try r.u16(subtable) == 1, wrapped != extensionType, supports(wrapped) else { continue }
            subtables.append((wrapped, subtable + Int(try r.u32(subtable + 4))))
        }
        return (flag, subtables)
    }

    /// A Coverage table: each range's value is the coverage index of its first glyph.
    mutating func readCoverage(_ c: Int) throws -> GlyphRanges {
        try readGlyphRanges(c, classDef: false)
    }

    /// A ClassDef table: each range's value is its class (glyphs in no range are class 0).
    mutating func readClassDef(_ c: Int) throws -> GlyphRanges {
        try readGlyphRanges(c, classDef: true)
    }

    /// A Coverage or ClassDef table, read once per offset. Format 2 of both is a list of RangeRecords; format 1 a
    /// sorted glyph array (Coverage) or a class per glyph from a start glyph (ClassDef), read into ranges.
    private mutating func readGlyphRanges(_ c: Int, classDef: Bool) throws -> GlyphRanges {
        let key = c << 1 | (classDef ? 1 : 0)
        if let cached = glyphRanges[key] { return cached }
        let format = try r.u16(c)
        let ranges: [(start: UInt16, end: UInt16, value: UInt16)]
        switch format {
        case 1:
            ranges = try classDef ? classRanges(c) : coverageRanges(c)
        case 2:
            let count = Int(try r.u16(c + 2))
            try charge(count)
            ranges = try (0..<count).map { index in
                let record = c + 4 + index * 6
                return (try r.u16(record), try r.u16(record + 2), try r.u16(record + 4))
            }
        default:
            throw TrueTypeFontError.malformed(
                table: table,
                reason: "\(classDef ? "ClassDef" : "Coverage") format \(format)"
            )
        }
        let result = GlyphRanges(ranges)
        glyphRanges[key] = result
        return result
    }

    /// Coverage format 1: a sorted glyph array; runs of consecutive glyphs become one range.
    private mutating func coverageRanges(_ c: Int) throws -> [(start: UInt16, end: UInt16, value: UInt16)] {
        var ranges: [(start: UInt16, end: UInt16, value: UInt16)] = []
        let count = Int(try r.u16(c + 2))
        try charge(count)
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
        return ranges
    }

    /// ClassDef format 1: a class for each glyph from a start glyph; runs of one class become one range, class 0 none.
    private mutating func classRanges(_ c: Int) throws -> [(start: UInt16, end: UInt16, value: UInt16)] {
        var ranges: [(start: UInt16, end: UInt16, value: UInt16)] = []
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
        return ranges
    }

    /// GDEF's GlyphClassDef (1 base, 2 ligature, 3 mark, 4 component), which lookup flags skip glyphs by; nil when the
    /// GDEF table has none.
    static func glyphClasses(gdef: TrueTypeReader, numberOfGlyphs: Int) throws -> GlyphRanges? {
        var parser = OpenTypeLayoutParser(r: gdef, numberOfGlyphs: numberOfGlyphs)
        guard try gdef.u16(0) == 1 else { return nil }
        let classDef = Int(try gdef.u16(4))
        return classDef == 0 ? nil : try parser.readClassDef(classDef)
    }
}
