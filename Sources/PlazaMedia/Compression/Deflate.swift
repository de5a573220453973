import CZlib

/// DEFLATE (RFC 1951) in its zlib wrapper (RFC 1950), by zlib itself at its default level 6: print files' streams are
/// `/FlateDecode`, PNG thumbnails are IDAT, wallet passes are zip entries. zlib's output depends on the input alone (no
/// clock, no randomness), so a PDF made twice is the same bytes.
public enum Deflate {
    /// `input` as a zlib stream (header 78 9C, DEFLATE blocks, Adler-32), which `Inflate.zlib` and every zlib read back.
    public static func zlib(_ input: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), 6)
            }
        }
        // compress2 fails only without memory or with a destination under compressBound: neither can happen here.
        precondition(status == Z_OK, "zlib's compress2 failed (\(status))")
        output.removeLast(output.count - Int(length))
        return output
    }
}
