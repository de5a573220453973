import Foundation

/// UUIDs on the hot paths. On Linux, Foundation's `UUID()` opens and reads /dev/urandom every time, `uuidString`
/// formats through `snprintf` and `UUID(uuidString:)` parses through `sscanf`: together a few per cent of a busy
/// server's time (`perf` during `plaza bench ledger`). These give the same values without them.
extension UUID {
    /// A random (version 4) UUID from the system's generator.
    static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40
            raw[8] = (raw[8] & 0x3F) | 0x80
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }

    /// A time-ordered (version 7) UUID: the Unix time in milliseconds, then random bits. Rows keyed by these are
    /// added at the end of their indexes instead of anywhere in them, so a batch of inserts touches a few pages rather
    /// than one per row (fewer pages for SQLite to write and copy back from its WAL). Its creation time shows, as the
    /// row's `created_at` does anyway; 74 bits stay random.
    static func timeOrdered(at date: Date = Date()) -> UUID {
        var uuid = random().uuid
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1_000))
        withUnsafeMutableBytes(of: &uuid) { raw in
            for index in 0..<6 { raw[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
            raw[6] = (raw[6] & 0x0F) | 0x70
        }
        return UUID(uuid: uuid)
    }

    /// `uuidString`: upper-case hex with dashes.
    var text: String {
        withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var position = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    (out[position], out[position + 1]) = Hex.digits(raw[index], uppercase: true)
                    position += 2
                }
                return 36
            }
        }
    }

    /// `UUID(uuidString:)`: 36 characters, hex in either case, dashes at 8, 13, 18 and 23.
    init?(text: some StringProtocol) {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &uuid) { bytes in
            var count = 0
            var high: UInt8?
            var position = 0
            for character in text.utf8 {
                defer { position += 1 }
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard character == UInt8(ascii: "-") else { return false }
                    continue
                }
                let value: UInt8
                switch character {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
                default: return false
                }
                guard count < 16 else { return false }
                if let first = high {
                    bytes[count] = first << 4 | value
                    count += 1
                    high = nil
                } else {
                    high = value
                }
            }
            return position == 36 && count == 16
        }
        guard parsed else { return nil }
        self.init(uuid: uuid)
    }
}
