import PlazaCore

/// Reads the `name` table's strings, preferring Windows US English (UTF-16BE), then any Windows or Unicode-platform
/// record, then Mac Roman; enough for the family and PostScript names a PDF needs.
enum TrueTypeNames {
    static func parse(_ r: TrueTypeReader) throws -> [Int: String] {
        let count = Int(try r.u16(2))
        let storage = Int(try r.u16(4))
        var best: [Int: (rank: Int, value: String)] = [:]
        for index in 0..<count {
            let record = 6 + index * 12
            let platform = try r.u16(record)
            let encoding = try r.u16(record + 2)
            let language = try r.u16(record + 4)
            let nameID = Int(try r.u16(record + 6))
            let length = Int(try r.u16(record + 8))
            let offset = Int(try r.u16(record + 10))
            guard nameID == 1 || nameID == 6 else { continue }
            let rank: Int
            switch (platform, encoding, language) {
            case (3, 1, 0x409): rank = 0
            case (3, _, _), (0, _, _): rank = 1
            case (1, 0, _): rank = 2
            default: continue
            }
            if let existing = best[nameID], existing.rank <= rank { continue }
            let raw = try r.slice(storage + offset, length)
            let value =
                rank == 2 ? String(decoding: raw.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self) : utf16BigEndian(raw)
            best[nameID] = (rank, value)
        }
        return best.mapValues(\.value)
    }

    private static func utf16BigEndian(_ raw: ArraySlice<UInt8>) -> String {
        var units = [UInt16]()
        var index = raw.startIndex
        while index + 1 < raw.endIndex {
            units.append(UInt16(raw[index]) << 8 | UInt16(raw[index + 1]))
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
