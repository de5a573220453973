import Foundation
import PlazaCore

/// The one layout engine for card text: the browser preview (SVG) and the print file (PDF) both draw its output, glyph
/// by glyph, so what a customer approves is what gets printed. It sets the font's standard ligatures (GSUB `liga`, with
/// the contextual forms that feature chains to) and kerns each glyph with the one before it (GPOS `kern`, else `kern`).
///
/// Vertical placement: the first baseline sits the font's hhea ascender (at the label's size) below the box's top, and
/// each following one `lineHeight` lower. hhea is what CoreText and browsers on Apple platforms use for the line box, it
/// exists in every TrueType font (OS/2 typo metrics do not), and since SVG and PDF both take the baseline from here the
/// choice only has to be made once. A line overflows when its descender (hhea) reaches below the box.
public enum CardTypesetter {
    /// How far past the box a line may reach and still count as inside: absorbs floating-point noise only.
    static let tolerance = 1e-9

    /// Lays a label out. Pure and deterministic: the same label gives the same numbers, bit for bit.
    public static func layout(_ label: CardTextLabel) -> CardTextLayout {
        let font = label.font.font
        let box = label.box
        let millimetresPerUnit = label.size / Double(font.unitsPerEm) * CardUnits.millimetresPerPoint
        let ascent = Double(font.horizontalHeader.ascender) * millimetresPerUnit
        let descent = Double(-font.horizontalHeader.descender) * millimetresPerUnit
        let lineHeight = CardUnits.millimetres(fromPoints: label.effectiveLineHeight)
        let fits = { (units: Int) in Double(units) * millimetresPerUnit <= box.width + tolerance }

        var lines: [CardTextLine] = []
        var missing: [Unicode.Scalar] = []
        var seenMissing = Set<Unicode.Scalar>()
        for scalars in paragraphs(label.text) {
            let paragraph = CardMeasuredParagraph(scalars: scalars, font: font)
            for (scalar, glyph) in zip(scalars, paragraph.characterGlyphs)
            where glyph == 0 && seenMissing.insert(scalar).inserted {
                missing.append(scalar)
            }
            for range in paragraph.lineRanges(fits: fits) {
                let index = lines.count
                let widthUnits = paragraph.width(range)
                let width = Double(widthUnits) * millimetresPerUnit
                let x: Double
                switch label.alignment {
                case .left: x = box.x
                case .center: x = box.x + (box.width - width) / 2
                case .right: x = box.maxX - width
                }
                let baseline = box.y + ascent + Double(index) * lineHeight
                let glyphs = range.map { at in
                    CardGlyph(
                        id: paragraph.glyphs[at],
                        scalars: Array(paragraph.characters(of: at)),
                        x: x + Double(paragraph.offset(of: at, lineStart: range.lowerBound)) * millimetresPerUnit,
                        advance: Double(paragraph.advances[at]) * millimetresPerUnit,
                        isSubstituted: paragraph.isSubstituted(at)
                    )
                }
                let pastMaxLines = label.maxLines > 0 && index >= label.maxLines
                let belowBox = baseline + descent > box.maxY + tolerance
                lines.append(
                    CardTextLine(
                        text: String(String.UnicodeScalarView(paragraph.characters(range))),
                        glyphs: glyphs,
                        x: x,
                        baseline: baseline,
                        width: width,
                        isOverflowing: pastMaxLines || belowBox || !fits(widthUnits)
                    )
                )
            }
        }
        return CardTextLayout(
            fontID: label.font.id,
            size: label.size,
            lineHeight: lineHeight,
            ascent: ascent,
            descent: descent,
            lines: lines,
            overflow: lines.contains(where: \.isOverflowing),
            missingScalars: missing
        )
    }

    /// Splits text into paragraphs of scalars at hard breaks ("\n", "\r\n", "\r"). Text is NFC-normalised first so an
    /// "e" + combining acute typed on one keyboard sets the font's precomposed "é" like it does from another (marks are not
    /// positioned); tabs become spaces.
    static func paragraphs(_ text: String) -> [[Unicode.Scalar]] {
        var paragraphs: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var afterCarriageReturn = false
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar {
            case "\n" where afterCarriageReturn:
                break
            case "\n", "\r":
                paragraphs.append(current)
                current = []
            case "\t":
                current.append(" ")
            default:
                current.append(scalar)
            }
            afterCarriageReturn = scalar == "\r"
        }
        paragraphs.append(current)
        return paragraphs
    }
}
