import SQLKit

/// The SQL engine behind a `PlazaDatabase`. The few statements whose SQL truly differs branch on it here.
public enum DatabaseEngine: String, Sendable {
    case sqlite
    case postgres

    /// Column type for instants: REAL seconds on SQLite, `TIMESTAMPTZ` on PostgreSQL.
    var timestamp: SQLDataType { self == .sqlite ? .real : .custom(SQLRaw("TIMESTAMPTZ")) }
    /// Column type for UUIDs: text on SQLite, native `UUID` on PostgreSQL.
    var uuid: SQLDataType { self == .sqlite ? .text : .custom(SQLRaw("UUID")) }
    /// Column type for coordinates and other doubles: PostgreSQL's `REAL` is only 4 bytes.
    var double: SQLDataType { self == .sqlite ? .real : .custom(SQLRaw("DOUBLE PRECISION")) }
    /// `SQLDataType` has no boolean; both engines accept `BOOLEAN`.
    var boolean: SQLDataType { .custom(SQLRaw("BOOLEAN")) }
}
