/// The ToUnicode CMap: glyph id (the two-byte Identity-H code) → the characters it sets (several for a ligature), so text extraction, search and
/// copy-paste see the words rather than glyph numbers.
enum PDFToUnicodeCMap {
    static func build(_ unicode: [UInt16: [Unicode.Scalar]]) -> String {
        var out = """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange

            """
        let entries = unicode.sorted { $0.key < $1.key }
        // A bfchar block may hold at most 100 entries.
        for start in stride(from: 0, to: entries.count, by: 100) {
            let block = entries[start..<min(start + 100, entries.count)]
            out += "\(block.count) beginbfchar\n"
            for (glyph, scalars) in block {
                let units = Array(String(String.UnicodeScalarView(scalars)).utf16).flatMap {
                    [UInt8($0 >> 8), UInt8($0 & 0xFF)]
                }
                out += PDFSyntax.glyphCode(glyph) + " <" + PDFSyntax.hex(units) + ">\n"
            }
            out += "endbfchar\n"
        }
        return out + "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    }
}
