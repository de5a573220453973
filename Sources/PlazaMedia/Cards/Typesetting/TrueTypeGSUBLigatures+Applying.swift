import PlazaCore

extension TrueTypeGSUBLigatures {
    /// Applies the `liga` feature's lookups in LookupList order to a run of glyphs (one paragraph).
    ///
    /// Returns the glyphs to set and, for each, how many input glyphs it stands for (1 for a single substitution or an
    /// untouched glyph, n for a ligature of n glyphs). Counts add up to the input count, order kept.
    func apply(_ glyphs: [UInt16]) -> (glyphs: [UInt16], clusters: [Int]) {
        apply(glyphs, operationLimit: Self.operationLimit(glyphCount: glyphs.count))
    }

    /// The same with another cap on the operations: when it is reached, the glyphs as substituted so far.
    func apply(_ glyphs: [UInt16], operationLimit: Int) -> (glyphs: [UInt16], clusters: [Int]) {
        var run = Run(ligatures: self, glyphs: glyphs, operations: isEmpty ? 0 : operationLimit)
        for index in featureLookups { run.applyThroughout(index) }
        return (run.glyphs, run.clusters)
    }

    /// The glyphs being substituted, in place: glyphs before the current position are those already output (what a
    /// backtrack sees), glyphs after it the input still to come (what input and lookahead see).
    private struct Run {
        let ligatures: TrueTypeGSUBLigatures
        var glyphs: [UInt16]
        var clusters: [Int]
        /// Operations left; at 0 nothing more is matched and the glyphs are returned as they stand.
        var operations: Int

        init(ligatures: TrueTypeGSUBLigatures, glyphs: [UInt16], operations: Int) {
            self.ligatures = ligatures
            self.glyphs = glyphs
            self.operations = operations
            clusters = Array(repeating: 1, count: glyphs.count)
        }

        mutating func spend() -> Bool {
            operations -= 1
            return operations >= 0
        }

        /// One lookup over the whole run, left to right: where it applies, it goes on after what it substituted.
        mutating func applyThroughout(_ lookupIndex: Int) {
            guard let lookup = ligatures.lookups[lookupIndex] else { return }
            var position = 0
            while position < glyphs.count, spend() {
                if !lookup.skips(glyphs[position], classes: ligatures.glyphClasses),
                    let next = apply(lookup, at: position, depth: 0)
                {
                    position = next
                } else {
                    position += 1
                }
            }
        }

        /// Applies the lookup's first subtable that applies at `position`; returns where the lookup goes on, or nil
        /// when none applied.
        mutating func apply(_ lookup: Lookup, at position: Int, depth: Int) -> Int? {
            let glyph = glyphs[position]
            guard lookup.firstGlyphs.contains(glyph) else { return nil }
            for subtable in lookup.subtables {
                guard spend() else { return nil }
                switch subtable {
                case .delta(let coverage, let delta):
                    if coverage.coverageIndex(of: glyph) != nil, substitute(glyph &+ delta, at: position) {
                        return position + 1
                    }
                case .substitutes(let coverage, let substitutes):
                    if let index = coverage.coverageIndex(of: glyph), index < substitutes.count,
                        substitute(substitutes[index], at: position)
                    {
                        return position + 1
                    }
                case .ligatures(let coverage, let sets):
                    if let index = coverage.coverageIndex(of: glyph), index < sets.count,
                        let next = ligate(sets[index], lookup, at: position)
                    {
                        return next
                    }
                case .context(let context):
                    if let end = applyContext(context, lookup, at: position, depth: depth) {
                        return end
                    }
                }
            }
            return nil
        }

        /// Replaces one glyph, unless the substitute is past the font's glyphs.
        mutating func substitute(_ glyph: UInt16, at position: Int) -> Bool {
            guard Int(glyph) < ligatures.numberOfGlyphs else { return false }
            glyphs[position] = glyph
            return true
        }

        /// Forms the set's first ligature whose components follow `position` (with no skipped glyph between them); the
        /// ligature stands for all the glyphs it replaces.
        mutating func ligate(_ set: [Ligature], _ lookup: Lookup, at position: Int) -> Int? {
            for ligature in set {
                guard spend() else { return nil }
                guard let components = match(.glyphs(ligature.components), after: position, lookup),
                    (components.last ?? position) - position == components.count
                else { continue }
                let last = position + components.count
                glyphs[position] = ligature.glyph
                clusters[position] = clusters[position...last].reduce(0, +)
                glyphs.removeSubrange((position + 1)..<(last + 1))
                clusters.removeSubrange((position + 1)..<(last + 1))
                return position + 1
            }
            return nil
        }

        /// Tries the context's rules for the glyph at `position` in order; the first whose input, backtrack and
        /// lookahead all match has its SubstLookupRecords applied, and the lookup goes on after its input.
        mutating func applyContext(_ context: Context, _ lookup: Lookup, at position: Int, depth: Int) -> Int? {
            for rule in context.rules(for: glyphs[position]) {
                guard spend() else { return nil }
                guard let input = match(rule.input, after: position, lookup) else { continue }
                let last = input.last ?? position
                guard match(rule.backtrack, before: position, lookup) != nil,
                    match(rule.lookahead, after: last, lookup) != nil
                else { continue }
                return applyRecords(rule.records, [position] + input, end: last + 1, depth: depth)
            }
            return nil
        }

        /// The positions of the glyphs matching `sequence` after `position`, skipping those the lookup's flags ignore;
        /// nil when one does not match or the run ends first.
        mutating func match(_ sequence: GlyphSequence, after position: Int, _ lookup: Lookup) -> [Int]? {
            match(sequence, from: position, step: 1, lookup)
        }

        /// The same backwards, for a backtrack (nearest glyph first).
        mutating func match(_ sequence: GlyphSequence, before position: Int, _ lookup: Lookup) -> [Int]? {
            match(sequence, from: position, step: -1, lookup)
        }

        private mutating func match(
            _ sequence: GlyphSequence,
            from position: Int,
            step: Int,
            _ lookup: Lookup
        ) -> [Int]? {
            var positions: [Int] = []
            var current = position
            for index in 0..<sequence.count {
                repeat {
                    current += step
                    guard current >= 0, current < glyphs.count, spend() else { return nil }
                } while lookup.skips(glyphs[current], classes: ligatures.glyphClasses)
                guard sequence.matches(glyphs[current], at: index) else { return nil }
                positions.append(current)
            }
            return positions
        }

        /// Applies a matched rule's SubstLookupRecords in order, each lookup once at its input glyph's position, and
        /// returns where the calling lookup goes on. As HarfBuzz does: a ligature made by a called lookup removes the
        /// input positions after its own (the glyphs it took), a position past the run's end is passed over, and the
        /// end never goes back before the position called at. Calls deeper than `maximumNesting` do nothing.
        mutating func applyRecords(_ records: [SubstLookupRecord], _ matched: [Int], end: Int, depth: Int) -> Int {
            var positions = matched
            var end = end
            guard depth < TrueTypeGSUBLigatures.maximumNesting else { return end }
            for record in records where record.sequenceIndex < positions.count {
                let sequenceIndex = record.sequenceIndex
                let position = positions[sequenceIndex]
                guard position < glyphs.count, let nested = ligatures.lookups[record.lookupIndex] else { continue }
                guard operations > 0 else { break }
                let before = glyphs.count
                guard apply(nested, at: position, depth: depth + 1) != nil else { continue }
                // Only ligatures change the count, and only by taking glyphs after the position.
                var delta = glyphs.count - before
                guard delta < 0 else { continue }
                end += delta
                if end < position {
                    delta += position - end
                    end = position
                }
                delta = max(delta, sequenceIndex + 1 - positions.count)
                guard delta < 0 else { continue }
                positions.removeSubrange((sequenceIndex + 1)..<(sequenceIndex + 1 - delta))
                for index in (sequenceIndex + 1)..<positions.count { positions[index] += delta }
            }
            return end
        }
    }
}
