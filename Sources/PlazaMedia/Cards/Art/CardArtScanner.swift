import Foundation
import PlazaCore

/// Reads the number lists of SVG attributes (path data, points, viewBox, transforms) by SVG's grammar: commas and
/// whitespace both separate, a sign or a second decimal point starts the next number ("1.5.5" is 1.5 and .5, "1-2" is
/// 1 and -2), exponents are allowed, and arc flags may be single unseparated digits.
struct CardArtScanner {
    private let bytes: [UInt8]
    private(set) var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, without consuming it.
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func advance() { index += 1 }

    mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Skips whitespace with at most one comma in it.
    mutating func skipSeparator() {
        skipWhitespace()
        if peek == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
        }
    }

    /// A number, followed by an optional separator; `nil` (consuming nothing) when no number starts here. Non-finite
    /// values ("1e999") are refused, since no drawing can use them.
    mutating func number() throws(CardArtError) -> Double? {
        let start = index
        var cursor = index
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
            cursor += 1
        }
        let integerStart = cursor
        cursor = digits(from: cursor)
        var hasDigits = cursor > integerStart
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            let fractionStart = cursor + 1
            let fractionEnd = digits(from: fractionStart)
            if fractionEnd > fractionStart || hasDigits {
                hasDigits = true
                cursor = fractionEnd
            }
        }
        guard hasDigits else { return nil }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "e") || bytes[cursor] == UInt8(ascii: "E") {
            var exponent = cursor + 1
            if exponent < bytes.count, bytes[exponent] == UInt8(ascii: "+") || bytes[exponent] == UInt8(ascii: "-") {
                exponent += 1
            }
            let exponentEnd = digits(from: exponent)
            // "1em" is a length, not an exponent: only take the `e` when digits follow.
            if exponentEnd > exponent { cursor = exponentEnd }
        }
        guard let value = Double(String(decoding: bytes[start..<cursor], as: UTF8.self)) else { return nil }
        guard value.isFinite else { throw .numberOutOfRange }
        index = cursor
        return value
    }

    /// An arc flag: exactly one `0` or `1`, which may run straight into the next number ("a1 1 0 0110 10").
    mutating func flag() -> Bool? {
        guard let byte = peek, byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else { return nil }
        index += 1
        skipSeparator()
        return byte == UInt8(ascii: "1")
    }

    /// A number then a separator, or an error naming `what`.
    mutating func requireNumber(_ what: String) throws(CardArtError) -> Double {
        guard let value = try number() else { throw .invalidPathData("expected a number for \(what)") }
        skipSeparator()
        return value
    }

    /// The rest of the text from the current position.
    var remainder: String { String(decoding: bytes[min(index, bytes.count)...], as: UTF8.self) }

    private func digits(from start: Int) -> Int {
        var cursor = start
        while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
            cursor += 1
        }
        return cursor
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// Every number in `text` (a viewBox, a points list); `nil` when anything else is in it.
    static func numbers(in text: String) throws(CardArtError) -> [Double]? {
        var scanner = CardArtScanner(text)
        var values: [Double] = []
        scanner.skipWhitespace()
        while !scanner.isAtEnd {
            guard let value = try scanner.number() else { return nil }
            values.append(value)
            scanner.skipSeparator()
        }
        return values
    }
}

/// SVG lengths in user units (CSS pixels, 96 per inch): plain numbers, or numbers with an absolute unit.
enum CardArtLength {
    /// User units per unit: CSS fixes 96 px to the inch.
    private static let units: [String: Double] = [
        "": 1, "px": 1, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96.0 / 72, "pc": 16,
    ]

    /// `nil` for a relative length (`%`, `em`, `ex`) or anything that is not a length.
    static func parse(_ text: String) throws(CardArtError) -> Double? {
        var scanner = CardArtScanner(text)
        scanner.skipWhitespace()
        guard let number = try scanner.number() else { return nil }
        let unit = scanner.remainder.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard let factor = units[unit] else { return nil }
        return number * factor
    }

    /// A length attribute of a basic shape: 0 when absent (SVG's initial value), refused when relative or invalid.
    static func attribute(_ element: CardArtXMLElement, _ name: String) throws(CardArtError) -> Double {
        guard let text = element[name] else { return 0 }
        guard let value = try parse(text) else { throw .invalidValue(attribute: name, value: text) }
        return value
    }
}
