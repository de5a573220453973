import Foundation
import SQLKit

extension OutboxStore {
    /// Mails not sent yet (waiting, retrying or being sent): `plaza_outbox_depth{queue="mail"}`.
    func undeliveredCount(on db: any SQLDatabase) async throws -> Int {
        let row = try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("outbox_emails").where("sent_at", .is, SQLLiteral.null).first()
        return try row?.decode(column: "n", as: Int.self) ?? 0
    }
}
