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
/// `longest` bytes of SQL are kept; past that the oldest go. Any statement that changes the schema (a migration)
/// empties the cache: a kept `SELECT *` would otherwise keep the columns it had.
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
        var keep = sql.utf8.count <= Self.longest
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
            if keep { statements[sql] = prepared } else { sqlite_nio_sqlite3_finalize(statement) }
        }
        prepared.lastUse = uses
        try bind(binds, to: statement)
        while true {
            let step = sqlite_nio_sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(step) }
            if prepared.columns.count != Int(sqlite_nio_sqlite3_column_count(statement)) {
                prepared.columns = SQLiteColumnNames(statement)
            }
            onRow(SQLiteDirectRow(columns: prepared.columns, values: Self.values(of: statement, prepared.columns)))
        }
        if sqlite_nio_sqlite3_stmt_readonly(statement) == 0, Self.isSchemaChange(sql) {
            // Every kept statement goes; this one too, once reset.
            keep = false
            statements[sql] = nil
            evictAll(except: statement)
        } else if keep, statements[sql] == nil, statements.count >= Self.capacity {
            evictOldest()
        }
    }

    private func prepare(_ sql: String) throws -> Prepared {
        var statement: OpaquePointer?
        let flags = sql.utf8.count <= Self.longest ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard result == SQLITE_OK, let statement else {
            throw failure(result)
        }
        return Prepared(statement: statement, columns: SQLiteColumnNames(statement), lastUse: uses)
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
                            return sqlite_nio_sqlite3_bind_text64(statement, index, "", 0, nil, UInt8(SQLITE_UTF8))
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

    private static func values(of statement: OpaquePointer, _ columns: SQLiteColumnNames) -> [SQLiteData] {
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
                values.append(
                    .text(
                        text.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
                    )
                )
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

    /// Whether `sql` (a statement that writes) is DDL, by its first word.
    private static func isSchemaChange(_ sql: String) -> Bool {
        let word = sql.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }.prefix { $0 > 64 }
        let upper = String(decoding: word, as: UTF8.self).uppercased()
        return upper == "CREATE" || upper == "DROP" || upper == "ALTER" || upper == "VACUUM"
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

    private mutating func evictAll(except running: OpaquePointer) {
        for prepared in statements.values where prepared.statement != running {
            sqlite_nio_sqlite3_finalize(prepared.statement)
        }
        statements = [:]
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
