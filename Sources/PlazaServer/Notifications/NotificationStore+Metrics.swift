import Foundation
import SQLKit

extension NotificationStore {
    /// Pushes not sent yet (due, retrying, held for quiet hours or being sent): `plaza_outbox_depth{queue="push"}`.
    func undeliveredCount(on db: any SQLDatabase) async throws -> Int {
        let row = try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("push_deliveries").where("sent_at", .is, SQLLiteral.null).first()
        return try row?.decode(column: "n", as: Int.self) ?? 0
    }
}
