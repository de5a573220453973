import Foundation
import NIOCore
import SQLKit

/// An SQLite connection whose rows decode ids without Foundation's parser.
///
/// SQLite keeps a UUID as its text. SQLiteKit decodes it through `UUID(from:)`, which reads the text and parses it
/// with `sscanf` (Foundation on Linux), behind a decoder object made for each value: a page of listings spent more
/// time there than in its query (`perf` during `plaza bench market`). Here an id is read as text and parsed by
/// `UUID(text:)`; every other type decodes as SQLiteKit does.
struct SQLiteFastRowsDatabase: ForwardingSQLDatabase {
    let base: any SQLDatabase

    func execute(
        sql query: any SQLExpression,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) -> EventLoopFuture<Void> {
        base.execute(sql: query) { onRow(SQLiteFastRow(base: $0)) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await base.execute(sql: query) { onRow(SQLiteFastRow(base: $0)) }
    }
}

/// A row of `SQLiteFastRowsDatabase`.
struct SQLiteFastRow: SQLRow {
    let base: any SQLRow

    var allColumns: [String] { base.allColumns }
    func contains(column: String) -> Bool { base.contains(column: column) }
    func decodeNil(column: String) throws -> Bool { try base.decodeNil(column: column) }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        if D.self == UUID.self {
            return try id(column) as! D
        }
        if D.self == UUID?.self {
            let id: UUID? = try base.decodeNil(column: column) ? nil : try self.id(column)
            return id as! D
        }
        return try base.decode(column: column, as: D.self)
    }

    private func id(_ column: String) throws -> UUID {
        let text = try base.decode(column: column, as: String.self)
        guard let id = UUID(text: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "Column \(column) holds \(text), not a UUID.")
            )
        }
        return id
    }
}
