import PlazaCore

/// Pair kerning from the legacy `kern` table (format 0 subtables, horizontal, not cross-stream).
///
/// Most current fonts keep their kerning in GPOS instead (EB Garamond and Comfortaa only there); `TrueTypeFont` reads
/// that with `TrueTypeGPOSKerning` and uses this table only for fonts without a GPOS `kern` feature.
struct TrueTypeKerning: Sendable, Hashable {
    private var pairs: [UInt32: Int16] = [:]

    var isEmpty: Bool { pairs.isEmpty }
    var count: Int { pairs.count }

    func value(_ left: UInt16, _ right: UInt16) -> Int {
        guard !pairs.isEmpty else { return 0 }
        return Int(pairs[UInt32(left) << 16 | UInt32(right)] ?? 0)
    }

    static func parse(_ r: TrueTypeReader) throws -> TrueTypeKerning {
        var kerning = TrueTypeKerning()
        // Version 1 (Apple's 32-bit header) is a different layout; such fonts are read as unkerned rather than guessed at.
        guard try r.u16(0) == 0 else { return kerning }
        var offset = 4
        for _ in 0..<Int(try r.u16(2)) {
            let length = Int(try r.u16(offset + 2))
            let coverage = try r.u16(offset + 4)
            let format = coverage >> 8
            let horizontal = coverage & 0x1 != 0
            let minimum = coverage & 0x2 != 0
            let crossStream = coverage & 0x4 != 0
            let override = coverage & 0x8 != 0
            if format == 0, horizontal, !minimum, !crossStream {
                try kerning.readFormat0(r, at: offset + 6, override: override)
            }
            // The 16-bit length overflows for big subtables, so a lone (or last) format 0 subtable is read by its pair count
            // above; the length only matters to step to a following subtable.
            guard length >= 6 else { break }
            offset += length
        }
        return kerning
    }

    private mutating func readFormat0(_ r: TrueTypeReader, at offset: Int, override: Bool) throws {
        let count = Int(try r.u16(offset))
        for index in 0..<count {
            let at = offset + 8 + index * 6
            let key = UInt32(try r.u16(at)) << 16 | UInt32(try r.u16(at + 2))
            let value = try r.i16(at + 4)
            // Subtables add up unless one says it overrides.
            pairs[key] = override ? value : (pairs[key] ?? 0) &+ value
        }
    }
}
