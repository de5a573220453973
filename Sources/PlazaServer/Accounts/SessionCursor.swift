import Foundation

/// The opaque cursor of the session list: where the previous page ended.
struct SessionCursor: Codable {
    var lastSeenAt: Date
    var id: UUID

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
