import PlazaCore

/// The model's number grid and the clean SVG's number spelling: four decimals, trailing zeros dropped, no exponent, the
/// same digits on every platform and locale (no `String(format:)`, no `description` of a Double).
enum CardArtNumber {
    /// The largest magnitude the model accepts; past it, four decimals would no longer be exact in a Double.
    static let limit = 1e9

    /// Rounds to the nearest 1/10000; printing the result with `format` and parsing it back gives the same Double.
    static func quantize(_ value: Double) -> Double {
        let rounded = (value * 10_000).rounded() / 10_000
        return rounded == 0 ? 0 : rounded
    }

    /// `decimals` more than 4 is for the placement matrix, whose scale factors can be small.
    static func format(_ value: Double, decimals: Int = 4) -> String {
        var unit: UInt64 = 1
        for _ in 0..<decimals { unit *= 10 }
        let scaled = (value * Double(unit)).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15, scaled != 0 else { return "0" }
        let magnitude = UInt64(abs(scaled))
        var text = (scaled < 0 ? "-" : "") + String(magnitude / unit)
        var fraction = magnitude % unit
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
}
