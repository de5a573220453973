import PlazaCore
import PlazaMedia

/// One indirect object's body: a dictionary (or other value), optionally followed by a stream whose /Length is added
/// here. Streams are compressed with PlazaCore's own `Deflate` (Foundation has no zlib on Linux) where that makes them
/// smaller: see `flate`.
struct PDFObject {
    let body: String
    let stream: [UInt8]?

    /// `body` is the whole value; with a stream it must be an unterminated dictionary (`<< /Key value`), closed with the
    /// /Length added.
    init(_ body: String, stream: [UInt8]? = nil) {
        self.body = body
        self.stream = stream
    }

    /// A stream as /FlateDecode when compressing shrinks it, which it nearly always does (content streams and CMaps are
    /// text, font programs have tables of small numbers); otherwise as it is. Deterministic, like the rest of the file.
    static func flate(_ body: String, stream: [UInt8]) -> PDFObject {
        let compressed = Deflate.zlib(stream)
        guard compressed.count < stream.count else { return PDFObject(body, stream: stream) }
        return PDFObject(body + " /Filter /FlateDecode", stream: compressed)
    }

    func serialized(number: Int) -> [UInt8] {
        var out = Array("\(number) 0 obj\n".utf8)
        if let stream {
            let dictionary = body == "<<" ? "<< /Length \(stream.count) >>" : body + " /Length \(stream.count) >>"
            out += Array((dictionary + "\nstream\n").utf8)
            out += stream
            out += Array("\nendstream".utf8)
        } else {
            out += Array(body.utf8)
        }
        out += Array("\nendobj\n".utf8)
        return out
    }
}
