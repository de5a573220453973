import PlazaCore

/// Outline access for subsetting: a glyph's `glyf` bytes and the glyphs a composite glyph is built from.
extension TrueTypeFont {
    /// A glyph's `glyf` record (empty for glyphs without outlines, such as the space, and for ids past the glyph count).
    public func glyphData(_ glyph: UInt16) -> ArraySlice<UInt8> {
        guard Int(glyph) < numberOfGlyphs else { return [] }
        return bytes[glyphOffsets[Int(glyph)]..<glyphOffsets[Int(glyph) + 1]]
    }

    /// The glyphs a composite glyph references directly (empty for simple glyphs), in the order they appear.
    public func componentGlyphIDs(of glyph: UInt16) throws -> [UInt16] {
        let record = glyphData(glyph)
        guard !record.isEmpty else { return [] }
        let r = try TrueTypeReader(bytes: bytes, table: "glyf", start: record.startIndex, length: record.count)
        guard try r.i16(0) < 0 else { return [] }
        var components: [UInt16] = []
        var offset = 10
        while true {
            let flags = try r.u16(offset)
            let component = try r.u16(offset + 2)
            guard Int(component) < numberOfGlyphs else {
                throw TrueTypeFontError.malformed(
                    table: "glyf",
                    reason: "glyph \(glyph) uses missing glyph \(component)"
                )
            }
            components.append(component)
            offset += 4 + (flags & 0x0001 != 0 ? 4 : 2)  // ARG_1_AND_2_ARE_WORDS
            if flags & 0x0008 != 0 {  // WE_HAVE_A_SCALE
                offset += 2
            } else if flags & 0x0040 != 0 {  // WE_HAVE_AN_X_AND_Y_SCALE
                offset += 4
            } else if flags & 0x0080 != 0 {  // WE_HAVE_A_TWO_BY_TWO
                offset += 8
            }
            guard flags & 0x0020 != 0 else { break }  // MORE_COMPONENTS
        }
        return components
    }

    /// The glyphs plus every glyph their composites use, transitively, plus `.notdef` (glyph 0): what a subset must keep.
    /// Each glyph is expanded once, so a composite that (illegally) contains itself cannot loop.
    public func glyphClosure(_ glyphs: some Sequence<UInt16>) throws -> Set<UInt16> {
        var kept: Set<UInt16> = []
        var pending = [0] + glyphs.filter { Int($0) < numberOfGlyphs }
        while let glyph = pending.popLast() {
            guard kept.insert(glyph).inserted else { continue }
            pending.append(contentsOf: try componentGlyphIDs(of: glyph).filter { !kept.contains($0) })
        }
        return kept
    }
}
