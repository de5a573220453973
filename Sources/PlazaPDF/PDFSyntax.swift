import Foundation

/// How values are spelled in PDF, deterministically: the same number always prints the same digits, on every platform
/// and locale (no `String(format:)`, no `description` of a Double).
enum PDFSyntax {
    /// A real with at most `decimals` fraction digits (4 by default: 1/10000 pt is 35 nm on paper), trailing zeros
    /// dropped. Non-finite values (which PDF cannot express) print as 0.
    static func number(_ value: Double, decimals: Int = 4) -> String {
        let factor = pow(10, Double(decimals))
        let scaled = (value * factor).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else { return "0" }
        let units = Int64(scaled)
        if units == 0 { return "0" }
        let magnitude = units.magnitude
        let divisor = UInt64(factor)
        var text = (units < 0 ? "-" : "") + String(magnitude / divisor)
        var fraction = magnitude % divisor
        if fraction != 0 {
            var digits = decimals
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let raw = String(fraction)
            text += "." + String(repeating: "0", count: digits - raw.count) + raw
        }
        return text
    }

    /// A name object (`/Name`): anything outside printable ASCII, and the delimiters, as #xx.
    static func name(_ value: String) -> String {
        var text = "/"
        for byte in value.utf8 {
            if byte > 0x20, byte < 0x7F, !"()<>[]{}/%#".utf8.contains(byte) {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                text += "#" + hex([byte])
            }
        }
        return text
    }

    /// A text string (document information) as UTF-16BE with a byte order mark, written in hex so no escaping applies.
    static func textString(_ value: String) -> String {
        "<FEFF" + value.utf16.map { hex([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }.joined() + ">"
    }

    /// A PDF date (`D:YYYYMMDDHHmmSSZ`) in UTC.
    static func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let fields = [
            (c.year ?? 0, 4), (c.month ?? 1, 2), (c.day ?? 1, 2), (c.hour ?? 0, 2), (c.minute ?? 0, 2),
            (c.second ?? 0, 2),
        ]
        return "(D:"
            + fields.map { value, width in
                String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
            }.joined()
            + "Z)"
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A glyph id as the two-byte code Identity-H expects, in hex.
    static func glyphCode(_ glyph: UInt16) -> String {
        "<" + hex([UInt8(glyph >> 8), UInt8(glyph & 0xFF)]) + ">"
    }
}
