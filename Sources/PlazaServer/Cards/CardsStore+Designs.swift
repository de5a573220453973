import Foundation
import PlazaCore
import SQLKit

/// Saved designs: a shopper's labels on a pinned template version.
extension CardsStore {
    package struct DesignRecord: Sendable {
        var id: UUID
        var ownerId: UUID
        var templateId: UUID
        var templateVersion: Int
        var name: String
        var colour: String
        package var labels: [CardLabelValue]
        /// With each upload's pixel size (uploads never change).
        package var photos: [CardPhotoPlacement] = []
        var locked: Bool
        var createdAt: Date
        var updatedAt: Date
    }

    static let designColumns = [
        "id", "owner_id", "template_id", "template_version", "name", "colour", "labels", "locked", "created_at",
        "updated_at", "photos",
    ]

    func design(_ id: UUID, on db: any SQLDatabase) async throws -> DesignRecord? {
        try await db.select().columns(Self.designColumns.map { SQLIdentifier($0) }).from("card_designs").where(
            "id",
            .equal,
            id
        ).first()
            .map(Self.design)
    }

    /// The owner's designs, most recently changed first, a page from `offset`.
    func designs(owner: UUID, limit: Int, offset: Int, on db: any SQLDatabase) async throws -> [DesignRecord] {
        try await db.select().columns(Self.designColumns.map { SQLIdentifier($0) }).from("card_designs").where(
            "owner_id",
            .equal,
            owner
        )
        .orderBy("updated_at", .descending).orderBy("id", .descending).limit(limit).offset(offset).all().map(
            Self.design
        )
    }

    func insert(_ design: DesignRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "card_designs").columns(Self.designColumns)
            .values(
                SQLBind(design.id),
                SQLBind(design.ownerId),
                SQLBind(design.templateId),
                SQLBind(design.templateVersion),
                SQLBind(design.name),
                SQLBind(design.colour),
                SQLBind(try PlazaJSON.text(design.labels)),
                SQLBind(design.locked),
                SQLBind(design.createdAt),
                SQLBind(design.updatedAt),
                SQLBind(try PlazaJSON.text(design.photos))
            ).run()
    }

    /// Saves a change, unless the design was locked meanwhile (false then).
    func update(_ design: DesignRecord, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("card_designs").set("name", to: design.name).set("colour", to: design.colour)
            .set("labels", to: try PlazaJSON.text(design.labels))
            .set("photos", to: try PlazaJSON.text(design.photos)).set("template_version", to: design.templateVersion)
            .set("updated_at", to: design.updatedAt).where("id", .equal, design.id).where("locked", .equal, false)
            .returning("id").all().count == 1
    }

    func deleteDesign(_ id: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "card_designs").where("id", .equal, id).where("locked", .equal, false).returning("id")
            .all().count == 1
    }

    static func design(_ row: any SQLRow) throws -> DesignRecord {
        DesignRecord(
            id: try row.decode(column: "id", as: UUID.self),
            ownerId: try row.decode(column: "owner_id", as: UUID.self),
            templateId: try row.decode(column: "template_id", as: UUID.self),
            templateVersion: try row.decode(column: "template_version", as: Int.self),
            name: try row.decode(column: "name", as: String.self),
            colour: try row.decode(column: "colour", as: String.self),
            labels: try PlazaJSON.value([CardLabelValue].self, from: try row.decode(column: "labels", as: String.self)),
            photos: try row.decode(column: "photos", as: String?.self).map {
                try PlazaJSON.value([CardPhotoPlacement].self, from: $0)
            } ?? [],
            locked: try row.decode(column: "locked", as: Bool.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self)
        )
    }
}
