import Foundation
import HTTPTypes
import Logging
import PlazaCore
import SQLKit

/// The accounts rules: sign-up, codes, log-in, tokens and sessions. Routes and pages call this;
/// all SQL is in the stores.
package struct AccountService: Sendable {
    let database: PlazaDatabase
    let secrets: Secrets
    let tokens: AccessTokens
    let passwords: PasswordHasher
    let limiter: RateLimiter
    /// Records answers that must not be replayed whole (an app password's secret).
    let idempotency: IdempotencyStore
    let limits: Limits
    let baseURL: String
    /// Tells the outbox that mail was committed.
    let mailQueued: @Sendable () -> Void
    /// The languages this Plaza offers, which a user's `language` must name (see `Catalogue`).
    let languages: LanguageList
    /// The words of a recipient's language (their `language`, else the operator's) for the mails it sends.
    var words: @Sendable (String?) -> Catalogue.Words = { _ in Catalogue.englishWords }
    /// Other domains' reasons to keep an account, checked in the transaction that would erase it (money in the
    /// wallet, a business with no other owner).
    var accountErasureCheck: @Sendable (UserRecord, any SQLDatabase) async throws -> Void = { _, _ in }
    /// Erases what other domains hold about an account that was just deleted.
    var accountErased: @Sendable (UserRecord) async throws -> Void = { _ in }
    /// Tells other domains that what others see of an account (its display name) changed.
    var accountChanged: @Sendable (UserRecord) async throws -> Void = { _ in }
    /// Where sign-ins publish their alerts (a new device); without it (tools, benches) none are published.
    var events: EventBus?
    /// Identities behind recently verified access tokens (cleared by every account or session change).
    let identities = IdentityCache()
    /// Bearer tokens not in `identities` have their sessions read together: requests that arrive while one read
    /// is running share the next one (one statement for many requests under load).
    let sessionReads = Batcher<SessionRead, LiveSession?>(capacity: 200, lanes: 2)

    let accounts = AccountStore()
    let sessions = SessionStore()
    let codes = CodeStore()
    let outbox = OutboxStore()

    static let loginPerAccount = "login-account"
    static let loginPerAddress = "login-address"

    var loginAccountRule: RateLimiter.Rule {
        .init(bucket: Self.loginPerAccount, limit: limits.loginFailuresPerAccount)
    }
    var loginAddressRule: RateLimiter.Rule {
        .init(bucket: Self.loginPerAddress, limit: limits.loginFailuresPerAddress)
    }
    var codeAccountRule: RateLimiter.Rule { .init(bucket: "code-account", limit: limits.loginFailuresPerAccount) }
    var codeAddressRule: RateLimiter.Rule { .init(bucket: "code-address", limit: limits.loginFailuresPerAddress) }
    var mailAccountRule: RateLimiter.Rule { .init(bucket: "mail-account", limit: limits.codeMailsPerAccount) }
    var mailAddressRule: RateLimiter.Rule { .init(bucket: "mail-address", limit: limits.codeMailsPerAddress) }
    var signupAddressRule: RateLimiter.Rule { .init(bucket: "signup-address", limit: limits.signupsPerAddress) }

    var codeMinutes: Int { Int(limits.codeLifetime / 60) }
}
