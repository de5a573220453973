import Foundation

/// The tokens of a signed-in client.
public struct Tokens: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    /// When `accessToken` stops working (the client refreshes a little before).
    public var accessTokenExpiresAt: Date

    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
    }
}

/// Where the client keeps its tokens between launches: `KeychainTokenStore` by default on Apple platforms,
/// `InMemoryTokenStore` elsewhere; conform your own type to keep them somewhere else.
public protocol TokenStore: Sendable {
    func load() async -> Tokens?
    /// `nil` signs out: forget the tokens.
    func save(_ tokens: Tokens?) async
    /// The device token of the last log-in on this device; it outlives log-outs (see `LoginRequest.deviceToken`).
    func loadDeviceToken() async -> String?
    func saveDeviceToken(_ token: String) async
}

extension TokenStore {
    /// A store that keeps no device token: log-ins are then slowed down like any unknown device's while someone
    /// else guesses the account's password.
    public func loadDeviceToken() async -> String? { nil }
    public func saveDeviceToken(_ token: String) async {}
}

/// Tokens in memory, gone when the process ends.
public actor InMemoryTokenStore: TokenStore {
    private var tokens: Tokens?
    private var deviceToken: String?

    public init(_ tokens: Tokens? = nil) {
        self.tokens = tokens
    }

    public func load() async -> Tokens? { tokens }
    public func save(_ tokens: Tokens?) async { self.tokens = tokens }
    public func loadDeviceToken() async -> String? { deviceToken }
    public func saveDeviceToken(_ token: String) async { deviceToken = token }
}
