import Foundation
import PlazaCore

/// Hands out a fresh access token, refreshing when it is about to expire or the server refused it.
/// Only one refresh is in flight at a time: callers that need one meanwhile wait for the same result,
/// because a refresh token works once and a second concurrent refresh would revoke the session.
actor TokenManager {
    let store: any TokenStore
    private var refreshing: Task<Tokens?, any Error>?

    init(store: any TokenStore) {
        self.store = store
    }

    /// A token valid for at least a little longer, or `nil` when signed out.
    func validAccessToken(refresh: @escaping @Sendable (String) async throws -> Tokens) async throws -> String? {
        if let refreshing { return try await refreshing.value?.accessToken }
        guard let tokens = await store.load() else { return nil }
        if tokens.accessTokenExpiresAt.timeIntervalSinceNow > 30 { return tokens.accessToken }
        return try await self.refresh(failedToken: tokens.accessToken, using: refresh)?.accessToken
    }

    /// Refreshes after `failedToken` was refused, unless another caller already did.
    ///
    /// The refresh in flight is set before this actor awaits anything: a caller that came in while another was
    /// still reading the store would otherwise send a second refresh with the same token, and the server revokes
    /// the session when a refresh token comes twice.
    func refresh(
        failedToken: String,
        using refresh: @escaping @Sendable (String) async throws -> Tokens
    ) async throws -> Tokens? {
        if let refreshing { return try await refreshing.value }
        let store = store
        let task = Task { () async throws -> Tokens? in
            guard let tokens = await store.load() else { return nil }
            if tokens.accessToken != failedToken { return tokens }
            do {
                let fresh = try await refresh(tokens.refreshToken)
                await store.save(fresh)
                return fresh
            } catch PlazaClientError.problem(let problem) where problem.status == 401 {
                // The refresh token was refused: the session is over.
                await store.save(nil)
                return nil
            }
        }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value
    }

    func save(_ tokens: Tokens?) async {
        await store.save(tokens)
    }
}
