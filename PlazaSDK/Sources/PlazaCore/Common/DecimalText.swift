import Foundation

extension Double {
    /// A plain decimal number as people write it (`-12.5`, `48.137`, `1e3`), unlike `Double(_:)`, which also takes
    /// hexadecimal (`0x10` is 16), `nan` and `infinity`. Query strings and forms are read with this one.
    public init?(decimal text: some StringProtocol) {
        var digits = 0
        var state = 0  // 0 sign/int, 1 fraction, 2 exponent sign, 3 exponent digits
        var exponentDigits = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if state >= 2 {
                    state = 3
                    exponentDigits += 1
                } else {
                    digits += 1
                }
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard index == 0 || state == 2 else { return nil }
                if state == 2 { state = 3 }
            case UInt8(ascii: "."):
                guard state == 0 else { return nil }
                state = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard state < 2, digits > 0 else { return nil }
                state = 2
            default:
                return nil
            }
        }
        guard digits > 0, state < 2 || exponentDigits > 0, let value = Double(String(text)), value.isFinite else {
            return nil
        }
        self = value
    }
}
