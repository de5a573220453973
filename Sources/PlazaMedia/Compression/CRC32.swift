import CZlib
import Foundation

/// CRC-32 (ISO 3309), as PNG chunks and zip entries carry it, by zlib.
public enum CRC32 {
    public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { checksum(UnsafeRawBufferPointer($0)) }
    }

    public static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { checksum($0) }
    }

    static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
        var crc = crc32(0, nil, 0)
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return UInt32(crc) }
        // zlib takes a 32-bit length: larger buffers go in pieces.
        var offset = 0
        while offset < buffer.count {
            let length = min(buffer.count - offset, 1 << 30)
            crc = crc32(crc, base + offset, uInt(length))
            offset += length
        }
        return UInt32(crc)
    }
}
