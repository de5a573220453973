import Foundation
import SQLKit

/// The opaque cursor of lists ordered by a stored time (sessions, wallet activity): the id of the last row of the previous page.
///
/// The next page is found by comparing against that row's stored `last_seen_at` in SQL, never against a
/// timestamp that went through Swift: SQLite stores REAL seconds and sqlite-nio rounds on decoding, so a
/// round-tripped `Date` may not equal its own row and a page would repeat or skip it.
struct RowCursor {
    var id: UUID

    var encoded: String { Data(id.uuidString.utf8).base64EncodedString() }

    static func decode(_ text: String) throws -> RowCursor {
        guard let data = Data(base64Encoded: text), let string = String(data: data, encoding: .utf8),
            let id = UUID(uuidString: string)
        else {
            throw PlazaError.validation(field: "cursor", "This cursor is not one Plaza gave out.")
        }
        return RowCursor(id: id)
    }
}

extension SQLSelectBuilder {
    /// Rows after the cursor row `after` in newest-first order by `time`, then id: compared in SQL with that row's
    /// stored time (see `RowCursor`). `table` is the table the query reads.
    func newestFirst(after: UUID?, in table: String, by time: String) -> SQLSelectBuilder {
        var query = self
        if let after {
            let stored = SQLQueryString("(SELECT \(ident: time) FROM \(ident: table) WHERE id = \(bind: after))")
            query = query.where {
                $0.where(SQLColumn(time), .lessThan, stored).orWhere {
                    $0.where(SQLColumn(time), .equal, stored).where("id", .lessThan, after)
                }
            }
        }
        return query.orderBy(time, .descending).orderBy("id", .descending)
    }

    /// Rows before the cursor row `before` in newest-first order (the newer ones), nearest first: a page reads them
    /// this way, then shows them reversed.
    func nearestNewer(than before: UUID, in table: String, by time: String) -> SQLSelectBuilder {
        let stored = SQLQueryString("(SELECT \(ident: time) FROM \(ident: table) WHERE id = \(bind: before))")
        return self.where {
            $0.where(SQLColumn(time), .greaterThan, stored).orWhere {
                $0.where(SQLColumn(time), .equal, stored).where("id", .greaterThan, before)
            }
        }.orderBy(time, .ascending).orderBy("id", .ascending)
    }
}
