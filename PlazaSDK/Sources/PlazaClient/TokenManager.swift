import Foundation
import PlazaCore

/// Hands out a fresh access token, refreshing when it is about to expire or the server refused it.
/// Only one refresh is in flight at a time: callers that need one meanwhile wait for the same result,
/// because a refresh token works once and a second concurrent refresh would revoke the session.
actor TokenManager {
    let store: any TokenStore
    private var refreshing: Task<Tokens, any Error>?

    init(store: any TokenStore) {
        self.store = store
    }

    /// A token valid for at least a little longer, or `nil` when signed out.
    func validAccessToken(refresh: @escaping @Sendable (String) async throws -> Tokens) async throws -> String? {
        if let refreshing { return try await refreshing.value.accessToken }
        guard let tokens = await store.load() else { return nil }
        if tokens.accessTokenExpiresAt.timeIntervalSinceNow > 30 { return tokens.accessToken }
        return try await self.refresh(failedToken: tokens.accessToken, using: refresh)?.accessToken
    }

    /// Refreshes after `failedToken` was refused, unless another caller already did.
    func refresh(
        failedToken: String,
        using refresh: @escaping @Sendable (String) async throws -> Tokens
    ) async throws -> Tokens? {
        if let refreshing { return try await refreshing.value }
        guard let tokens = await store.load() else { return nil }
        if tokens.accessToken != failedToken { return tokens }
        let task = Task { try await refresh(tokens.refreshToken) }
        refreshing = task
        defer { refreshing = nil }
        do {
            let fresh = try await task.value
            await store.save(fresh)
            return fresh
        } catch PlazaClientError.problem(let problem) where problem.status == 401 {
            // The refresh token was refused: the session is over.
            await store.save(nil)
            return nil
        }
    }

    func save(_ tokens: Tokens?) async {
        await store.save(tokens)
    }
}
