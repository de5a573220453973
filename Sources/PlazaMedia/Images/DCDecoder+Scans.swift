import Foundation
import PlazaCore

/// A JPEG's scans: their entropy-coded data read block by block for the DC coefficients, the AC ones stepped over.
extension DCDecoder {
    /// Decodes (or skips) one scan; answers where its entropy-coded data ends, at the next marker.
    mutating func readScan(_ segment: [UInt8], dataStart: Int) -> Int? {
        guard !components.isEmpty, let count = segment.first.map(Int.init), (1...4).contains(count),
            segment.count >= 4 + 2 * count
        else { return nil }
        let start = Int(segment[1 + 2 * count])
        let end = Int(segment[2 + 2 * count])
        let high = Int(segment[3 + 2 * count] >> 4)
        let low = Int(segment[3 + 2 * count] & 0x0F)
        let mode: ScanMode
        if progressive {
            // AC scans refine detail a 1/8-scale picture cannot show: stepped over unread.
            guard start == 0 else { return bytes.withUnsafeBufferPointer { Self.nextMarker($0, from: dataStart) } }
            guard end == 0 else { return nil }
            mode = high == 0 ? .firstDC(shift: low) : .refineDC(bit: low)
        } else {
            guard start == 0, end == 63 else { return nil }
            mode = .sequential
        }
        var parts: [ScanPart] = []
        for index in 0..<count {
            let id = Int(segment[1 + 2 * index])
            let dcSlot = Int(segment[2 + 2 * index] >> 4)
            let acSlot = Int(segment[2 + 2 * index] & 0x0F)
            guard let number = components.firstIndex(where: { $0.id == id }),
                !parts.contains(where: { $0.component == number }),
                dcSlot <= 3, acSlot <= 3
            else { return nil }
            let component = components[number]
            let dcTable = dcTables[dcSlot]
            let acTable = acTables[acSlot]
            switch mode {
            case .sequential: guard dcTable != nil, acTable != nil else { return nil }
            case .firstDC: guard dcTable != nil else { return nil }
            case .refineDC: break
            }
            if component.quantDC == nil {
                guard let quant = quantDC[component.quantTable] else { return nil }
                components[number].quantDC = quant
            }
            components[number].decoded = true
            let single = count == 1
            parts.append(
                ScanPart(
                    component: number,
                    base: component.base,
                    blocksPerLine: component.blocksPerLine,
                    horizontal: single ? 1 : component.horizontal,
                    vertical: single ? 1 : component.vertical,
                    dcTable: dcTable,
                    acTable: acTable
                )
            )
        }
        let mcusPerLine: Int
        let mcusPerColumn: Int
        if count == 1, let only = parts.first {
            mcusPerLine = components[only.component].scanBlocksPerLine
            mcusPerColumn = components[only.component].scanBlocksPerColumn
        } else {
            mcusPerLine = components[0].blocksPerLine / components[0].horizontal
            mcusPerColumn = components[0].blocksPerColumn / components[0].vertical
        }
        let interval = restartInterval
        let bytes = self.bytes
        return coefficients.withUnsafeMutableBufferPointer { coefficients in
            bytes.withUnsafeBufferPointer { data in
                Self.decodeBlocks(
                    data: data,
                    from: dataStart,
                    into: coefficients,
                    parts: parts,
                    mode: mode,
                    mcus: (mcusPerLine, mcusPerColumn),
                    restartInterval: interval
                )
            }
        }
    }

    /// The entropy-coded data, MCU by MCU; answers the position of the marker that follows it, or nil when damaged.
    private static func decodeBlocks(
        data: UnsafeBufferPointer<UInt8>,
        from start: Int,
        into coefficients: UnsafeMutableBufferPointer<Int32>,
        parts: [ScanPart],
        mode: ScanMode,
        mcus: (perLine: Int, perColumn: Int),
        restartInterval: Int
    ) -> Int? {
        var reader = BitReader(data: data, position: start)
        var predictors = [Int](repeating: 0, count: parts.count)
        var mcu = 0
        for mcuRow in 0..<mcus.perColumn {
            for mcuColumn in 0..<mcus.perLine {
                if restartInterval > 0, mcu > 0, mcu % restartInterval == 0 {
                    guard !reader.overran, reader.restart() else { return nil }
                    for index in predictors.indices { predictors[index] = 0 }
                }
                mcu += 1
                for number in 0..<parts.count {
                    let part = parts[number]
                    for row in (mcuRow * part.vertical)..<((mcuRow + 1) * part.vertical) {
                        for column in (mcuColumn * part.horizontal)..<((mcuColumn + 1) * part.horizontal) {
                            let index = part.base + row * part.blocksPerLine + column
                            guard index >= 0, index < coefficients.count else { return nil }
                            switch mode {
                            case .sequential:
                                guard let dcTable = part.dcTable, let acTable = part.acTable,
                                    let size = reader.decode(dcTable), size <= 15
                                else { return nil }
                                predictors[number] += reader.signed(size)
                                coefficients[index] = Int32(clamping: predictors[number])
                                guard skipACCoefficients(&reader, acTable) else { return nil }
                            case .firstDC(let shift):
                                guard let dcTable = part.dcTable, let size = reader.decode(dcTable), size <= 15 else {
                                    return nil
                                }
                                predictors[number] += reader.signed(size)
                                coefficients[index] = Int32(clamping: predictors[number] << shift)
                            case .refineDC(let bit):
                                if reader.bits(1) == 1 { coefficients[index] |= Int32(1) << Int32(bit) }
                            }
                        }
                    }
                }
                if reader.overran { return nil }
            }
        }
        return nextMarker(data, from: reader.position)
    }

    /// Huffman-decodes a block's 63 AC coefficients only to find where the next block starts. Nearly every AC code is
    /// found by the 9-bit lookup; its code and the coefficient's bits are then stepped over in one go, as this loop is
    /// where a sequential JPEG's decoding spends its time.
    private static func skipACCoefficients(_ reader: inout BitReader, _ table: HuffmanTable) -> Bool {
        let lookup = table.lookup
        var index = 1
        while index < 64 {
            if reader.count < 32 { reader.refill() }
            let entry = Int(lookup[Int(truncatingIfNeeded: reader.buffer &>> UInt64(64 - HuffmanTable.lookupBits))])
            let symbol: Int
            if entry != 0 {
                symbol = entry & 0xFF
                let length = (entry >> 8) + (symbol & 0x0F)
                reader.buffer = reader.buffer &<< UInt64(length)
                reader.count -= length
            } else {
                guard let decoded = reader.decode(table) else { return false }
                symbol = decoded
                reader.skip(symbol & 0x0F)
            }
            if symbol & 0x0F == 0 {
                guard symbol == 0xF0 else { return true }  // end of block
                index += 16  // sixteen zeros
            } else {
                index += (symbol >> 4) + 1
            }
        }
        return true
    }

    /// Where a scan's data ends: the next marker that is not a restart marker or a stuffed 0xFF.
    private static func nextMarker(_ data: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var position = max(start, 0)
        while position + 1 < data.count {
            guard data[position] == 0xFF else {
                position += 1
                continue
            }
            let marker = data[position + 1]
            if marker == 0xFF {
                position += 1
            } else if marker == 0x00 || (0xD0...0xD7).contains(marker) {
                position += 2
            } else {
                return position
            }
        }
        return nil
    }
}
