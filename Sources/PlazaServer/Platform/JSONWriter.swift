import Foundation
import NIOCore
import PlazaCore

/// A value that writes its own JSON, byte for byte as `PlazaJSON.encoder()` would (keys sorted, slashes
/// unescaped, whole-second UTC dates, nil optionals left out), for responses of hundreds of items:
/// Foundation's encoder spends about 4.5 µs per small object (353 µs for a presence list of 79 people).
protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

struct JSONWriter {
    private(set) var buffer: ByteBuffer
    private var needsComma = false

    init(capacity: Int = 1_024) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// The document written so far.
    var text: String { String(buffer: buffer) }

    /// `{ … }`; the body writes the members in sorted key order.
    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        buffer.writeInteger(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        buffer.writeInteger(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<S: Sequence>(_ items: S, _ body: (inout JSONWriter, S.Element) -> Void) {
        separate()
        buffer.writeInteger(UInt8(ascii: "["))
        needsComma = false
        for item in items { body(&self, item) }
        buffer.writeInteger(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A member's key; its value follows.
    mutating func key(_ name: StaticString) {
        separate()
        buffer.writeInteger(UInt8(ascii: "\""))
        buffer.writeStaticString(name)
        buffer.writeStaticString("\":")
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        buffer.writeInteger(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index]))
                writeEscape(byte)
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start...]))
        }
        buffer.writeInteger(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func uuid(_ value: UUID) { string(value.uuidString) }

    mutating func date(_ value: Date) { string(RFC3339.format(value)) }

    /// A member whose value is a string, left out when nil.
    mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    private mutating func separate() {
        if needsComma { buffer.writeInteger(UInt8(ascii: ",")) }
    }

    private mutating func writeEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
        case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
        case 0x08: buffer.writeStaticString("\\b")
        case 0x09: buffer.writeStaticString("\\t")
        case 0x0A: buffer.writeStaticString("\\n")
        case 0x0C: buffer.writeStaticString("\\f")
        case 0x0D: buffer.writeStaticString("\\r")
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            buffer.writeStaticString("\\u00")
            buffer.writeInteger(hex[Int(byte >> 4)])
            buffer.writeInteger(hex[Int(byte & 0x0F)])
        }
    }
}

extension Page: JSONWritable where Item: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json) }
            json.member("nextCursor", nextCursor)
        }
    }
}

extension PresentCustomer: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("displayName")
            json.string(displayName)
            json.key("locationId")
            json.uuid(locationId)
            json.key("since")
            json.date(since)
            json.key("username")
            json.string(username)
        }
    }
}
