import Hummingbird
import HummingbirdCore
import PlazaCore

/// `?limit=&cursor=` of every list endpoint.
struct Paging: Sendable {
    static let defaultLimit = 20
    static let maximumLimit = 100

    var limit: Int
    var cursor: String?

    init(_ uri: URI) throws {
        let query = uri.queryParameters
        cursor = query.get("cursor").flatMap { $0.isEmpty ? nil : $0 }
        guard let text = query.get("limit") else {
            limit = Self.defaultLimit
            return
        }
        guard let value = Int(text), (1...Self.maximumLimit).contains(value) else {
            throw PlazaError.validation(
                field: "limit",
                say("Use a whole number from 1 to {max}.", ["max": String(Self.maximumLimit)])
            )
        }
        limit = value
    }
}
