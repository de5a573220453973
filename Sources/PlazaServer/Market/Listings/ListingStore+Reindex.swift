import Foundation
import PlazaCore
import SQLKit

extension ListingStore {
    /// Writes every listing's search terms again with `body` (after a change of `ListingSearch`'s rules), a page of 500
    /// at a time in the caller's transaction; answers how many.
    func reindexAll(
        on db: any SQLDatabase,
        body: (Record) -> String
    ) async throws -> Int {
        var offset = 0
        while true {
            let page = try await db.raw(
                Self.selectColumns + " ORDER BY l.id LIMIT \(bind: 500) OFFSET \(bind: offset)"
            ).all().map(Self.record)
            for record in page { try await index(record.id, body: body(record), on: db) }
            offset += page.count
            if page.count < 500 { return offset }
        }
    }
}
