import PlazaCore

/// The structural tables: the table directory, `hmtx` and `loca`, each checked against the file before use.
extension TrueTypeFont {
    static func readTableDirectory(_ bytes: [UInt8]) throws -> [String: Range<Int>] {
        let file = try TrueTypeReader(bytes: bytes, table: "directory")
        let version = try file.u32(0)
        // 0x00010000 is TrueType; Apple's 'true' is the same outlines. 'OTTO' (CFF) and 'ttcf' (collections) are refused.
        guard version == 0x0001_0000 || version == 0x7472_7565 else {
            throw TrueTypeFontError.notTrueType(signature: tagString(version))
        }
        var tables: [String: Range<Int>] = [:]
        for index in 0..<Int(try file.u16(4)) {
            let record = 12 + index * 16
            let tag = tagString(try file.u32(record))
            let offset = Int(try file.u32(record + 8))
            let length = Int(try file.u32(record + 12))
            // The table must lie inside the file: this is the check that makes every later read safe to reason about.
            _ = try TrueTypeReader(bytes: bytes, table: tag, start: offset, length: length)
            tables[tag] = offset..<(offset + length)
        }
        return tables
    }

    static func readHorizontalMetrics(_ r: TrueTypeReader, count: Int, glyphs: Int) throws -> ([UInt16], [Int16]) {
        guard count >= 1, count <= glyphs else {
            throw TrueTypeFontError.malformed(table: "hhea", reason: "numberOfHMetrics \(count) for \(glyphs) glyphs")
        }
        var advances = [UInt16]()
        var bearings = [Int16]()
        advances.reserveCapacity(count)
        bearings.reserveCapacity(glyphs)
        for index in 0..<count {
            advances.append(try r.u16(index * 4))
            bearings.append(try r.i16(index * 4 + 2))
        }
        for index in 0..<(glyphs - count) {
            bearings.append(try r.i16(count * 4 + index * 2))
        }
        return (advances, bearings)
    }

    static func readGlyphLocations(
        _ loca: TrueTypeReader,
        glyf: TrueTypeReader,
        longFormat: Bool,
        glyphs: Int
    ) throws -> [Int] {
        var offsets = [Int]()
        offsets.reserveCapacity(glyphs + 1)
        var previous = 0
        for index in 0...glyphs {
            let offset = longFormat ? Int(try loca.u32(index * 4)) : Int(try loca.u16(index * 2)) * 2
            guard offset <= glyf.length, offset >= previous else {
                throw TrueTypeFontError.malformed(
                    table: "loca",
                    reason: "offset of glyph \(index) out of order or past glyf"
                )
            }
            offsets.append(glyf.start + offset)
            previous = offset
        }
        return offsets
    }

    static func tagString(_ value: UInt32) -> String {
        let scalars = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        guard scalars.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "0x" + String(value, radix: 16) }
        return String(decoding: scalars, as: UTF8.self)
    }
}
