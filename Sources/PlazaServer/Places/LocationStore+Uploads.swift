import Foundation
import PlazaCore
import SQLKit

/// What a batch of uploads needs to know of each person before it writes.
struct UploaderState: Sendable {
    var sharing: LocationSharing
    /// Oldest first.
    var zones: [ZoneRecord] = []
    /// When their newest position was recorded, if they have one.
    var liveAt: Date?
    var openStays: [StayRecord] = []
}

extension LocationStore {
    /// The state of those of `users` who have sharing settings (the others share nothing), in one statement: each
    /// statement is a round trip (on SQLite a hop to its thread and back). On PostgreSQL the settings rows are locked
    /// first, in id order, and the state read after the locks are held, so that two uploads of one person apply one
    /// after the other and two batches never wait for each other in a circle; SQLite's single writer runs one
    /// transaction at a time.
    func uploaderStates(
        users: [UUID],
        engine: DatabaseEngine,
        on db: any SQLDatabase
    ) async throws -> [UUID: UploaderState] {
        if engine == .postgres {
            try await db.raw(
                "SELECT user_id FROM location_settings WHERE user_id IN (\(binds: users)) ORDER BY user_id FOR UPDATE"
            ).run()
        }
        // One column set for three tables: each kind fills its own columns, so that the tables' row readers read it.
        // PostgreSQL types a UNION's columns from its first rows: their NULLs say what the others hold.
        func null(_ type: String) -> SQLQueryString {
            engine == .postgres ? "NULL::\(unsafeRaw: type)" : "NULL"
        }
        let (uuid, time, double) = (null("uuid"), null("timestamptz"), null("double precision"))
        let rows = try await db.raw(
            """
            SELECT 'a' AS kind, s.user_id, \(uuid) AS id, \(null("text")) AS name, s.level, s.zone_display, \
            l.recorded_at, \(time) AS created_at, \(time) AS entered_at, \(time) AS last_seen_at, \
            \(double) AS latitude, \(double) AS longitude, \(null("bigint")) AS radius_meters, \
            \(double) AS decoy_latitude, \(double) AS decoy_longitude, \(uuid) AS location_id \
            FROM location_settings s LEFT JOIN live_positions l ON l.user_id = s.user_id \
            WHERE s.user_id IN (\(binds: users)) \
            UNION ALL SELECT 'b', user_id, id, name, NULL, NULL, NULL, created_at, NULL, NULL, latitude, longitude, \
            radius_meters, decoy_latitude, decoy_longitude, NULL FROM private_zones WHERE user_id IN (\(binds: users)) \
            UNION ALL SELECT 'c', user_id, id, NULL, NULL, NULL, NULL, NULL, entered_at, last_seen_at, NULL, NULL, \
            NULL, NULL, NULL, location_id FROM stays WHERE user_id IN (\(binds: users)) AND exited_at IS NULL \
            ORDER BY kind, user_id, created_at, id
            """
        ).all()
        var states: [UUID: UploaderState] = [:]
        // Settings first (kind a, then b, c): zones and stays of a person without settings are no one's business here.
        for row in rows {
            let user = try row.decode(column: "user_id", as: UUID.self)
            switch try row.decode(column: "kind", as: String.self) {
            case "a":
                states[user] = UploaderState(
                    sharing: try Self.sharing(row: row),
                    liveAt: try row.decode(column: "recorded_at", as: Date?.self)
                )
            case "b": states[user]?.zones.append(try Self.zone(row: row))
            default: states[user]?.openStays.append(try StayStore.stay(row: row))
            }
        }
        return states
    }
}
