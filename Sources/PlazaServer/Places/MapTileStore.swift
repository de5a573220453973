import Foundation
import Logging
import NIOCore
import SQLKit
import SQLiteKit
import Synchronization

/// Raster tiles from an MBTiles file (`PLAZA_MAP_TILES=/path/town.mbtiles`), served by Plaza itself at
/// `/tiles/{z}/{x}/{y}`: an operator without a tile server (or offline) still gets a real base map. MBTiles is an
/// SQLite file whose rows count `tile_row` from the south (TMS); maps count `y` from the north.
final class MapTileStore: Sendable {
    let path: String
    private let lock = AsyncLock()
    private let connection = Mutex<SQLiteConnection?>(nil)
    private let logger: Logger

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    /// The tile's bytes and media type, or nil when the file has no such tile.
    func tile(z: Int, x: Int, y: Int) async throws -> (data: ByteBuffer, type: String)? {
        guard (0...22).contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        return try await lock.withLock {
            let db = try await open().sql()
            let row = try await db.select().column("tile_data").from("tiles").where("zoom_level", .equal, z).where(
                "tile_column",
                .equal,
                x
            )
            .where("tile_row", .equal, (1 << z) - 1 - y).first()
            guard let bytes = try row?.decode(column: "tile_data", as: Data.self) else { return nil }
            return (ByteBuffer(bytes: bytes), Self.mediaType(of: bytes))
        }
    }

    private func open() async throws -> SQLiteConnection {
        if let open = connection.withLock({ $0 }) { return open }
        guard FileManager.default.isReadableFile(atPath: path) else { throw PlazaError.notFound("map tiles file") }
        let opened = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        connection.withLock { $0 = opened }
        return opened
    }

    /// PNG, JPEG or WebP, from the first bytes (MBTiles' own `format` metadata is often missing).
    static func mediaType(of bytes: Data) -> String {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8]) { return "image/jpeg" }
        if bytes.count > 12, bytes[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        return "application/octet-stream"
    }
}
