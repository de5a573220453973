import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// App passwords: long random secrets for apps that speak HTTP Basic only (OwnTracks). They are checked by
/// keyed hash, not bcrypt: they are machine-generated with 192 bits of entropy, and trackers post often.
extension AccountService {
    var appPasswordAddressRule: RateLimiter.Rule {
        .init(bucket: "app-password-address", limit: limits.loginFailuresPerAddress)
    }

    func appPasswords(_ identity: Identity) async throws -> [AppPassword] {
        try await AppPasswordStore().list(user: identity.user.id, on: database.sql)
    }

    /// Creates one; the answer is the only time the secret is shown. Under an `Idempotency-Key` the record is kept for
    /// replays without the secret (a replay shows the app password, not its secret again), written with the password.
    func createAppPassword(
        _ identity: Identity,
        _ request: AppPasswordRequest,
        claim: IdempotencyClaim?,
        ownTracksDevice: String? = nil,
        now: Date = Date()
    ) async throws
        -> AppPassword
    {
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = ShownText.problem(name, length: 1...60) { throw PlazaError.validation(field: "name", problem) }
        let secret = Secrets.randomToken(bytes: 24)
        let (id, user, hash) = (UUID(), identity.user.id, secrets.hash("app:\(secret)"))
        try await database.transaction { db in
            let store = AppPasswordStore()
            guard try await store.list(user: user, on: db).count < AppPasswordStore.maximumPerUser else {
                throw PlazaError.conflict(
                    field: nil,
                    say(
                        "You have {count} app passwords already; delete one first.",
                        ["count": String(AppPasswordStore.maximumPerUser)]
                    )
                )
            }
            try await store.insert(
                id: id,
                user: user,
                name: name,
                secretHash: hash,
                ownTracksDevice: ownTracksDevice,
                now: now,
                on: db
            )
            if let claim {
                try await idempotency.record(
                    AppPassword(id: id, name: name, createdAt: now),
                    status: 201,
                    claim: claim,
                    on: db
                )
            }
        }
        return AppPassword(id: id, name: name, createdAt: now, password: secret)
    }

    func deleteAppPassword(_ identity: Identity, id: UUID) async throws {
        guard try await AppPasswordStore().delete(id: id, user: identity.user.id, on: database.sql) else {
            throw PlazaError.notFound("app password")
        }
    }

    /// The account behind `Authorization: Basic` with a username and one of its app passwords, and that app password.
    func identity(
        basic header: String,
        client: String,
        now: Date = Date()
    ) async throws -> (Identity, appPassword: UUID) {
        let unauthorized: PlazaError = {
            var error = PlazaError(
                .unauthorized,
                .invalidCredentials,
                phrase("The username or app password is wrong, or the app password was revoked."),
                detail: phrase("Set the app up again from Places, Share in the background.")
            )
            error.headers[.wwwAuthenticate] = "Basic realm=\"Plaza\", charset=\"UTF-8\""
            return error
        }()
        guard header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { throw unauthorized }
        try await limiter.check(appPasswordAddressRule, client, now: now)
        let username = AccountRules.normalizedUsername(String(text[..<colon]))
        let secret = String(text[text.index(after: colon)...])
        guard
            let owner = try await AppPasswordStore().owner(
                secretHash: secrets.hash("app:\(secret)"),
                now: now,
                on: database.sql
            ),
            let user = try await accounts.user(id: owner.user, on: database.sql), user.username == username
        else {
            try await limiter.record(appPasswordAddressRule, client, now: now)
            throw unauthorized
        }
        if let suspension = try await accounts.suspension(of: user.id, on: database.sql) {
            throw PlazaError.accountSuspended(reason: suspension.reason)
        }
        return (Identity(user: user, sessionID: owner.user), owner.id)
    }
}
