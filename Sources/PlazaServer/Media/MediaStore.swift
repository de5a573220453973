import Foundation
import PlazaCore
import SQLKit

/// All SQL about uploaded pictures.
struct MediaStore: Sendable {
    struct Record: Sendable {
        var id: UUID
        var ownerId: UUID
        var contentType: String
        var width: Int
        var height: Int
        var digest: String
        var usedBy: String?
        var createdAt: Date
    }

    func insert(_ record: Record, bytes: Data, thumbnail: Data?, on db: any SQLDatabase) async throws {
        try await db.insert(into: "media")
            .columns(
                "id",
                "owner_id",
                "content_type",
                "width",
                "height",
                "size",
                "bytes",
                "thumbnail",
                "digest",
                "used_by",
                "created_at"
            )
            .values(
                SQLBind(record.id),
                SQLBind(record.ownerId),
                SQLBind(record.contentType),
                SQLBind(record.width),
                SQLBind(record.height),
                SQLBind(bytes.count),
                SQLBind(bytes),
                SQLBind(thumbnail),
                SQLBind(record.digest),
                SQLBind(record.usedBy),
                SQLBind(record.createdAt)
            )
            .run()
    }

    static let columns = ["id", "owner_id", "content_type", "width", "height", "digest", "used_by", "created_at"]

    func record(_ id: UUID, on db: any SQLDatabase) async throws -> Record? {
        try await db.select().columns(Self.columns.map { SQLIdentifier($0) }).from("media").where("id", .equal, id)
            .first().map(Self.record)
    }

    /// The picture's bytes, or its thumbnail's when asked and made.
    func bytes(_ id: UUID, thumbnail: Bool, on db: any SQLDatabase) async throws -> Data? {
        let select = db.select().from("media").where("id", .equal, id)
        if thumbnail {
            select.column(SQLFunction("coalesce", args: SQLColumn("thumbnail"), SQLColumn("bytes")), as: "data")
        } else {
            select.column(SQLColumn("bytes"), as: "data")
        }
        return try await select.first()?.decode(column: "data", as: Data.self)
    }

    /// Marks the owner's unused pictures among `ids` as used by `subject`; answers the ids it marked.
    func use(_ ids: [UUID], owner: UUID, by subject: String, on db: any SQLDatabase) async throws -> Set<UUID> {
        guard !ids.isEmpty else { return [] }
        let rows = try await db.update("media").set("used_by", to: subject).where("id", .in, SQLBind.group(ids)).where(
            "owner_id",
            .equal,
            owner
        )
        .where { $0.where("used_by", .is, SQLLiteral.null).orWhere("used_by", .equal, subject) }.returning("id").all()
        return Set(try rows.map { try $0.decode(column: "id", as: UUID.self) })
    }

    /// Pictures `subject` no longer shows go back to their uploader alone.
    func release(_ ids: [UUID], from subject: String, on db: any SQLDatabase) async throws {
        guard !ids.isEmpty else { return }
        try await db.update("media").set("used_by", to: SQLLiteral.null).where("id", .in, SQLBind.group(ids)).where(
            "used_by",
            .equal,
            subject
        )
        .run()
    }

    static func record(_ row: any SQLRow) throws -> Record {
        Record(
            id: try row.decode(column: "id", as: UUID.self),
            ownerId: try row.decode(column: "owner_id", as: UUID.self),
            contentType: try row.decode(column: "content_type", as: String.self),
            width: try row.decode(column: "width", as: Int.self),
            height: try row.decode(column: "height", as: Int.self),
            digest: try row.decode(column: "digest", as: String.self),
            usedBy: try row.decode(column: "used_by", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self)
        )
    }
}
