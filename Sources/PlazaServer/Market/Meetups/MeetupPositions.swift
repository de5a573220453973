import Foundation
import PlazaCore

/// What the marketplace asks of places to show one side of a meetup where the other is: their newest shared position
/// (places answer it with `PlacesMeetupPositions`, wired in `PlazaServices`), so the marketplace reads no location data.
protocol MeetupPositions: Sendable {
    /// The user's newest position recorded since `since`; nil when there is none, or it lies inside a private zone.
    func newestPosition(of user: UUID, since: Date) async throws -> SharedPosition?
}
