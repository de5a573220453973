/// Protocol Buffers' wire format, the little of it OTLP needs: varints, fixed 64-bit numbers and length-delimited
/// fields (strings, bytes, nested messages).
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ field: Int, _ value: UInt64) {
        tag(field, 0)
        writeVarint(value)
    }

    mutating func fixed64(_ field: Int, _ value: UInt64) {
        tag(field, 1)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A packed repeated fixed64 (or double, by its bit pattern).
    mutating func packedFixed64(_ field: Int, _ values: [UInt64]) {
        var inner: [UInt8] = []
        inner.reserveCapacity(values.count * 8)
        for value in values {
            for shift in stride(from: 0, to: 64, by: 8) {
                inner.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
        bytes(field, inner)
    }

    mutating func string(_ field: Int, _ value: String) {
        bytes(field, Array(value.utf8))
    }

    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        tag(field, 2)
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A nested message, written by `body`.
    mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        body(&inner)
        bytes(field, inner.bytes)
    }

    private mutating func tag(_ field: Int, _ wireType: UInt64) {
        writeVarint(UInt64(field) << 3 | wireType)
    }

    private mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
