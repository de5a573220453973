import Foundation

/// A type with a reader for its usual JSON, tried before `JSONDecoder` on a hot path (a phone's location upload).
///
/// The reader answers nil for anything it does not read exactly as `PlazaJSON.decoder()` would (an unknown key, an
/// escape, a number or a date outside its narrow forms); the body then goes through `JSONDecoder`, which says what is
/// wrong. So a body is decoded to the same value, or refused with the same problem, either way.
protocol FastJSONDecodable {
    init?(json bytes: UnsafeRawBufferPointer)
}

/// A cursor over JSON bytes for `FastJSONDecodable` readers: each method reads one token after any whitespace and
/// answers nil (or false) rather than guess at anything outside the plainest JSON.
struct JSONCursor {
    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Whether everything but trailing whitespace has been read.
    var atEnd: Bool {
        mutating get {
            skipSpace()
            return position == bytes.count
        }
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Reads `byte` (`{`, `:`, `,` …) when it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Reads `null` when it comes next.
    mutating func takeNull() -> Bool {
        skipSpace()
        guard position + 4 <= bytes.count, bytes[position] == 0x6E, bytes[position + 1] == 0x75,
            bytes[position + 2] == 0x6C, bytes[position + 3] == 0x6C
        else { return false }
        position += 4
        return true
    }

    /// A string's bytes, between its quotes; nil for one with an escape or a control character.
    mutating func string() -> UnsafeRawBufferPointer? {
        guard take(0x22) else { return nil }
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x22 {
                position += 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<position - 1])
            }
            guard byte != 0x5C, byte >= 0x20 else { return nil }
            position += 1
        }
        return nil
    }

    /// A number as JSON writes it (`-`, digits without a leading zero, a fraction, an exponent), when a Double holds it
    /// (finite, and not a non-zero number rounded to zero).
    mutating func number() -> Double? {
        skipSpace()
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - from
        }
        if position < bytes.count, bytes[position] == 0x2D { position += 1 }
        let whole = position
        guard digits() > 0, bytes[whole] != 0x30 || position == whole + 1 else { return nil }
        if position < bytes.count, bytes[position] == 0x2E {
            position += 1
            guard digits() > 0 else { return nil }
        }
        if position < bytes.count, bytes[position] == 0x65 || bytes[position] == 0x45 {
            position += 1
            if position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D { position += 1 }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        // A number too small for a Double (`48e-377`) is not zero to `JSONDecoder`, which refuses it: leave it to it.
        if value == 0, text.utf8.contains(where: { $0 >= 0x31 && $0 <= 0x39 }) {
            let mantissa = text.utf8.prefix { $0 != 0x65 && $0 != 0x45 }
            if mantissa.contains(where: { $0 >= 0x31 && $0 <= 0x39 }) { return nil }
        }
        return value
    }

    /// Whether `text` is exactly `expected` (a key).
    static func matches(_ text: UnsafeRawBufferPointer, _ expected: StaticString) -> Bool {
        text.count == expected.utf8CodeUnitCount
            && memcmp(text.baseAddress!, expected.utf8Start, expected.utf8CodeUnitCount) == 0
    }
}
