import Foundation
import PlazaCore

/// A paint value as SVG writes it: `none` or an RGB colour. Only flat colours are supported; `url(...)` is refused by
/// the caller, which knows the property.
enum CardArtColor: Hashable {
    case none
    case rgb(UInt8, UInt8, UInt8)

    static let black = CardArtColor.rgb(0, 0, 0)

    /// `#rgb`, `#rrggbb`, `rgb(r, g, b)` with numbers or percentages, the 16 basic CSS colour names, `none`,
    /// `transparent` (which paints nothing, like `none`) and `currentColor` (black: we do not support `color`).
    static func parse(_ text: String) throws(CardArtError) -> CardArtColor {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if value == "none" || value == "transparent" { return .none }
        if value == "currentcolor" { return .black }
        if let named = names[value] { return .rgb(UInt8(named >> 16), UInt8((named >> 8) & 0xFF), UInt8(named & 0xFF)) }
        if value.hasPrefix("#") {
            let digits = Array(value.dropFirst())
            guard digits.allSatisfy(\.isHexDigit), digits.count == 3 || digits.count == 6 else {
                throw .invalidColor(text)
            }
            let pairs =
                digits.count == 3
                ? digits.map { String([$0, $0]) } : stride(from: 0, to: 6, by: 2).map { String(digits[$0...$0 + 1]) }
            let channels = pairs.compactMap { UInt8($0, radix: 16) }
            return .rgb(channels[0], channels[1], channels[2])
        }
        if value.hasPrefix("rgb("), value.hasSuffix(")") {
            let parts = value.dropFirst(4).dropLast().split(whereSeparator: { $0 == "," || $0 == " " })
            guard parts.count == 3 else { throw .invalidColor(text) }
            var channels: [UInt8] = []
            for part in parts {
                let percent = part.hasSuffix("%")
                guard let number = Double(percent ? part.dropLast() : part), number.isFinite else {
                    throw .invalidColor(text)
                }
                let scaled = percent ? number / 100 * 255 : number
                channels.append(UInt8(min(max(scaled, 0), 255).rounded()))
            }
            return .rgb(channels[0], channels[1], channels[2])
        }
        throw .invalidColor(text)
    }

    /// The 16 colours of HTML 4 / CSS 1 (white and black among them), as 0xRRGGBB.
    private static let names: [String: UInt32] = [
        "black": 0x000000, "silver": 0xC0C0C0, "gray": 0x808080, "white": 0xFFFFFF, "maroon": 0x800000, "red": 0xFF0000,
        "purple": 0x800080, "fuchsia": 0xFF00FF, "green": 0x008000, "lime": 0x00FF00, "olive": 0x808000,
        "yellow": 0xFFFF00,
        "navy": 0x000080, "blue": 0x0000FF, "teal": 0x008080, "aqua": 0x00FFFF,
    ]
}
