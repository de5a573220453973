/// The part of CBOR (RFC 8949) WebAuthn sends: an attestation object and a COSE key. Definite lengths only (what
/// CTAP2's canonical encoding allows), at most 16 levels deep; anything else is refused as malformed.
enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// A negative integer: -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([(CBOR, CBOR)])
    case bool(Bool)
    case null

    struct Malformed: Error {}

    static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The value a map holds under `key`.
    subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    subscript(key: String) -> CBOR? { self[.text(key)] }

    /// An integer map key or value as Swift's (COSE labels are small integers, negative or not).
    var integer: Int64? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): value < UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: nil
        }
    }

    var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    var string: String? {
        if case .text(let text) = self { text } else { nil }
    }

    /// Decodes the one item at the start of `bytes`; returns it and how many bytes it took.
    static func decode(_ bytes: ArraySlice<UInt8>) throws -> (CBOR, Int) {
        var reader = Reader(bytes: bytes)
        let item = try reader.item(depth: 0)
        return (item, reader.offset - bytes.startIndex)
    }

    /// Decodes `bytes`, which must hold exactly one item.
    static func decode(_ bytes: [UInt8]) throws -> CBOR {
        let (item, count) = try decode(bytes[...])
        guard count == bytes.count else { throw Malformed() }
        return item
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var offset: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            offset = bytes.startIndex
        }

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.endIndex else { throw Malformed() }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func take(_ count: UInt64) throws -> [UInt8] {
            guard count <= UInt64(bytes.endIndex - offset) else { throw Malformed() }
            let end = offset + Int(count)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }

        /// The argument of an initial byte: its low five bits, or the 1, 2, 4 or 8 bytes they announce.
        mutating func argument(_ info: UInt8) throws -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24...27:
                return try take(1 << UInt64(info - 24)).reduce(0) { $0 << 8 | UInt64($1) }
            default: throw Malformed()  // indefinite lengths and reserved values
            }
        }

        mutating func item(depth: Int) throws -> CBOR {
            guard depth < 16 else { throw Malformed() }
            let initial = try byte()
            let major = initial >> 5
            let info = initial & 0x1f
            if major == 7 {
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw Malformed()
                }
            }
            let argument = try argument(info)
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2: return .bytes(try take(argument))
            case 3:
                guard let text = String(validating: try take(argument), as: UTF8.self) else { throw Malformed() }
                return .text(text)
            case 4:
                // Each item takes a byte at least: a count beyond what is left is a lie.
                guard argument <= UInt64(bytes.endIndex - offset) else { throw Malformed() }
                return .array(try (0..<argument).map { _ in try item(depth: depth + 1) })
            case 5:
                guard argument <= UInt64(bytes.endIndex - offset) / 2 else { throw Malformed() }
                return .map(try (0..<argument).map { _ in (try item(depth: depth + 1), try item(depth: depth + 1)) })
            default: throw Malformed()  // tags
            }
        }
    }
}
