import Foundation
import NIOCore
import SQLKit
import SQLiteKit
import SQLiteNIO
import VaporCSQLite

/// A `sqlite3` handle with its statements prepared once and kept by their SQL (`SQLiteDirectConnection`'s state).
/// (Unchecked: the handle is used only under `SQLiteDirectConnection`'s mutex.)
///
/// A statement is prepared the first time its SQL comes, and reset for the next: a batch's 6,000-bind INSERT was
/// prepared again for every batch before (5 % of a location upload's profile). Up to `capacity` statements of up to
/// `longest` bytes of SQL are kept; past that the least recently used goes. After a schema change SQLite prepares a
/// kept statement again by itself; its column names are read again then.
struct SQLiteStatementCache: ~Copyable, @unchecked Sendable {
    static let capacity = 256
    static let longest = 64 << 10

    let handle: OpaquePointer
    private var statements: [String: Prepared] = [:]
    private var uses = 0
    private var closed = false

    private struct Prepared {
        let statement: OpaquePointer
        var columns: SQLiteColumnNames
        /// How often SQLite has prepared it again (`SQLITE_STMTSTATUS_REPREPARE`) when `columns` were read.
        var prepares: Int32
        var lastUse: Int
    }

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    mutating func run(_ sql: String, _ binds: [SQLiteData], _ onRow: (any SQLRow) -> Void) throws {
        guard !closed else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed") }
        uses += 1
        var prepared = try statements[sql] ?? prepare(sql)
        let statement = prepared.statement
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
            keep(prepared, as: sql)
        }
        prepared.lastUse = uses
        try bind(binds, to: statement)
        var named = false
        while true {
            let step = sqlite_nio_sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(step) }
            if !named {
                // SQLite prepares a statement again by itself after a schema change (here or in another connection):
                // its columns may have changed with it.
                named = true
                let prepares = sqlite_nio_sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_REPREPARE, 0)
                if prepares != prepared.prepares {
                    prepared.columns = SQLiteColumnNames(statement)
                    prepared.prepares = prepares
                }
            }
            onRow(SQLiteDirectRow(columns: prepared.columns, values: try values(of: statement, prepared.columns)))
        }
    }

    /// Keeps `prepared` for the next time `sql` comes, making room first; a statement too long to keep is finalized.
    private mutating func keep(_ prepared: Prepared, as sql: String) {
        guard sql.utf8.count <= Self.longest else {
            sqlite_nio_sqlite3_finalize(prepared.statement)
            return
        }
        if statements[sql] == nil, statements.count >= Self.capacity { evictOldest() }
        statements[sql] = prepared
    }

    private func prepare(_ sql: String) throws -> Prepared {
        var statement: OpaquePointer?
        let flags = sql.utf8.count <= Self.longest ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard result == SQLITE_OK, let statement else {
            throw failure(result)
        }
        return Prepared(
            statement: statement,
            columns: SQLiteColumnNames(statement),
            prepares: sqlite_nio_sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_REPREPARE, 0),
            lastUse: uses
        )
    }

    private func bind(_ binds: [SQLiteData], to statement: OpaquePointer) throws {
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .integer(let value): result = sqlite_nio_sqlite3_bind_int64(statement, index, Int64(value))
            case .float(let value): result = sqlite_nio_sqlite3_bind_double(statement, index, value)
            case .null: result = sqlite_nio_sqlite3_bind_null(statement, index)
            case .text(var value):
                result = value.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { text in
                        guard let start = text.baseAddress, !text.isEmpty else {
                            return sqlite_nio_sqlite3_bind_text64(
                                statement,
                                index,
                                "",
                                0,
                                Self.transient,
                                UInt8(SQLITE_UTF8)
                            )
                        }
                        return sqlite_nio_sqlite3_bind_text64(
                            statement,
                            index,
                            start,
                            UInt64(text.count),
                            Self.transient,
                            UInt8(SQLITE_UTF8)
                        )
                    }
                }
            case .blob(let value):
                result = value.withUnsafeReadableBytes {
                    sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), Self.transient)
                }
            }
            guard result == SQLITE_OK else { throw failure(result) }
        }
    }

    private func values(of statement: OpaquePointer, _ columns: SQLiteColumnNames) throws -> [SQLiteData] {
        var values: [SQLiteData] = []
        values.reserveCapacity(columns.count)
        for index in 0..<Int32(columns.count) {
            switch sqlite_nio_sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER: values.append(.integer(Int(sqlite_nio_sqlite3_column_int64(statement, index))))
            case SQLITE_FLOAT: values.append(.float(sqlite_nio_sqlite3_column_double(statement, index)))
            case SQLITE_TEXT:
                // The text first, then its length (SQLite's order: the length is of the text as last read).
                let text = sqlite_nio_sqlite3_column_text(statement, index)
                let count = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
                guard let text else { throw failure(SQLITE_NOMEM) }
                values.append(.text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)))
            case SQLITE_BLOB:
                let bytes = sqlite_nio_sqlite3_column_blob(statement, index)
                let count = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
                var buffer = ByteBufferAllocator().buffer(capacity: count)
                if let bytes {
                    buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count))
                }
                values.append(.blob(buffer))
            default: values.append(.null)
            }
        }
        return values
    }

    private func failure(_ code: Int32) -> SQLiteFailure {
        let message = sqlite_nio_sqlite3_errmsg(handle).map { String(cString: $0) } ?? "unknown error"
        return SQLiteFailure(code: code, message: message)
    }

    private mutating func evictOldest() {
        guard let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
        sqlite_nio_sqlite3_finalize(oldest.value.statement)
        statements[oldest.key] = nil
    }

    mutating func close() {
        guard !closed else { return }
        closed = true
        for prepared in statements.values { sqlite_nio_sqlite3_finalize(prepared.statement) }
        statements = [:]
        sqlite_nio_sqlite3_close(handle)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A statement's column names, shared by its rows.
final class SQLiteColumnNames: Sendable {
    let names: [String]
    let offsets: [String: Int]

    var count: Int { names.count }

    init(_ statement: OpaquePointer) {
        let count = Int(sqlite_nio_sqlite3_column_count(statement))
        names = (0..<count).map { index in
            sqlite_nio_sqlite3_column_name(statement, Int32(index)).map { String(cString: $0) } ?? ""
        }
        // The first of two columns with one name wins, as in SQLiteNIO.
        offsets = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A row `SQLiteDirectConnection` read: its values, decoded as SQLiteKit decodes them, ids by `UUID(text:)`.
struct SQLiteDirectRow: SQLRow {
    let columns: SQLiteColumnNames
    let values: [SQLiteData]

    private static let decoder = SQLiteDataDecoder()

    var allColumns: [String] { columns.names }
    func contains(column: String) -> Bool { columns.offsets[column] != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let offset = columns.offsets[column] else { return true }
        return values[offset] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let offset = columns.offsets[column] else {
            throw DecodingError.keyNotFound(
                SQLiteDirectColumn(column),
                .init(codingPath: [], debugDescription: "No column \(column) in the row.")
            )
        }
        let value = values[offset]
        if D.self == UUID.self || D.self == UUID?.self {
            if D.self == UUID?.self, value == .null { return UUID?.none as! D }
            guard case .text(let text) = value, let id = UUID(text: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: [], debugDescription: "Column \(column) holds \(value), not a UUID.")
                )
            }
            return (D.self == UUID.self ? id : UUID?.some(id)) as! D
        }
        return try Self.decoder.decode(D.self, from: value)
    }
}

private struct SQLiteDirectColumn: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
