/// # Speed helpers
///
/// Hand-written replacements for Foundation and standard-library calls that showed up in profiles of the hot paths.
/// Each stays only while it pays; re-measure before touching one, and delete it (using the plain call) when a newer
/// Swift or Foundation closes the gap. What each replaced, the measurement that justified it, and when to drop it:
///
/// | helper | replaces | measured | delete when |
/// |---|---|---|---|
/// | `UUID.random()`, `.timeOrdered()`, `.text`, `init?(text:)` (`FastUUID.swift`) | `UUID()` (reads /dev/urandom each time), `uuidString` (`snprintf`), `UUID(uuidString:)` (`sscanf`) | a few % of server CPU under `plaza bench ledger` (`perf`) | Foundation on Linux generates and formats UUIDs without libc I/O and formatting |
/// | `JSONWriter` (`JSONWriter.swift`, one endpoint: presence lists) | `JSONEncoder` for lists of hundreds of items | 352 µs → 34 µs for 79 people (release) | `JSONEncoder` is within 2× for a 100-item list |
/// | `ReadWriteLock` (`ReadWriteLock.swift`) | `Mutex` around the live index and catalog | presence queries on both cores instead of one | `Synchronization` offers a reader-writer lock |
/// | `Hex` (this file): `UUID.text`, `Sequence<UInt8>.hexString` | `String(format: "%02x")` | 5 % of a transfer's CPU (request hashes) | `String(format:)` no longer goes through `vsnprintf` |
/// | `RFC3339` (in `PlazaCore`, shared with the SDK) | `ISO8601DateFormatter` / `Date.ISO8601FormatStyle` | microseconds per date, 1,000 per upload batch | Foundation's style parses in well under a microsecond |
///
/// The one hex encoder of the server: two digits per byte, lower or upper case.
enum Hex {
    private static let lower: StaticString = "0123456789abcdef"
    private static let upper: StaticString = "0123456789ABCDEF"

    /// The two ASCII digits of `byte`.
    @inline(__always)
    static func digits(_ byte: UInt8, uppercase: Bool = false) -> (high: UInt8, low: UInt8) {
        let table = uppercase ? upper : lower
        return (table.utf8Start[Int(byte >> 4)], table.utf8Start[Int(byte & 0x0F)])
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hex; every keyed request hash goes through here.
    var hexString: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            let (high, low) = Hex.digits(byte)
            bytes.append(high)
            bytes.append(low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
