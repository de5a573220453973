import PlazaCore

/// A strict, bounds-checked pull tokenizer for the XML that SVG files are made of. Foundation's `XMLParser` is not used:
/// on Linux it needs FoundationXML and libxml2, and we want to refuse rather than expand entity declarations.
///
/// It checks well-formedness (one root, matching tags, quoted attributes without `<`, no duplicate attributes, valid
/// references), skips comments, processing instructions, the XML declaration and a DOCTYPE without internal subset,
/// decodes the five predefined entities and character references, and reports CDATA as text. Self-closing tags give a
/// `.start` followed by an `.end`.
struct CardArtXMLTokenizer {
    /// One tokenizing step.
    enum Event: Equatable {
        case start(CardArtXMLElement)
        case end(String)
        case text(String)
    }

    private let bytes: [UInt8]
    private var index = 0
    private var open: [String] = []
    private var sawRoot = false
    private var pendingEnd: String?
    private let maximumDepth: Int

    init(_ bytes: [UInt8], maximumDepth: Int = CardArt.maximumNesting) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        // A UTF-8 byte order mark is allowed before the declaration.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// The next event, or `nil` after the root element has closed and only comments or whitespace followed.
    mutating func next() throws(CardArtError) -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            open.removeLast()
            return .end(name)
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let text = try characterData()
                if open.isEmpty {
                    guard text.unicodeScalars.allSatisfy({ " \t\r\n".unicodeScalars.contains($0) }) else {
                        throw failure("text outside the root element")
                    }
                    continue
                }
                return .text(text)
            }
            if starts(with: "<!--") {
                index = try position(after: "-->", from: index + 4, what: "comment")
            } else if starts(with: "<?xml-stylesheet") {
                // A linked style sheet would restyle the drawing in a browser, which our model (and the print) ignores.
                throw .stylesheet
            } else if starts(with: "<?") {
                index = try position(after: "?>", from: index + 2, what: "processing instruction")
            } else if starts(with: "<![CDATA[") {
                guard !open.isEmpty else { throw failure("CDATA outside the root element") }
                let start = index + 9
                index = try position(after: "]]>", from: start, what: "CDATA section")
                return .text(String(decoding: bytes[start..<(index - 3)], as: UTF8.self))
            } else if starts(with: "<!DOCTYPE") {
                guard !sawRoot else { throw failure("DOCTYPE after the root element") }
                try skipDoctype()
            } else if starts(with: "</") {
                return .end(try endTag())
            } else if starts(with: "<!") {
                throw failure("unexpected markup declaration")
            } else {
                return .start(try startTag())
            }
        }
        if let unclosed = open.last { throw failure("<\(unclosed)> is never closed") }
        guard sawRoot else { throw failure("no root element") }
        return nil
    }

    private mutating func startTag() throws(CardArtError) -> CardArtXMLElement {
        guard !(sawRoot && open.isEmpty) else { throw failure("a second root element") }
        index += 1
        let name = try self.name()
        var attributes: [CardArtXMLAttribute] = []
        // A set, not a scan of `attributes`: a hostile tag with a million attributes must stay linear.
        var names = Set<String>()
        while true {
            let hadSpace = skipWhitespace()
            guard index < bytes.count else { throw failure("<\(name)> is cut off") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            if starts(with: "/>") {
                index += 2
                pendingEnd = name
                break
            }
            guard hadSpace else { throw failure("attributes of <\(name)> must be separated by spaces") }
            let attribute = try self.attribute()
            guard names.insert(attribute.name).inserted else {
                throw failure("attribute \(attribute.name) appears twice on <\(name)>")
            }
            attributes.append(attribute)
        }
        sawRoot = true
        open.append(name)
        guard open.count <= maximumDepth else { throw .nestedTooDeeply }
        return CardArtXMLElement(name: name, attributes: attributes, selfClosing: pendingEnd != nil)
    }

    private mutating func attribute() throws(CardArtError) -> CardArtXMLAttribute {
        let name = try self.name()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            throw failure("attribute \(name) has no value")
        }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw failure("the value of \(name) is not quoted")
        }
        let quote = bytes[index]
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != quote {
            guard bytes[end] != UInt8(ascii: "<") else { throw failure("'<' in the value of \(name)") }
            end += 1
        }
        guard end < bytes.count else { throw failure("the value of \(name) is never closed") }
        index = end + 1
        // XML attribute-value normalization: literal tabs and line breaks read as spaces.
        let raw = bytes[start..<end].map { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D ? UInt8(ascii: " ") : $0 }
        return CardArtXMLAttribute(name: name, value: try decodeReferences(raw[...], at: start))
    }

    private mutating func endTag() throws(CardArtError) -> String {
        index += 2
        let name = try self.name()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw failure("</\(name)> is cut off") }
        index += 1
        guard let expected = open.last else { throw failure("</\(name)> closes nothing") }
        guard expected == name else { throw failure("</\(name)> closes <\(expected)>") }
        open.removeLast()
        return name
    }

    private mutating func characterData() throws(CardArtError) -> String {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
        return try decodeReferences(bytes[start..<index], at: start)
    }

    /// Skips `<!DOCTYPE ...>`, refusing an internal subset (`[...]`), where entities would be declared.
    private mutating func skipDoctype() throws(CardArtError) {
        var quote: UInt8?
        var cursor = index + 9
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw .entityDeclarations
            } else if byte == UInt8(ascii: ">") {
                index = cursor + 1
                return
            }
            cursor += 1
        }
        throw failure("the DOCTYPE is never closed")
    }

    private mutating func name() throws(CardArtError) -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index], first: index == start) { index += 1 }
        guard index > start else { throw failure("expected a name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index > start
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        return true
    }

    /// The index just past the next `terminator` at or after `start`.
    private func position(after terminator: StaticString, from start: Int, what: String) throws(CardArtError) -> Int {
        let pattern = Array(UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount))
        var cursor = start
        while cursor + pattern.count <= bytes.count {
            if bytes[cursor] == pattern[0], bytes[cursor..<(cursor + pattern.count)].elementsEqual(pattern) {
                return cursor + pattern.count
            }
            cursor += 1
        }
        throw failure("a \(what) is never closed")
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), 0x80...:
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return !first
        default:
            return false
        }
    }

    func failure(_ reason: String, at offset: Int? = nil) -> CardArtError {
        let end = min(offset ?? index, bytes.count)
        return .malformedXML(line: 1 + bytes[..<end].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }, reason: reason)
    }
}
