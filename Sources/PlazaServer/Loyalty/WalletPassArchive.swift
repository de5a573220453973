import Foundation
import PlazaMedia

/// A ZIP archive of stored (uncompressed) files, which is what a `.pkpass` is: the pass's images are PNGs already,
/// and its JSON is small.
struct WalletPassArchive {
    private var body = Data()
    private var directory = Data()
    private var count: UInt16 = 0

    /// Adds a file at `path` (forward slashes, no leading one).
    mutating func add(_ path: String, _ contents: Data) {
        let name = Data(path.utf8)
        let crc = CRC32.checksum(contents)
        let offset = UInt32(body.count)
        // Local file header: version 2.0, no flags, stored, a fixed time (1 Jan 2026, so the same pass makes the same bytes).
        body.append(le32: 0x0403_4b50)
        body.append(le16: 20)
        body.append(le16: 0)
        body.append(le16: 0)
        body.append(le16: 0)
        body.append(le16: Self.dosDate)
        body.append(le32: crc)
        body.append(le32: UInt32(contents.count))
        body.append(le32: UInt32(contents.count))
        body.append(le16: UInt16(name.count))
        body.append(le16: 0)
        body.append(name)
        body.append(contents)
        // Its central directory entry.
        directory.append(le32: 0x0201_4b50)
        directory.append(le16: 20)
        directory.append(le16: 20)
        directory.append(le16: 0)
        directory.append(le16: 0)
        directory.append(le16: 0)
        directory.append(le16: Self.dosDate)
        directory.append(le32: crc)
        directory.append(le32: UInt32(contents.count))
        directory.append(le32: UInt32(contents.count))
        directory.append(le16: UInt16(name.count))
        directory.append(le16: 0)
        directory.append(le16: 0)
        directory.append(le16: 0)
        directory.append(le16: 0)
        directory.append(le32: 0)
        directory.append(le32: offset)
        directory.append(name)
        count += 1
    }

    /// The archive's bytes.
    var data: Data {
        var out = body
        out.append(directory)
        out.append(le32: 0x0605_4b50)
        out.append(le16: 0)
        out.append(le16: 0)
        out.append(le16: count)
        out.append(le16: count)
        out.append(le32: UInt32(directory.count))
        out.append(le32: UInt32(body.count))
        out.append(le16: 0)
        return out
    }

    /// 2026-01-01 in MS-DOS date form.
    static let dosDate: UInt16 = UInt16((2026 - 1980) << 9 | 1 << 5 | 1)
}

extension Data {
    fileprivate mutating func append(le16 value: UInt16) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    fileprivate mutating func append(le32 value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
