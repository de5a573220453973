import CZlib

/// DEFLATE (RFC 1951) in its zlib wrapper (RFC 1950), as PNG stores pixels, read by zlib.
///
/// Uploads are hostile until proven otherwise: damaged or cut-off streams throw, and the output stops at a caller-given
/// limit, because a few kilobytes of DEFLATE can claim gigabytes (a decompression bomb): zlib is handed at most one byte
/// more than the limit to write into.
public enum Inflate {
    /// Why a zlib stream was refused.
    public enum Failure: Error, Sendable, Hashable {
        /// Not a zlib stream: a bad header, a preset dictionary, an invalid block or code, a distance reaching before the
        /// start of the output.
        case damaged
        /// The stream ends before its last block or its Adler-32 checksum does.
        case truncated
        /// The output's Adler-32 differs from the one the stream carries.
        case checksumMismatch
        /// The output would be longer than the caller's limit.
        case tooLarge
    }

    /// The bytes a zlib stream holds; throws `Inflate.Failure` when damaged, cut short, or longer than `limit` bytes.
    /// Bytes after the checksum are ignored, as zlib does.
    public static func zlib(_ data: [UInt8], limit: Int) throws -> [UInt8] {
        try zlib(data, limit: limit, expectedCount: nil)
    }

    /// As above; `expectedCount` (PNG knows its exact size from the header) sizes the output once instead of doubling it.
    static func zlib(_ data: [UInt8], limit: Int, expectedCount: Int?) throws -> [UInt8] {
        guard data.count >= 2 else { throw Failure.truncated }
        guard data.count <= Int(UInt32.max) else { throw Failure.tooLarge }
        let limit = max(limit, 0)
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure.damaged
        }
        defer { inflateEnd(&stream) }
        // One byte past the limit: zlib filling it is how a stream too long for the limit is told apart.
        var output = [UInt8](repeating: 0, count: min(limit, expectedCount ?? max(1 << 16, data.count * 4)) + 1)
        var produced = 0
        return try data.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                if produced == output.count {
                    guard output.count <= limit else { throw Failure.tooLarge }
                    output += repeatElement(0, count: min(output.count, limit + 1 - output.count))
                }
                let status = output.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress! + produced
                    stream.avail_out = UInt32(target.count - produced)
                    defer { produced = target.count - Int(stream.avail_out) }
                    return inflate(&stream, Z_NO_FLUSH)
                }
                guard produced <= limit else { throw Failure.tooLarge }
                switch status {
                case Z_STREAM_END:
                    output.removeLast(output.count - produced)
                    return output
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    throw Failure.truncated
                case Z_BUF_ERROR:
                    continue
                case Z_DATA_ERROR where stream.msg.map { String(cString: $0) } == "incorrect data check":
                    throw Failure.checksumMismatch
                default:
                    // Z_DATA_ERROR, Z_NEED_DICT (a preset dictionary), Z_MEM_ERROR.
                    throw Failure.damaged
                }
            }
        }
    }
}
