/// One indirect object's body: a dictionary (or other value), optionally followed by a stream whose /Length is added
/// here. Streams are written uncompressed: Foundation has no zlib on Linux or iOS without extra packages, and a card's
/// content is small (the fonts are subsets, images are JPEG-compressed already).
struct PDFObject {
    let body: String
    let stream: [UInt8]?

    /// `body` is the whole value; with a stream it must be an unterminated dictionary (`<< /Key value`), closed with the
    /// /Length added.
    init(_ body: String, stream: [UInt8]? = nil) {
        self.body = body
        self.stream = stream
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
