import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Log-in, tokens and sessions.
extension AccountService {
    /// Checks the password, counting failures per client address and per account. The answer is the same
    /// whether the account does not exist or the password is wrong, and takes as long.
    ///
    /// Per account, failures slow further attempts down (`RateLimiter.backOff`) instead of locking the account, and a
    /// device the account signed in on before (`deviceToken`, OWASP's device cookie) is not slowed by others' failures:
    /// it has a failure count of its own, and past the limit its token stops counting as known. Returns the user and a
    /// device token for the next log-in.
    func checkCredentials(
        login raw: String,
        password: String,
        client: String,
        deviceToken: String? = nil,
        now: Date = Date()
    ) async throws
        -> (user: UserRecord, deviceToken: String, knownDevice: Bool)
    {
        let login = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard !login.isEmpty, !password.isEmpty else {
            throw PlazaError.validation(
                [
                    FieldError(field: "login", message: phrase("Enter your e-mail or username.")),
                    FieldError(field: "password", message: phrase("Enter your password.")),
                ]
                .filter { ($0.field == "login" && login.isEmpty) || ($0.field == "password" && password.isEmpty) }
            )
        }
        try await limiter.check(loginAddressRule, client, now: now)
        let user = try await accounts.user(login: login, on: database.sql)
        let subject = user?.id.uuidString ?? login
        let device = user.flatMap { user in deviceToken.flatMap { knownDevice($0, of: user) } }
        if let device {
            try await limiter.check(loginDeviceRule, device, now: now)
        } else {
            try await limiter.backOff(
                loginAccountRule,
                subject,
                base: limits.loginBackOffBase,
                maximum: Self.maximumBackOff,
                now: now
            )
        }
        // An unverified account cannot log in (for everyone): a sign-up with a taken address creates none, so a log-in
        // that worked only for a free address would tell the two apart.
        guard try await passwords.verify(password, hash: user?.passwordHash), let user, user.emailVerified else {
            try await limiter.record(loginAddressRule, client, now: now)
            if let device {
                try await limiter.record(loginDeviceRule, device, now: now)
            } else {
                try await limiter.record(loginAccountRule, subject, now: now)
            }
            throw PlazaError.invalidCredentials
        }
        if let device {
            try await limiter.reset(loginDeviceRule, device)
        } else {
            try await limiter.reset(loginAccountRule, subject)
        }
        if let suspension = try await accounts.suspension(of: user.id, on: database.sql) {
            throw PlazaError.accountSuspended(reason: suspension.reason)
        }
        return (
            user,
            device.map { makeDeviceToken(nonce: $0, for: user) }
                ?? makeDeviceToken(nonce: Secrets.randomToken(bytes: 16), for: user),
            device != nil
        )
    }

    /// The longest wait between two log-in attempts of one account from unknown devices.
    static let maximumBackOff: TimeInterval = 15 * 60
    var loginDeviceRule: RateLimiter.Rule { .init(bucket: "login-device", limit: limits.loginFailuresPerAccount) }

    /// `<nonce>.<keyed hash of the account, its password hash and the nonce>`: proves an earlier log-in of this account
    /// on the device. A new password (a reset after a theft) makes every earlier device token unknown.
    func makeDeviceToken(nonce: String, for user: UserRecord) -> String {
        "\(nonce).\(secrets.hash("device:\(user.id):\(user.passwordHash):\(nonce)"))"
    }

    /// The token's nonce when it was made for `user` with the password it has now, else nil (an unknown device).
    func knownDevice(_ token: String, of user: UserRecord) -> String? {
        let nonce = String(token.prefix { $0 != "." })
        guard nonce.utf8.count <= 64, Secrets.constantTimeEquals(token, makeDeviceToken(nonce: nonce, for: user)) else {
            return nil
        }
        return nonce
    }

    /// API log-in: a new session with an access and a refresh token.
    func login(
        _ request: LoginRequest,
        client: String,
        userAgent: String?,
        now: Date = Date()
    ) async throws -> TokenResponse {
        let (user, deviceToken, known) = try await checkCredentials(
            login: request.login,
            password: request.password,
            client: client,
            deviceToken: request.deviceToken,
            now: now
        )
        let device = Self.deviceName(request.device, userAgent: userAgent)
        let refresh = Secrets.randomToken()
        let (sessions, secrets, lifetime) = (sessions, secrets, limits.sessionLifetime)
        let sessionID = try await transaction(alerting: known ? nil : (user.id, device)) { db in
            let id = try await sessions.create(
                userID: user.id,
                kind: .api,
                device: device,
                now: now,
                expires: now.addingTimeInterval(lifetime),
                on: db
            )
            try await sessions.addRefreshToken(hash: secrets.hash(refresh), sessionID: id, now: now, on: db)
            return id
        }
        var response = try await tokenResponse(user: user, sessionID: sessionID, refreshToken: refresh, now: now)
        response.deviceToken = deviceToken
        return response
    }

    /// Web log-in: a cookie session. Returns the session cookie's value and the device cookie's.
    func webLogin(
        login: String,
        password: String,
        client: String,
        userAgent: String?,
        deviceToken: String?,
        now: Date = Date()
    ) async throws
        -> (session: String, device: String)
    {
        let (user, device, known) = try await checkCredentials(
            login: login,
            password: password,
            client: client,
            deviceToken: deviceToken,
            now: now
        )
        return (try await startWebSession(for: user, userAgent: userAgent, newDevice: !known, now: now), device)
    }

    /// `newDevice`: the browser never signed in to this account before, so the person hears of it (push, e-mail).
    func startWebSession(
        for user: UserRecord,
        userAgent: String?,
        newDevice: Bool = false,
        now: Date = Date()
    ) async throws -> String {
        let token = Secrets.randomToken()
        let (sessions, hash, lifetime) = (sessions, secrets.hash(token), limits.sessionLifetime)
        let device = Self.deviceName(nil, userAgent: userAgent)
        _ = try await transaction(alerting: newDevice ? (user.id, device) : nil) { db in
            try await sessions.create(
                userID: user.id,
                kind: .web,
                device: device,
                webTokenHash: hash,
                now: now,
                expires: now.addingTimeInterval(lifetime),
                on: db
            )
        }
        return token
    }

    /// Swaps a refresh token for a new pair. A token used twice revokes its session: whoever holds the
    /// other copy is signed out too.
    func refresh(_ token: String, now: Date = Date()) async throws -> TokenResponse {
        let newToken = Secrets.randomToken()
        let (sessions, secrets, lifetime) = (sessions, secrets, limits.sessionLifetime)
        let hash = secrets.hash(token)
        let outcome = try await database.transaction { db -> SessionStore.Rotation in
            let outcome = try await sessions.rotate(hash: hash, now: now, lifetime: lifetime, on: db)
            switch outcome {
            case .rotated(let sessionID, _):
                try await sessions.addRefreshToken(hash: secrets.hash(newToken), sessionID: sessionID, now: now, on: db)
            case .reused(let sessionID):
                try await sessions.revoke(sessionID: sessionID, now: now, on: db)
            case .refused:
                break
            }
            return outcome
        }
        if case .reused = outcome { identities.clear() }
        guard case .rotated(let sessionID, let userID) = outcome,
            let user = try await sessions.activeUser(sessionID: sessionID, now: now, on: database.sql),
            user.id == userID
        else { throw PlazaError.invalidToken }
        return try await tokenResponse(user: user, sessionID: sessionID, refreshToken: newToken, now: now)
    }

    private func tokenResponse(
        user: UserRecord,
        sessionID: UUID,
        refreshToken: String,
        now: Date
    ) async throws -> TokenResponse {
        TokenResponse(
            accessToken: try await tokens.issue(userID: user.id, sessionID: sessionID, now: now),
            refreshToken: refreshToken,
            expiresIn: Int(tokens.lifetime),
            user: user.dto
        )
    }

    /// The identity behind a bearer token, or `nil` when the token is bad or its session is over.
    func identity(bearer token: String, now: Date = Date()) async throws -> Identity? {
        let (known, generation) = identities.identity(for: token, now: now)
        if let known { return known }
        guard let (userID, sessionID, expires) = await tokens.verify(token) else { return nil }
        let (sessions, database) = (sessions, database)
        // The runner serves every batch of its lane, so the time comes from the jobs, not from this request.
        let live = try await sessionReads.submit(SessionRead(id: sessionID, now: now)) { reads in
            do {
                let found = try await sessions.liveSessions(
                    ids: reads.map(\.id),
                    now: reads.map(\.now).max() ?? Date(),
                    on: database.sql
                )
                return reads.map { .success(found[$0.id]) }
            } catch {
                return reads.map { _ in .failure(error) }
            }
        }
        guard let live, live.user.id == userID else { return nil }
        // The session read says when it was last seen: no write at all on most requests.
        if now.timeIntervalSince(live.lastSeenAt) > 60 {
            try await sessions.touch(sessionID: sessionID, now: now, on: database.sql)
        }
        let identity = Identity(user: live.user, sessionID: sessionID)
        identities.store(identity, for: token, tokenExpires: expires, now: now, generation: generation)
        return identity
    }

    /// The identity behind a web session cookie.
    func identity(cookie token: String, now: Date = Date()) async throws -> Identity? {
        guard
            let (sessionID, user, lastSeenAt) = try await sessions.webSession(
                tokenHash: secrets.hash(token),
                now: now,
                on: database.sql
            )
        else {
            return nil
        }
        if now.timeIntervalSince(lastSeenAt) > 60 {
            try await sessions.touch(sessionID: sessionID, now: now, on: database.sql)
        }
        return Identity(user: user, sessionID: sessionID)
    }

    func logout(_ identity: Identity, now: Date = Date()) async throws {
        try await sessions.revoke(sessionID: identity.sessionID, now: now, on: database.sql)
        identities.clear()
    }

    func listSessions(
        _ identity: Identity,
        limit: Int,
        cursor: String?,
        now: Date = Date()
    ) async throws -> Page<SessionInfo> {
        let after = try cursor.map(RowCursor.decode)
        let items = try await sessions.list(
            userID: identity.user.id,
            current: identity.sessionID,
            now: now,
            limit: limit + 1,
            after: after?.id,
            on: database.sql
        )
        let page = Array(items.prefix(limit))
        let next = items.count > limit ? page.last.map { RowCursor(id: $0.id).encoded } : nil
        return Page(items: page, nextCursor: next)
    }

    /// Revokes one of the caller's sessions; another user's session id is "not found", never "forbidden".
    func revokeSession(_ identity: Identity, id: UUID, now: Date = Date()) async throws {
        defer { identities.clear() }
        guard try await sessions.revoke(sessionID: id, userID: identity.user.id, now: now, on: database.sql) else {
            throw PlazaError.notFound("session")
        }
    }
}

extension AccountService {
    /// A transaction that publishes `messages` with its commit (through the bus, whose recorders file them).
    func transaction<T: Sendable>(
        publishing messages: [FeedMessage],
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        guard let events, !messages.isEmpty else { return try await database.transaction(body) }
        return try await events.transaction { db in (try await body(db), messages) }
    }

    /// A transaction that, for a sign-in on a device never seen before by an account that signed in before, publishes
    /// the account's alert with its commit.
    func transaction<T: Sendable>(
        alerting newSignIn: (user: UUID, device: String)?,
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        guard let newSignIn, let events else { return try await database.transaction(body) }
        let sessions = sessions
        return try await events.transaction { db in
            let before = try await sessions.hasAny(userID: newSignIn.user, on: db)
            let result = try await body(db)
            return (
                result,
                before ? [Self.newSignInAlert(user: newSignIn.user, device: newSignIn.device)] : []
            )
        }
    }
}
