import Foundation
import PlazaCore
import SQLKit

extension ReviewStore {
    /// When the oldest open item was filed; nil when none is open (`plaza_review_queue_age_seconds`). The index on
    /// (state, created_at) answers it without a scan.
    func oldestOpen(on db: any SQLDatabase) async throws -> Date? {
        let row = try await db.select().column("created_at").from("review_items")
            .where("state", .equal, ReviewState.open.rawValue)
            .orderBy("created_at").limit(1).first()
        return try row?.decode(column: "created_at", as: Date.self)
    }
}
