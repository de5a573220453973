import Foundation

/// An app password: HTTP Basic credentials for a tracker app such as OwnTracks. The secret is shown once.
public struct AppPassword: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// Present only in the answer to its creation.
    public var password: String?

    public init(id: UUID, name: String, createdAt: Date, lastUsedAt: Date? = nil, password: String? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.password = password
    }
}

/// `POST /v1/me/app-passwords`.
public struct AppPasswordRequest: Codable, Sendable, Hashable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}
