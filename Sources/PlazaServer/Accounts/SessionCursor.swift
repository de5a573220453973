import Foundation

/// The opaque cursor of the session list: where the previous page ended.
///
/// The instant travels as seconds since 1970, the form SQLite stores, so that it compares equal to the row
/// it came from (a round trip through `Date`'s reference-date encoding would drift in the last bits).
struct SessionCursor: Codable {
    var seconds: Double
    var id: UUID

    init(lastSeenAt: Date, id: UUID) {
        seconds = lastSeenAt.timeIntervalSince1970
        self.id = id
    }

    var lastSeenAt: Date { Date(timeIntervalSince1970: seconds) }

    var encoded: String {
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        return data.base64EncodedString()
    }

    static func decode(_ text: String) throws -> SessionCursor {
        guard let data = Data(base64Encoded: text), let cursor = try? JSONDecoder().decode(SessionCursor.self, from: data) else {
            throw PlazaError.validation(field: "cursor", "This cursor is not one Plaza gave out.")
        }
        return cursor
    }
}
