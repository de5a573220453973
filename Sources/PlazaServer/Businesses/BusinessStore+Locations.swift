import Foundation
import PlazaCore
import SQLKit

/// The SQL of a business's locations: where it receives customers, with their opening hours.
extension BusinessStore {
    func insertLocation(_ location: BusinessLocation, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "business_locations").columns(Self.locationColumns + ["created_at"])
            .values(Self.locationValues(location) + [SQLBind(now)]).run()
    }

    func updateLocation(_ location: BusinessLocation, on db: any SQLDatabase) async throws {
        try await db.update("business_locations").set("name", to: location.name).set("address", to: location.address)
            .set("latitude", to: location.latitude).set("longitude", to: location.longitude).set(
                "radius_meters",
                to: location.radiusMeters
            )
            .set("opening_hours", to: Self.encodeHours(location.openingHours))
            .where("id", .equal, location.id).run()
    }

    func deleteLocation(id: UUID, business: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "business_locations").where("id", .equal, id).where("business_id", .equal, business)
            .returning("id").first() != nil
    }

    func location(id: UUID, on db: any SQLDatabase) async throws -> BusinessLocation? {
        try await db.select().columns(Self.locationColumns.map { SQLIdentifier($0) }).from("business_locations").where(
            "id",
            .equal,
            id
        )
        .first().map(Self.location(row:))
    }

    func locations(businesses: [UUID], on db: any SQLDatabase) async throws -> [BusinessLocation] {
        guard !businesses.isEmpty else { return [] }
        return try await db.select().columns(Self.locationColumns.map { SQLIdentifier($0) }).from("business_locations")
            .where("business_id", .in, SQLBind.group(businesses)).orderBy("created_at").orderBy("id").all().map(
                Self.location(row:)
            )
    }

    /// Every location, for the in-memory catalog.
    func allLocations(on db: any SQLDatabase) async throws -> [BusinessLocation] {
        try await db.select().columns(Self.locationColumns.map { SQLIdentifier($0) }).from("business_locations")
            .orderBy("created_at").orderBy("id")
            .all()
            .map(Self.location(row:))
    }

    private static func locationValues(_ location: BusinessLocation) -> [any SQLExpression] {
        [
            SQLBind(location.id), SQLBind(location.businessId), SQLBind(location.name), SQLBind(location.address),
            SQLBind(location.latitude),
            SQLBind(location.longitude), SQLBind(location.radiusMeters), SQLBind(encodeHours(location.openingHours)),
        ]
    }

    private static func location(row: any SQLRow) throws -> BusinessLocation {
        let hours = try row.decode(column: "opening_hours", as: String.self)
        return BusinessLocation(
            id: try row.decode(column: "id", as: UUID.self),
            businessId: try row.decode(column: "business_id", as: UUID.self),
            name: try row.decode(column: "name", as: String.self),
            address: try row.decode(column: "address", as: String.self),
            latitude: try row.decode(column: "latitude", as: Double.self),
            longitude: try row.decode(column: "longitude", as: Double.self),
            radiusMeters: try row.decode(column: "radius_meters", as: Int.self),
            openingHours: (try? PlazaJSON.decoder().decode([OpeningPeriod].self, from: Data(hours.utf8))) ?? []
        )
    }

    private static func encodeHours(_ hours: [OpeningPeriod]) -> String {
        String(decoding: (try? PlazaJSON.encoder().encode(hours)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
