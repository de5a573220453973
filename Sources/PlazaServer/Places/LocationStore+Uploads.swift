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
    /// The state of those of `users` who have sharing settings (the others share nothing). On PostgreSQL the settings
    /// rows are locked first, in id order, and the rest is read after the locks are held, so that two uploads of one
    /// person apply one after the other and two batches never wait for each other in a circle. On SQLite, whose single
    /// writer runs one transaction at a time, it is one statement: each statement is a hop to SQLite's thread and back.
    func uploaderStates(
        users: [UUID],
        engine: DatabaseEngine,
        stays: StayStore,
        on db: any SQLDatabase
    ) async throws -> [UUID: UploaderState] {
        guard engine == .sqlite else {
            var states = try await sharing(users: users, locking: engine, on: db).mapValues {
                UploaderState(sharing: $0)
            }
            let sharers = Array(states.keys)
            guard !sharers.isEmpty else { return [:] }
            for (user, zones) in try await zones(users: sharers, on: db) { states[user]?.zones = zones }
            for (user, time) in try await liveTimes(users: sharers, on: db) { states[user]?.liveAt = time }
            for (user, open) in try await stays.openStays(users: sharers, on: db) { states[user]?.openStays = open }
            return states
        }
        // One column set for three tables: each kind fills its own columns, so that the tables' row readers read it.
        let rows = try await db.raw(
            """
            SELECT 'a' AS kind, s.user_id, NULL AS id, NULL AS name, s.level, s.zone_display, l.recorded_at, \
            NULL AS created_at, NULL AS entered_at, NULL AS last_seen_at, NULL AS latitude, NULL AS longitude, \
            NULL AS radius_meters, NULL AS decoy_latitude, NULL AS decoy_longitude, NULL AS location_id \
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
