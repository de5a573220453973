import Foundation
import PlazaCore
import SQLKit

/// Business search folds accents and case and reads descriptions too ("cafe" finds "Corner Café", "pretzel" finds
/// the bakery that sells them): the folded text is written beside each row, by Plaza, the same on both engines.
struct M0013_BusinessSearch: Migration {
    let name = "BusinessSearch"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "businesses").column(
            "search_text",
            type: .text,
            .notNull,
            .default(SQLLiteral.string(""))
        ).run()
        for row in try await db.select().column("id").column("name").column("description").from("businesses").all() {
            let text = BusinessRules.searchText(
                name: try row.decode(column: "name", as: String.self),
                description: try row.decode(column: "description", as: String?.self)
            )
            try await db.update("businesses").set("search_text", to: text).where(
                "id",
                .equal,
                try row.decode(column: "id", as: UUID.self)
            ).run()
        }
    }
}
