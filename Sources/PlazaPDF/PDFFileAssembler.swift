/// Lays objects out as a PDF file: header, objects in number order, the cross-reference table, and a trailer whose /ID
/// is the SHA-256 of everything before it (so identical content gives an identical file, and different content a
/// different id).
enum PDFFileAssembler {
    /// Objects are numbered from 1 in array order; object 1 must be the catalog and 3 the info dictionary.
    static func assemble(_ objects: [PDFObject]) -> [UInt8] {
        // The comment's high bytes tell transfer tools the file is binary.
        var out = Array("%PDF-1.7\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A]
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.count)
            out += object.serialized(number: index + 1)
        }
        let id = PDFSyntax.hex(PDFDigest.sha256(out).prefix(16))
        let startXref = out.count
        // Each entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, n/f, CR LF.
        var xref = "xref\n0 \(objects.count + 1)\n0000000000 65535 f\r\n"
        for offset in offsets {
            let digits = String(offset)
            xref += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n\r\n"
        }
        xref += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R /Info 3 0 R /ID [<\(id)> <\(id)>] >>\n"
        xref += "startxref\n\(startXref)\n%%EOF\n"
        return out + Array(xref.utf8)
    }
}
