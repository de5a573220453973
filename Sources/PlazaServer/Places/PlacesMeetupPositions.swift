import Foundation
import PlazaCore

/// Places' answer to the marketplace's `MeetupPositions`: a person's newest position from the live index, never their
/// history, and nothing while they are inside one of their private zones.
struct PlacesMeetupPositions: MeetupPositions {
    let database: PlazaDatabase
    let store = LocationStore()

    func newestPosition(of user: UUID, since: Date) async throws -> SharedPosition? {
        guard let live = try await store.livePosition(user: user, on: database.sql), live.zone == nil,
            live.recordedAt >= since
        else { return nil }
        return SharedPosition(
            latitude: live.coordinate.latitude,
            longitude: live.coordinate.longitude,
            recordedAt: live.recordedAt
        )
    }
}
