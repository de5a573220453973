import PlazaCore

/// One paragraph (text between hard breaks) mapped to glyphs, its standard ligatures applied, and measured once in
/// integer font units. Prefix sums make the width of any range of glyphs O(1) for the line breaker, and integers keep the
/// arithmetic exact and deterministic. Lines are ranges of glyphs, so a break can never fall inside a ligature.
struct CardMeasuredParagraph {
    let scalars: [Unicode.Scalar]
    /// The glyph each character maps to on its own (0 when the font lacks it), before ligatures.
    let characterGlyphs: [UInt16]
    /// The glyphs set, ligatures and contextual forms applied.
    let glyphs: [UInt16]
    /// `clusterStarts[i]` = the first character glyph `i` sets; one more entry, `scalars.count`, closes the last.
    let clusterStarts: [Int]
    let advances: [Int]
    /// `advanceSums[i]` = advances of glyphs `0..<i`.
    private let advanceSums: [Int]
    /// `kernSums[i]` = kerning applied before glyphs `1..<i` (the pair each glyph forms with the one before it).
    private let kernSums: [Int]

    init(scalars: [Unicode.Scalar], font: TrueTypeFont) {
        self.scalars = scalars
        characterGlyphs = scalars.map { font.glyphID(for: $0) }
        let (glyphs, clusters) = font.ligate(characterGlyphs)
        var clusterStarts = [0]
        clusterStarts.reserveCapacity(glyphs.count + 1)
        for count in clusters { clusterStarts.append(clusterStarts[clusterStarts.count - 1] + count) }
        let advances = glyphs.map { font.advanceWidth(of: $0) }
        var advanceSums = [0]
        var kernSums = [0]
        advanceSums.reserveCapacity(glyphs.count + 1)
        kernSums.reserveCapacity(glyphs.count + 1)
        for index in glyphs.indices {
            advanceSums.append(advanceSums[index] + advances[index])
            let kern = index == 0 || !font.hasKerning ? 0 : font.kerning(between: glyphs[index - 1], and: glyphs[index])
            kernSums.append(kernSums[index] + kern)
        }
        self.glyphs = glyphs
        self.clusterStarts = clusterStarts
        self.advances = advances
        self.advanceSums = advanceSums
        self.kernSums = kernSums
    }

    /// The characters glyph `index` sets.
    func characters(of index: Int) -> ArraySlice<Unicode.Scalar> {
        scalars[clusterStarts[index]..<clusterStarts[index + 1]]
    }

    /// The characters glyphs `range` set.
    func characters(_ range: Range<Int>) -> ArraySlice<Unicode.Scalar> {
        scalars[clusterStarts[range.lowerBound]..<clusterStarts[range.upperBound]]
    }

    /// Whether glyph `index` is not the one its character maps to: a ligature, or a contextual form.
    func isSubstituted(_ index: Int) -> Bool {
        let start = clusterStarts[index]
        return clusterStarts[index + 1] - start != 1 || characterGlyphs[start] != glyphs[index]
    }

    /// A glyph that sets one space (U+0020) and nothing else: where lines may break.
    private func isSpace(_ index: Int) -> Bool {
        clusterStarts[index + 1] - clusterStarts[index] == 1 && scalars[clusterStarts[index]] == " "
    }

    /// The advance width of glyphs `range` set together: kerning inside the range counts, the pair across its start not.
    func width(_ range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        return advanceSums[range.upperBound] - advanceSums[range.lowerBound] + kernSums[range.upperBound]
            - kernSums[range.lowerBound + 1]
    }

    /// Where glyph `index` starts on a line that begins at glyph `start`.
    func offset(of index: Int, lineStart start: Int) -> Int {
        advanceSums[index] - advanceSums[start] + kernSums[index + 1] - kernSums[start + 1]
    }

    /// Greedy line breaking. Breaks only at spaces (U+0020); the run of spaces at a soft break is dropped, spaces between
    /// words on a line are kept as typed, as are the paragraph's leading spaces; trailing spaces are dropped so they never
    /// shift centred or right-aligned text while someone is typing. A word too wide for an empty line is split between
    /// glyphs, never inside a ligature (at least one glyph per line, so a box narrower than one glyph still terminates).
    func lineRanges(fits: (Int) -> Bool) -> [Range<Int>] {
        let count = glyphs.count
        var lines: [Range<Int>] = []
        var current: Range<Int>?
        var index = 0
        while index < count {
            let spaceStart = index
            while index < count, isSpace(index) { index += 1 }
            let wordStart = index
            while index < count, !isSpace(index) { index += 1 }
            guard wordStart < index else { break }
            if let line = current {
                if fits(width(line.lowerBound..<index)) {
                    current = line.lowerBound..<index
                    continue
                }
                lines.append(line)
            }
            var start = lines.isEmpty ? spaceStart : wordStart
            while index - start > 1, !fits(width(start..<index)) {
                var end = start + 1
                while end + 1 < index, fits(width(start..<(end + 1))) { end += 1 }
                lines.append(start..<end)
                start = end
            }
            current = start..<index
        }
        if let line = current {
            lines.append(line)
        } else if lines.isEmpty {
            lines.append(0..<0)
        }
        return lines
    }
}
