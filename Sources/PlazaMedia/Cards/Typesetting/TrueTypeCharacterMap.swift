import PlazaCore

/// The Unicode → glyph mapping of a font's `cmap`, stored as sorted runs (consecutive code points to consecutive glyphs)
/// so lookups are a binary search whatever the subtable format, with a table for Latin-1, the common case on a card.
struct TrueTypeCharacterMap: Sendable, Hashable {
    struct Run: Sendable, Hashable {
        var first: UInt32
        var last: UInt32
        var firstGlyph: UInt32
    }

    private(set) var runs: [Run] = []
    private var latin1 = [UInt16](repeating: 0, count: 256)

    func glyph(for scalar: UInt32) -> UInt16 {
        if scalar < 256 { return latin1[Int(scalar)] }
        var low = 0
        var high = runs.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let run = runs[mid]
            if scalar < run.first {
                high = mid - 1
            } else if scalar > run.last {
                low = mid + 1
            } else {
                return UInt16(truncatingIfNeeded: run.firstGlyph + (scalar - run.first))
            }
        }
        return 0
    }

    /// Picks the subtable the brief (and common practice) prefers: full-repertoire Windows (3/10), then BMP Windows (3/1),
    /// then Unicode platform ones, newest encoding first; only formats 4 and 12 are read (0/5 is format 14, variations).
    static func parse(_ r: TrueTypeReader, numberOfGlyphs: Int) throws -> TrueTypeCharacterMap {
        let count = Int(try r.u16(2))
        var offsets: [Int: Int] = [:]
        for index in 0..<count {
            let key = Int(try r.u16(4 + index * 8)) << 16 | Int(try r.u16(6 + index * 8))
            if offsets[key] == nil { offsets[key] = Int(try r.u32(8 + index * 8)) }
        }
        let preference = [(3, 10), (3, 1), (0, 6), (0, 4), (0, 3), (0, 2), (0, 1), (0, 0)]
        for (platform, encoding) in preference {
            guard let offset = offsets[platform << 16 | encoding] else { continue }
            let format = try r.u16(offset)
            var map = TrueTypeCharacterMap()
            switch format {
            case 4: try map.readFormat4(r.sub(offset), numberOfGlyphs: numberOfGlyphs)
            case 12: try map.readFormat12(r.sub(offset), numberOfGlyphs: numberOfGlyphs)
            default: continue
            }
            map.finish()
            return map
        }
        throw TrueTypeFontError.noUnicodeCharacterMap
    }

    private mutating func readFormat4(_ r: TrueTypeReader, numberOfGlyphs: Int) throws {
        let segments = Int(try r.u16(6)) / 2
        let ends = 14
        let starts = ends + segments * 2 + 2
        let deltas = starts + segments * 2
        let rangeOffsets = deltas + segments * 2
        // Segments must be sorted and disjoint; skipping codes already covered keeps a hostile table from costing more
        // than one pass over the 65,535 BMP code points.
        var next: UInt32 = 0
        for segment in 0..<segments {
            let end = UInt32(try r.u16(ends + segment * 2))
            let start = UInt32(try r.u16(starts + segment * 2))
            let delta = UInt32(try r.u16(deltas + segment * 2))
            let rangeOffset = Int(try r.u16(rangeOffsets + segment * 2))
            // 0xFFFF is the mandatory terminator segment, never a character.
            let first = max(start, next)
            let last = min(end, 0xFFFE)
            guard first <= last else { continue }
            next = last + 1
            for code in first...last {
                var glyph: UInt32
                if rangeOffset == 0 {
                    glyph = (code &+ delta) & 0xFFFF
                } else {
                    // idRangeOffset counts bytes from its own slot into glyphIdArray (the spec's pointer trick).
                    let at = rangeOffsets + segment * 2 + rangeOffset + Int(code - start) * 2
                    glyph = UInt32(try r.u16(at))
                    if glyph != 0 { glyph = (glyph &+ delta) & 0xFFFF }
                }
                append(code, glyph, numberOfGlyphs: numberOfGlyphs)
            }
        }
    }

    private mutating func readFormat12(_ r: TrueTypeReader, numberOfGlyphs: Int) throws {
        let groups = Int(try r.u32(12))
        for group in 0..<groups {
            let first = try r.u32(16 + group * 12)
            let last = try r.u32(20 + group * 12)
            let glyph = try r.u32(24 + group * 12)
            guard first <= last, last <= 0x10_FFFF, glyph < numberOfGlyphs,
                UInt64(glyph) + UInt64(last - first) < numberOfGlyphs
            else {
                throw TrueTypeFontError.malformed(table: "cmap", reason: "format 12 group \(group) out of range")
            }
            runs.append(Run(first: first, last: last, firstGlyph: glyph))
        }
    }

    /// Adds one mapping, extending the previous run when both code point and glyph continue it; glyphs past the font's
    /// glyph count are dropped (the character then reads as missing rather than pointing nowhere).
    private mutating func append(_ code: UInt32, _ glyph: UInt32, numberOfGlyphs: Int) {
        guard glyph != 0, glyph < numberOfGlyphs else { return }
        if let last = runs.last, last.last + 1 == code, last.firstGlyph + (code - last.first) == glyph {
            runs[runs.count - 1].last = code
        } else {
            runs.append(Run(first: code, last: code, firstGlyph: glyph))
        }
    }

    /// Sorts runs for the binary search (fonts should already be sorted; a broken one stays deterministic) and fills the
    /// Latin-1 table.
    private mutating func finish() {
        runs.sort { ($0.first, $0.last) < ($1.first, $1.last) }
        var table = [UInt16](repeating: 0, count: 256)
        for run in runs.reversed() where run.first < 256 {
            for code in run.first...min(run.last, 255) {
                table[Int(code)] = UInt16(truncatingIfNeeded: run.firstGlyph + (code - run.first))
            }
        }
        latin1 = table
    }
}
