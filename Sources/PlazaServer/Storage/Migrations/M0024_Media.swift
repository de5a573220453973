import SQLKit

/// Uploaded pictures (issue 24's listing photos): stored in the database so that every Plaza process serves them,
/// already stripped of EXIF and location tags; unused ones are readable by their uploader only.
struct M0024_Media: Migration {
    let name = "Media"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "media")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("owner_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("content_type", type: .text, .notNull)
            .column("width", type: .int, .notNull)
            .column("height", type: .int, .notNull)
            .column("size", type: .int, .notNull)
            .column("bytes", type: .blob, .notNull)
            // A smaller picture for feeds, when one was made; the full picture serves otherwise.
            .column("thumbnail", type: .blob)
            // Hex SHA-256 of `bytes`: the ETag.
            .column("digest", type: .text, .notNull)
            // What shows it (`listing:<id>`); null while only its uploader may read it.
            .column("used_by", type: .text)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "media_owner").on("media").column("owner_id").column("created_at").run()
    }
}
