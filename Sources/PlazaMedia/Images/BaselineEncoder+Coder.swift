import Foundation
import PlazaCore

/// Writing a baseline JPEG's blocks: DCT, quantization, zigzag and Huffman codes, and the bits with their stuffing.
extension BaselineEncoder {
    /// Writes blocks of one component: DCT, quantization, zigzag and Huffman coding.
    struct Coder {
        let quantization: [Int]
        let dc: [(code: Int, length: Int)]
        let ac: [(code: Int, length: Int)]

        func encode(_ block: [Float], predictor: inout Int, into writer: inout BitWriter) {
            var quantized = [Int](repeating: 0, count: 64)
            // The separable DCT: rows, then columns. Buffer pointers keep it quick in debug builds, where it runs in tests.
            BaselineEncoder.basis.withUnsafeBufferPointer { basis in
                block.withUnsafeBufferPointer { block in
                    quantization.withUnsafeBufferPointer { quantization in
                        var rows = [Float](repeating: 0, count: 64)
                        for y in 0..<8 {
                            for u in 0..<8 {
                                var sum: Float = 0
                                for x in 0..<8 { sum += basis[u * 8 + x] * block[y * 8 + x] }
                                rows[y * 8 + u] = sum
                            }
                        }
                        for v in 0..<8 {
                            for u in 0..<8 {
                                var sum: Float = 0
                                for y in 0..<8 { sum += basis[v * 8 + y] * rows[y * 8 + u] }
                                // Baseline Huffman tables stop at magnitude category 11 for DC differences and 10 for AC.
                                quantized[v * 8 + u] = Int(
                                    max(-1023, min(1023, (sum / Float(quantization[v * 8 + u])).rounded()))
                                )
                            }
                        }
                    }
                }
            }
            let difference = quantized[0] - predictor
            predictor = quantized[0]
            let size = Self.category(difference)
            writer.write(dc[size])
            writer.write(Self.magnitude(difference, size: size), length: size)
            var run = 0
            let zigzag = BaselineEncoder.zigzag
            for position in 1..<64 {
                let value = quantized[zigzag[position]]
                if value == 0 {
                    run += 1
                    continue
                }
                while run > 15 {
                    writer.write(ac[0xF0])
                    run -= 16
                }
                let size = Self.category(value)
                writer.write(ac[run << 4 | size])
                writer.write(Self.magnitude(value, size: size), length: size)
                run = 0
            }
            if run > 0 { writer.write(ac[0x00]) }
        }

        /// How many bits the value's magnitude takes.
        static func category(_ value: Int) -> Int {
            Int.bitWidth - abs(value).leadingZeroBitCount
        }

        /// JPEG writes a negative value as its ones' complement in `size` bits.
        static func magnitude(_ value: Int, size: Int) -> Int {
            value < 0 ? value + (1 << size) - 1 : value
        }
    }

    /// Bits most significant first, with a 0x00 stuffed after every 0xFF byte so the data never looks like a marker.
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer = 0
        var count = 0

        mutating func write(_ code: (code: Int, length: Int)) {
            write(code.code, length: code.length)
        }

        mutating func write(_ bits: Int, length: Int) {
            guard length > 0 else { return }
            buffer = buffer << length | (bits & ((1 << length) - 1))
            count += length
            while count >= 8 {
                let byte = UInt8(truncatingIfNeeded: buffer >> (count - 8))
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0x00) }
                count -= 8
            }
            buffer &= (1 << count) - 1
        }

        /// The last byte is padded with one bits, as the standard asks.
        mutating func flush() {
            if count > 0 { write((1 << (8 - count)) - 1, length: 8 - count) }
        }
    }
}
