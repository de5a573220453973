import CZlib
import Synchronization

/// DEFLATE (RFC 1951) in its zlib wrapper (RFC 1950), by zlib itself at its default level 6: print files' streams are
/// `/FlateDecode`, PNG thumbnails are IDAT, wallet passes are zip entries. zlib's output depends on the input alone (no
/// clock, no randomness), so a PDF made twice is the same bytes.
public enum Deflate {
    /// `input` as a zlib stream (header 78 9C, DEFLATE blocks, Adler-32), which `Inflate.zlib` and every zlib read back:
    /// the bytes `compress2(…, 6)` writes.
    public static func zlib(_ input: [UInt8]) -> [UInt8] {
        let stream = streams.take()
        defer { streams.give(stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(input.count))))
        let written = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = uInt(target.count)
                // One call: the output has deflateBound's room, so the stream ends (or zlib is out of memory).
                let status = CZlib.deflate(stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "zlib's deflate failed (\(status))")
                return target.count - Int(stream.pointee.avail_out)
            }
        }
        output.removeLast(output.count - written)
        return output
    }

    /// Compressors kept between calls. A print file is a dozen small streams, and each new compressor costs zlib a
    /// quarter megabyte to allocate and clear; a kept one is reset (its hash heads cleared) instead.
    static let streams = Streams(capacity: 8)

    final class Streams: Sendable {
        /// Addresses of initialized `z_stream`s (zlib keeps a pointer back to each, so they never move).
        private let idle: Mutex<[Int]> = Mutex([])
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
        }

        func take() -> UnsafeMutablePointer<z_stream> {
            if let address = idle.withLock({ $0.popLast() }),
                let stream = UnsafeMutablePointer<z_stream>(bitPattern: address)
            {
                deflateReset(stream)
                return stream
            }
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            let status = deflateInit_(stream, 6, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            precondition(status == Z_OK, "zlib's deflateInit failed (\(status))")
            return stream
        }

        func give(_ stream: UnsafeMutablePointer<z_stream>) {
            let kept = idle.withLock { idle -> Bool in
                guard idle.count < capacity else { return false }
                idle.append(Int(bitPattern: stream))
                return true
            }
            guard !kept else { return }
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
    }
}
