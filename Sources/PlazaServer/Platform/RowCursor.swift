import Foundation

/// The opaque cursor of lists ordered by a stored time (sessions, wallet activity): the id of the last row of the previous page.
///
/// The next page is found by comparing against that row's stored `last_seen_at` in SQL, never against a
/// timestamp that went through Swift: SQLite stores REAL seconds and sqlite-nio rounds on decoding, so a
/// round-tripped `Date` may not equal its own row and a page would repeat or skip it.
struct RowCursor {
    var id: UUID

    var encoded: String { Data(id.uuidString.utf8).base64EncodedString() }

    static func decode(_ text: String) throws -> RowCursor {
        guard let data = Data(base64Encoded: text), let string = String(data: data, encoding: .utf8), let id = UUID(uuidString: string) else {
            throw PlazaError.validation(field: "cursor", "This cursor is not one Plaza gave out.")
        }
        return RowCursor(id: id)
    }
}
