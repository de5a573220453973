import PlazaCore
import PlazaMedia

/// Writes one font as a Type0 font with Identity-H encoding over a CIDFontType2 whose FontFile2 is a glyph-id-preserving
/// subset (CIDToGIDMap /Identity), plus a ToUnicode CMap. Text then shows glyph ids directly: no cmap or encoding in the
/// PDF can reinterpret what the layout chose.
enum PDFFontEmbedder {
    /// Five objects, numbered `first...first + 4`: Type0 font (the one pages refer to), CIDFont, descriptor, font file,
    /// ToUnicode.
    static func objects(_ usage: PDFFontUsage, first: Int) throws -> [PDFObject] {
        let font = usage.font.font
        let embedding = font.embedding
        guard embedding.allowsOutlineEmbedding else {
            throw PDFError.embeddingForbidden(fontID: usage.font.id, fsType: embedding.fsType)
        }
        let postScriptName = sanitizedName(font.postScriptName ?? usage.font.id)
        let kept = try font.glyphClosure(usage.glyphs)
        // fsType bit 8 asks for the whole font: embed it all, without a subset tag.
        let subset = !embedding.forbidsSubsetting
        let program = TrueTypeSubsetter.subset(font, keeping: subset ? kept : nil)
        let baseFont = PDFSyntax.name(
            subset
                ? PDFFontUsage.subsetTag(fontName: postScriptName, glyphs: kept) + "+" + postScriptName : postScriptName
        )

        let type0 = PDFObject(
            "<< /Type /Font /Subtype /Type0 /BaseFont \(baseFont) /Encoding /Identity-H /DescendantFonts [\(first + 1) 0 R]"
                + " /ToUnicode \(first + 4) 0 R >>"
        )
        let cidFont = PDFObject(
            "<< /Type /Font /Subtype /CIDFontType2 /BaseFont \(baseFont) /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity)"
                + " /Supplement 0 >> /FontDescriptor \(first + 2) 0 R /CIDToGIDMap /Identity /DW 0 /W \(widths(font, usage.glyphs)) >>"
        )
        let descriptor = PDFObject(descriptorDictionary(font, name: baseFont, fontFile: first + 3))
        // /Length1 is the font program's own length, before the filter.
        let fontFile = PDFObject.flate("<< /Length1 \(program.count)", stream: program)
        let toUnicode = PDFObject.flate("<<", stream: Array(PDFToUnicodeCMap.build(usage.unicode).utf8))
        return [type0, cidFont, descriptor, fontFile, toUnicode]
    }

    /// /W: runs of consecutive used glyph ids with their advances in 1/1000 em (3 decimals, so they match the layout's
    /// advances; they only matter to text selection since every glyph is positioned explicitly).
    static func widths(_ font: TrueTypeFont, _ glyphs: Set<UInt16>) -> String {
        var out = "["
        var previous: UInt16?
        for glyph in glyphs.sorted() {
            let width = PDFSyntax.number(
                Double(font.advanceWidth(of: glyph)) * 1000 / Double(font.unitsPerEm),
                decimals: 3
            )
            if let previous, Int(glyph) == Int(previous) + 1 {
                out += " " + width
            } else {
                out += (previous == nil ? "" : "] ") + "\(glyph) [" + width
            }
            previous = glyph
        }
        return out + (previous == nil ? "]" : "]]")
    }

    static func descriptorDictionary(_ font: TrueTypeFont, name: String, fontFile: Int) -> String {
        let em = 1000 / Double(font.unitsPerEm)
        func scaled(_ value: Int) -> String { PDFSyntax.number(Double(value) * em, decimals: 3) }
        let italic = font.italicAngle != 0 || font.header.macStyle & 0x2 != 0
        // Flags: Symbolic (4) because the glyphs are addressed by id, not the standard Latin set; Italic (64); FixedPitch (1).
        let flags = 4 | (italic ? 64 : 0) | (font.isFixedPitch ? 1 : 0)
        let header = font.header
        let weight = Double(font.os2?.weightClass ?? 400)
        // StemV is not stored in TrueType; this weight-based estimate is the one PDFBox and others use (88 at 400).
        let stemV = Int((50 + (weight / 65) * (weight / 65)).rounded())
        var entries = "<< /Type /FontDescriptor /FontName \(name) /Flags \(flags)"
        entries +=
            " /FontBBox [\(scaled(header.xMin)) \(scaled(header.yMin)) \(scaled(header.xMax)) \(scaled(header.yMax))]"
        entries += " /ItalicAngle \(PDFSyntax.number(font.italicAngle))"
        entries +=
            " /Ascent \(scaled(font.horizontalHeader.ascender)) /Descent \(scaled(font.horizontalHeader.descender))"
        // Kristi's OS/2 (version 1) has no cap height; the ascender is the usual stand-in.
        entries += " /CapHeight \(scaled(font.os2?.capHeight ?? font.horizontalHeader.ascender))"
        if let xHeight = font.os2?.xHeight { entries += " /XHeight \(scaled(xHeight))" }
        return entries + " /StemV \(stemV) /FontFile2 \(fontFile) 0 R >>"
    }

    /// PostScript names are printable ASCII without delimiters; anything else would make an odd (if legal) PDF name.
    static func sanitizedName(_ name: String) -> String {
        let allowed = name.unicodeScalars.filter {
            $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"()<>[]{}/%#".unicodeScalars.contains($0)
        }
        return allowed.isEmpty ? "Font" : String(String.UnicodeScalarView(allowed))
    }
}
