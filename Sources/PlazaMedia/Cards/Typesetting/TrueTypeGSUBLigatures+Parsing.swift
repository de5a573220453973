import PlazaCore

extension TrueTypeGSUBLigatures {
    /// Reads the `liga` lookups and every lookup their contextual rules call (transitively, each once).
    ///
    /// `glyphClasses` is GDEF's GlyphClassDef, for the lookup flags that skip base glyphs, ligatures or marks.
    static func parse(
        _ r: TrueTypeReader,
        numberOfGlyphs: Int,
        glyphClasses: GlyphRanges? = nil
    ) throws -> TrueTypeGSUBLigatures {
        var parser = Parser(layout: OpenTypeLayoutParser(r: r, numberOfGlyphs: numberOfGlyphs))
        let feature = try parser.layout.lookupIndices(feature: "liga")
        var lookups: [Int: Lookup] = [:]
        var pending = feature
        var visited = Set(feature)
        while let index = pending.popLast() {
            guard let offset = try parser.layout.lookupOffset(index) else { continue }
            let lookup = try parser.readLookup(offset)
            lookups[index] = lookup
            for subtable in lookup.subtables {
                guard case .context(let context) = subtable else { continue }
                try parser.layout.charge(context.lookupIndices.count)
                for called in context.lookupIndices where visited.insert(called).inserted { pending.append(called) }
            }
        }
        return TrueTypeGSUBLigatures(
            featureLookups: feature.filter { lookups[$0]?.subtables.isEmpty == false },
            lookups: lookups,
            glyphClasses: glyphClasses,
            numberOfGlyphs: numberOfGlyphs
        )
    }

    private struct Parser {
        var layout: OpenTypeLayoutParser
        /// Subtables by offset and type, each read once.
        var subtables: [Int: Subtable?] = [:]

        var r: TrueTypeReader { layout.r }

        /// A lookup's subtables of the types applied here (an extension's resolved), in order.
        mutating func readLookup(_ lookup: Int) throws -> Lookup {
            let read = try layout.readLookup(lookup, extensionType: 7) { [1, 4, 5, 6].contains($0) }
            var subtables: [Subtable] = []
            for subtable in read.subtables {
                if let parsed = try readSubtable(subtable.type, at: subtable.offset) { subtables.append(parsed) }
            }
            // The first-glyph bit set costs a bit per covered glyph: charged, so thousands of lookups covering every
            // glyph run out of budget instead of time.
            var covered = 0
            for subtable in subtables {
                let coverage = subtable.coverage
                for index in 0..<coverage.rangeCount {
                    let range = coverage.range(index)
                    covered += max(0, min(Int(range.end), layout.numberOfGlyphs - 1) - Int(range.start) + 1)
                }
            }
            try layout.charge(subtables.count + covered / 8)
            return Lookup(flag: read.flag, subtables: subtables, numberOfGlyphs: layout.numberOfGlyphs)
        }

        /// nil for a format this reader does not know (the subtable then never applies).
        mutating func readSubtable(_ type: UInt16, at s: Int) throws -> Subtable? {
            let key = s << 3 | Int(type)
            if let cached = subtables[key] { return cached }
            let parsed: Subtable?
            switch (type, try r.u16(s)) {
            case (1, 1): parsed = .delta(try coverage(s, 2), try r.u16(s + 4))
            case (1, 2): parsed = .substitutes(try coverage(s, 2), try array(s + 4))
            case (4, 1): parsed = try readLigatures(s)
            case (5, 1), (6, 1):
                parsed = try readContext(s, index: .coverageIndex, chained: type == 6, classes: nil)
            case (5, 2):
                let classDef = try classDef(s, 4)
                let classes = (backtrack: classDef, input: classDef, lookahead: classDef)
                parsed = try readContext(s, index: .inputClass(classDef), chained: false, classes: classes)
            case (6, 2):
                let classes = (backtrack: try classDef(s, 4), input: try classDef(s, 6), lookahead: try classDef(s, 8))
                parsed = try readContext(s, index: .inputClass(classes.input), chained: true, classes: classes)
            case (5, 3), (6, 3): parsed = try readCoverageContext(s, chained: type == 6)
            default: parsed = nil
            }
            subtables[key] = parsed
            return parsed
        }

        /// The Coverage whose offset from `base` is at `base + field`.
        mutating func coverage(_ base: Int, _ field: Int) throws -> GlyphRanges {
            try layout.readCoverage(base + Int(try r.u16(base + field)))
        }

        /// The ClassDef whose offset from `base` is at `base + field`.
        mutating func classDef(_ base: Int, _ field: Int) throws -> GlyphRanges {
            try layout.readClassDef(base + Int(try r.u16(base + field)))
        }

        /// `count` 16-bit values at `offset`, or when `count` is nil, a 16-bit count at `offset` and that many after
        /// it.
        mutating func array(_ offset: Int, count: Int? = nil) throws -> [UInt16] {
            let start = count == nil ? offset + 2 : offset
            let count = try count ?? Int(r.u16(offset))
            try layout.charge(count)
            _ = try r.position(start, count * 2)
            return try (0..<count).map { try r.u16(start + $0 * 2) }
        }

        /// The tables an offset array at `offset` (a count, then offsets from `base`) points to; a null offset is nil.
        mutating func offsets(_ offset: Int, from base: Int) throws -> [Int?] {
            try array(offset).map { $0 == 0 ? nil : base + Int($0) }
        }

        mutating func readLigatures(_ s: Int) throws -> Subtable {
            let coverage = try coverage(s, 2)
            var sets: [[Ligature]] = []
            for set in try offsets(s + 4, from: s) {
                guard let set else {
                    sets.append([])
                    continue
                }
                var ligatures: [Ligature] = []
                for ligature in try offsets(set, from: set).compactMap({ $0 }) {
                    let glyph = try r.u16(ligature)
                    let count = Int(try r.u16(ligature + 2))
                    // The component count includes the first glyph; a ligature past the font's glyphs is dropped.
                    guard count > 0, Int(glyph) < layout.numberOfGlyphs else { continue }
                    ligatures.append(Ligature(glyph: glyph, components: try array(ligature + 4, count: count - 1)))
                }
                sets.append(ligatures)
            }
            return .ligatures(coverage, sets)
        }

        /// Formats 1 and 2: rule sets (by coverage index or input class), each a list of rules of glyph ids or classes.
        mutating func readContext(
            _ s: Int,
            index: Context.RuleSetIndex,
            chained: Bool,
            classes: (backtrack: GlyphRanges, input: GlyphRanges, lookahead: GlyphRanges)?
        ) throws -> Subtable {
            let coverage = try coverage(s, 2)
            // The rule set offsets follow the coverage and the ClassDefs (one for type 5, three for type 6).
            let setOffsets = classes == nil ? s + 4 : chained ? s + 10 : s + 6
            func sequence(_ values: [UInt16], _ classDef: GlyphRanges?) -> GlyphSequence {
                classDef.map { .classes(values, $0) } ?? .glyphs(values)
            }
            var ruleSets: [[Rule]] = []
            for set in try offsets(setOffsets, from: s) {
                var rules: [Rule] = []
                for rule in try set.map({ try offsets($0, from: $0) }) ?? [] {
                    guard let rule else { continue }
                    var cursor = rule
                    let backtrack = chained ? try array(cursor) : []
                    if chained { cursor += 2 + 2 * backtrack.count }
                    let inputCount = Int(try r.u16(cursor))
                    guard inputCount > 0, inputCount <= 64 else { continue }
                    let recordCount = chained ? nil : Int(try r.u16(cursor + 2))
                    cursor += chained ? 2 : 4
                    let input = try array(cursor, count: inputCount - 1)
                    cursor += 2 * input.count
                    let lookahead = chained ? try array(cursor) : []
                    if chained { cursor += 2 + 2 * lookahead.count }
                    let records = try readRecords(cursor, count: recordCount)
                    rules.append(
                        Rule(
                            backtrack: sequence(backtrack, classes?.backtrack),
                            input: sequence(input, classes?.input),
                            lookahead: sequence(lookahead, classes?.lookahead),
                            records: records
                        )
                    )
                }
                ruleSets.append(rules)
            }
            return .context(Context(coverage: coverage, index: index, ruleSets: ruleSets))
        }

        /// Format 3: one rule of a Coverage per glyph; the first input Coverage selects it.
        mutating func readCoverageContext(_ s: Int, chained: Bool) throws -> Subtable? {
            var cursor = s + 2
            func coverages(count: Int? = nil) throws -> [GlyphRanges] {
                let offsets = try array(cursor, count: count)
                cursor += 2 * offsets.count + (count == nil ? 2 : 0)
                return try offsets.map { try layout.readCoverage(s + Int($0)) }
            }
            let backtrack = chained ? try coverages() : []
            let input: [GlyphRanges]
            var recordCount: Int?
            if chained {
                input = try coverages()
            } else {
                let inputCount = Int(try r.u16(cursor))
                recordCount = Int(try r.u16(cursor + 2))
                cursor += 4
                input = try coverages(count: inputCount)
            }
            let lookahead = chained ? try coverages() : []
            guard let first = input.first, input.count <= 64 else { return nil }
            let rule = Rule(
                backtrack: .coverages(backtrack),
                input: .coverages(Array(input.dropFirst())),
                lookahead: .coverages(lookahead),
                records: try readRecords(cursor, count: recordCount)
            )
            return .context(Context(coverage: first, index: .first, ruleSets: [[rule]]))
        }

        /// SubstLookupRecords (sequence index, lookup index) at `offset`, preceded by their count when it is nil.
        mutating func readRecords(_ offset: Int, count: Int?) throws -> [SubstLookupRecord] {
            let start = count == nil ? offset + 2 : offset
            let count = try count ?? Int(r.u16(offset))
            let values = try array(start, count: 2 * count)
            return stride(from: 0, to: values.count, by: 2).map {
                (sequenceIndex: Int(values[$0]), lookupIndex: Int(values[$0 + 1]))
            }
        }
    }
}
