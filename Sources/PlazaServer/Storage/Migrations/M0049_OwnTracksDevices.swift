import SQLKit

/// OwnTracks in one tap (issue 40): an app password made for OwnTracks says so, with the device name the app
/// reports under, and when Plaza last accepted a message sent with it ("last heard from").
struct M0049_OwnTracksDevices: Migration {
    let name = "OwnTracksDevices"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // SQLite adds one column per statement.
        try await db.alter(table: "app_passwords").column("owntracks_device", type: .text).run()
        try await db.alter(table: "app_passwords").column("last_message_at", type: engine.timestamp).run()
    }
}
