import PlazaCore

extension CardArtXMLTokenizer {
    /// Decodes `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#...;` / `&#x...;`. Any other entity is an error: without
    /// a DTD (which we refuse) nothing else can be declared.
    func decodeReferences(_ raw: ArraySlice<UInt8>, at offset: Int) throws(CardArtError) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var cursor = raw.startIndex
        while cursor < raw.endIndex {
            let byte = raw[cursor]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                cursor += 1
                continue
            }
            // The longest valid reference is `&#x10FFFF;` (10 bytes); look no further for the semicolon.
            let window = raw[cursor..<min(raw.endIndex, cursor + 12)]
            guard let semicolon = window.firstIndex(of: UInt8(ascii: ";")) else {
                throw failure("'&' that starts no reference", at: offset + (cursor - raw.startIndex))
            }
            let name = String(decoding: raw[(cursor + 1)..<semicolon], as: UTF8.self)
            guard let scalar = Self.scalar(forReference: name) else {
                throw failure("unknown or invalid reference &\(name);", at: offset + (cursor - raw.startIndex))
            }
            out += Array(String(Character(scalar)).utf8)
            cursor = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func scalar(forReference name: String) -> Unicode.Scalar? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard name.hasPrefix("#") else { return nil }
        let hex = name.hasPrefix("#x")
        let digits = name.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty, digits.count <= 8, digits.allSatisfy({ hex ? $0.isHexDigit : ("0"..."9").contains($0) }),
            let value = UInt32(digits, radix: hex ? 16 : 10)
        else { return nil }
        // Only XML's Char production: tab, newline, carriage return and the non-control, non-surrogate planes.
        guard
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value)
                || (0x10000...0x10FFFF).contains(value)
        else { return nil }
        return Unicode.Scalar(value)
    }
}
