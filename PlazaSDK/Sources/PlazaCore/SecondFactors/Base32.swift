import Foundation

/// RFC 4648 base32 (A–Z, 2–7), as authenticator apps read TOTP secrets; encoded without padding.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ data: Data) -> String {
        var (buffer, bits, out) = (UInt32(0), 0, [UInt8]())
        for byte in data {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes, ignoring case, spaces and padding; nil for any other character.
    public static func decode(_ text: String) -> Data? {
        var (buffer, bits, out) = (UInt32(0), 0, Data())
        for scalar in text.uppercased().utf8 where scalar != 0x20 && scalar != 0x3D {
            guard let value = alphabet.firstIndex(of: scalar) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return out
    }
}
