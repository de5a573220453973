import Foundation
import HTTPTypes
import Logging
import PlazaCore
import SQLKit

/// The accounts rules: sign-up, codes, log-in, tokens and sessions. Routes and pages call this;
/// all SQL is in the stores.
struct AccountService: Sendable {
    let database: PlazaDatabase
    let secrets: Secrets
    let tokens: AccessTokens
    let passwords: PasswordHasher
    let limiter: RateLimiter
    let limits: Limits
    let baseURL: String
    /// Tells the outbox that mail was committed.
    let mailQueued: @Sendable () -> Void

    let accounts = AccountStore()
    let sessions = SessionStore()
    let codes = CodeStore()
    let outbox = OutboxStore()

    static let loginPerAccount = "login-account"
    static let loginPerAddress = "login-address"

    var loginAccountRule: RateLimiter.Rule { .init(bucket: Self.loginPerAccount, limit: limits.loginFailuresPerAccount) }
    var loginAddressRule: RateLimiter.Rule { .init(bucket: Self.loginPerAddress, limit: limits.loginFailuresPerAddress) }
    var codeAccountRule: RateLimiter.Rule { .init(bucket: "code-account", limit: limits.loginFailuresPerAccount) }
    var codeAddressRule: RateLimiter.Rule { .init(bucket: "code-address", limit: limits.loginFailuresPerAddress) }
    var mailAccountRule: RateLimiter.Rule { .init(bucket: "mail-account", limit: limits.codeMailsPerAccount) }
    var mailAddressRule: RateLimiter.Rule { .init(bucket: "mail-address", limit: limits.codeMailsPerAddress) }
    var signupAddressRule: RateLimiter.Rule { .init(bucket: "signup-address", limit: limits.signupsPerAddress) }

    var codeMinutes: Int { Int(limits.codeLifetime / 60) }

    // MARK: Sign-up and verification

    /// Creates the account and mails a code. An address that already has an account gets the same answer
    /// (and its owner a warning mail), so sign-up does not tell who is registered.
    func register(_ request: RegisterRequest, client: String, now: Date = Date()) async throws -> User {
        var errors = request.fieldErrors(now: now)
        if !errors.contains(where: { $0.field == "password" }), let problem = passwords.problem(request.password) {
            errors.append(FieldError(field: "password", message: problem))
        }
        guard errors.isEmpty else { throw PlazaError.validation(errors) }
        try await limiter.hit(signupAddressRule, client, now: now)

        let email = AccountRules.normalizedEmail(request.email)
        let username = AccountRules.normalizedUsername(request.username)
        let hash = try await passwords.hash(request.password)
        let record = UserRecord(
            email: email, username: username, displayName: request.displayName.trimmingCharacters(in: .whitespacesAndNewlines),
            passwordHash: hash, role: request.role, birthDate: request.birthDate, gender: request.gender, student: request.student ?? false,
            now: now)
        let code = Secrets.sixDigitCode()
        let (accounts, codes, outbox, secrets, limits, baseURL) = (accounts, codes, outbox, secrets, limits, baseURL)
        try await database.transaction { db in
            if try await accounts.usernameExists(username, on: db) {
                throw PlazaError.conflict(field: "username", "This username is taken.")
            }
            if try await accounts.emailExists(email, on: db) {
                try await outbox.enqueue(AccountMails.alreadyRegistered(to: email, baseURL: baseURL), on: db, now: now)
                return
            }
            try await accounts.insert(record, on: db)
            try await codes.issue(
                userID: record.id, purpose: .verifyEmail, email: email, codeHash: secrets.hash(code), now: now,
                expires: now.addingTimeInterval(limits.codeLifetime), on: db)
            try await outbox.enqueue(
                AccountMails.verificationCode(to: email, code: code, minutes: Int(limits.codeLifetime / 60), baseURL: baseURL), on: db, now: now)
        }
        mailQueued()
        return record.dto
    }

    /// Marks the address verified when the code is right.
    func verifyEmail(_ request: VerifyEmailRequest, client: String, now: Date = Date()) async throws -> User {
        let email = AccountRules.normalizedEmail(request.email)
        var user = try await checkCode(email: email, code: request.code, purpose: .verifyEmail, client: client, now: now)
        user.email = email
        user.emailVerified = true
        let (accounts, verified) = (self.accounts, user)
        try await database.transaction { db in try await accounts.update(verified, on: db, now: now) }
        return verified.dto
    }

    /// Sends a new verification code to an unverified address; answers the same whatever the address.
    func resendCode(email raw: String, client: String, now: Date = Date()) async throws {
        let email = AccountRules.normalizedEmail(raw)
        try await limitCodeMail(email: email, client: client, now: now)
        guard let user = try await accounts.user(email: email, on: database.sql), !user.emailVerified else { return }
        try await mailCode(to: user, purpose: .verifyEmail, now: now)
    }

    /// Mails a reset code when the address has an account; answers the same either way.
    func forgotPassword(email raw: String, client: String, now: Date = Date()) async throws {
        let email = AccountRules.normalizedEmail(raw)
        try await limitCodeMail(email: email, client: client, now: now)
        guard let user = try await accounts.user(email: email, on: database.sql) else { return }
        try await mailCode(to: user, purpose: .resetPassword, now: now)
    }

    /// Sets a new password with a reset code; every session of the account is signed out.
    func resetPassword(_ request: ResetPasswordRequest, client: String, now: Date = Date()) async throws {
        if let problem = passwords.problem(request.newPassword) { throw PlazaError.validation(field: "newPassword", problem) }
        let email = AccountRules.normalizedEmail(request.email)
        var user = try await checkCode(email: email, code: request.code, purpose: .resetPassword, client: client, now: now)
        user.passwordHash = try await passwords.hash(request.newPassword)
        // Receiving the code proves the address, too.
        user.emailVerified = true
        let (accounts, sessions, outbox, updated) = (accounts, sessions, outbox, user)
        try await database.transaction { db in
            try await accounts.update(updated, on: db, now: now)
            try await sessions.revokeAll(userID: updated.id, except: nil, now: now, on: db)
            try await outbox.enqueue(AccountMails.passwordChanged(to: updated.email), on: db, now: now)
        }
        try await limiter.reset(loginAccountRule, updated.id.uuidString)
        mailQueued()
    }

    private func limitCodeMail(email: String, client: String, now: Date) async throws {
        guard AccountRules.emailProblem(email) == nil else { throw PlazaError.validation(field: "email", "Enter a valid e-mail address.") }
        try await limiter.check(mailAccountRule, email, now: now)
        try await limiter.hit(mailAddressRule, client, now: now)
        try await limiter.record(mailAccountRule, email, now: now)
    }

    private func mailCode(to user: UserRecord, purpose: CodeStore.Purpose, now: Date) async throws {
        let code = Secrets.sixDigitCode()
        let (codes, outbox, secrets, limits, baseURL) = (codes, outbox, secrets, limits, baseURL)
        try await database.transaction { db in
            try await codes.issue(
                userID: user.id, purpose: purpose, email: user.email, codeHash: secrets.hash(code), now: now,
                expires: now.addingTimeInterval(limits.codeLifetime), on: db)
            let minutes = Int(limits.codeLifetime / 60)
            let mail =
                purpose == .verifyEmail
                ? AccountMails.verificationCode(to: user.email, code: code, minutes: minutes, baseURL: baseURL)
                : AccountMails.resetCode(to: user.email, code: code, minutes: minutes, baseURL: baseURL)
            try await outbox.enqueue(mail, on: db, now: now)
        }
        mailQueued()
    }

    /// The account whose newest code of `purpose` is `code`. Wrong, expired, used-up and unknown all
    /// answer alike, and count against the address and the account.
    private func checkCode(email: String, code: String, purpose: CodeStore.Purpose, client: String, now: Date) async throws -> UserRecord {
        guard AccountRules.isCodeShaped(code) else { throw PlazaError.validation(field: "code", "Enter the six digits from the e-mail.") }
        try await limiter.check(codeAddressRule, client, now: now)
        try await limiter.check(codeAccountRule, email, now: now)
        let invalid = PlazaError(
            .badRequest, .invalidCode, "The code is wrong or has expired.", detail: "Ask for a new code if this one is older than \(codeMinutes) minutes.",
            errors: [FieldError(field: "code", message: "The code is wrong or has expired.")])
        let (accounts, codes, secrets, limits) = (accounts, codes, secrets, limits)
        let user: UserRecord? = try await database.transaction { db in
            guard let user = try await accounts.user(email: email, on: db) else { return nil }
            let outcome = try await codes.consume(
                userID: user.id, purpose: purpose, codeHash: secrets.hash(code), maxAttempts: limits.codeAttempts, now: now, on: db)
            guard case .accepted = outcome else { return nil }
            return user
        }
        guard let user else {
            try await limiter.record(codeAddressRule, client, now: now)
            try await limiter.record(codeAccountRule, email, now: now)
            throw invalid
        }
        return user
    }

    // MARK: Log-in, tokens, sessions

    /// Checks the password, counting failures per account and per client address. The answer is the same
    /// whether the account does not exist or the password is wrong, and takes as long.
    func checkCredentials(login raw: String, password: String, client: String, now: Date = Date()) async throws -> UserRecord {
        let login = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard !login.isEmpty, !password.isEmpty else {
            throw PlazaError.validation(
                [FieldError(field: "login", message: "Enter your e-mail or username."), FieldError(field: "password", message: "Enter your password.")]
                    .filter { ($0.field == "login" && login.isEmpty) || ($0.field == "password" && password.isEmpty) })
        }
        try await limiter.check(loginAddressRule, client, now: now)
        let user = try await accounts.user(login: login, on: database.sql)
        let subject = user?.id.uuidString ?? login
        try await limiter.check(loginAccountRule, subject, now: now)
        guard try await passwords.verify(password, hash: user?.passwordHash), let user else {
            try await limiter.record(loginAddressRule, client, now: now)
            try await limiter.record(loginAccountRule, subject, now: now)
            throw PlazaError.invalidCredentials
        }
        try await limiter.reset(loginAccountRule, subject)
        return user
    }

    /// API log-in: a new session with an access and a refresh token.
    func login(_ request: LoginRequest, client: String, userAgent: String?, now: Date = Date()) async throws -> TokenResponse {
        let user = try await checkCredentials(login: request.login, password: request.password, client: client, now: now)
        let device = Self.deviceName(request.device, userAgent: userAgent)
        let refresh = Secrets.randomToken()
        let (sessions, secrets, lifetime) = (sessions, secrets, limits.sessionLifetime)
        let sessionID = try await database.transaction { db in
            let id = try await sessions.create(userID: user.id, kind: .api, device: device, now: now, expires: now.addingTimeInterval(lifetime), on: db)
            try await sessions.addRefreshToken(hash: secrets.hash(refresh), sessionID: id, now: now, on: db)
            return id
        }
        return try await tokenResponse(user: user, sessionID: sessionID, refreshToken: refresh, now: now)
    }

    /// Web log-in: a cookie session. Returns the cookie value.
    func webLogin(login: String, password: String, client: String, userAgent: String?, now: Date = Date()) async throws -> String {
        let user = try await checkCredentials(login: login, password: password, client: client, now: now)
        return try await startWebSession(for: user, userAgent: userAgent, now: now)
    }

    func startWebSession(for user: UserRecord, userAgent: String?, now: Date = Date()) async throws -> String {
        let token = Secrets.randomToken()
        let (sessions, hash, lifetime) = (sessions, secrets.hash(token), limits.sessionLifetime)
        let device = Self.deviceName(nil, userAgent: userAgent)
        _ = try await database.transaction { db in
            try await sessions.create(
                userID: user.id, kind: .web, device: device, webTokenHash: hash, now: now, expires: now.addingTimeInterval(lifetime), on: db)
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
        guard case .rotated(let sessionID, let userID) = outcome,
            let user = try await sessions.activeUser(sessionID: sessionID, now: now, on: database.sql), user.id == userID
        else { throw PlazaError.invalidToken }
        return try await tokenResponse(user: user, sessionID: sessionID, refreshToken: newToken, now: now)
    }

    private func tokenResponse(user: UserRecord, sessionID: UUID, refreshToken: String, now: Date) async throws -> TokenResponse {
        TokenResponse(
            accessToken: try await tokens.issue(userID: user.id, sessionID: sessionID, now: now), refreshToken: refreshToken,
            expiresIn: Int(tokens.lifetime), user: user.dto)
    }

    /// The identity behind a bearer token, or `nil` when the token is bad or its session is over.
    func identity(bearer token: String, now: Date = Date()) async throws -> Identity? {
        guard let (userID, sessionID) = await tokens.verify(token),
            let user = try await sessions.activeUser(sessionID: sessionID, now: now, on: database.sql), user.id == userID
        else { return nil }
        try await sessions.touch(sessionID: sessionID, now: now, on: database.sql)
        return Identity(user: user, sessionID: sessionID)
    }

    /// The identity behind a web session cookie.
    func identity(cookie token: String, now: Date = Date()) async throws -> Identity? {
        guard let (sessionID, user) = try await sessions.webSession(tokenHash: secrets.hash(token), now: now, on: database.sql) else { return nil }
        try await sessions.touch(sessionID: sessionID, now: now, on: database.sql)
        return Identity(user: user, sessionID: sessionID)
    }

    func logout(_ identity: Identity, now: Date = Date()) async throws {
        try await sessions.revoke(sessionID: identity.sessionID, now: now, on: database.sql)
    }

    func listSessions(_ identity: Identity, limit: Int, cursor: String?, now: Date = Date()) async throws -> Page<SessionInfo> {
        let after = try cursor.map(SessionCursor.decode)
        let items = try await sessions.list(
            userID: identity.user.id, current: identity.sessionID, now: now, limit: limit + 1, after: after?.id,
            on: database.sql)
        let page = Array(items.prefix(limit))
        let next = items.count > limit ? page.last.map { SessionCursor(id: $0.id).encoded } : nil
        return Page(items: page, nextCursor: next)
    }

    /// Revokes one of the caller's sessions; another user's session id is "not found", never "forbidden".
    func revokeSession(_ identity: Identity, id: UUID, now: Date = Date()) async throws {
        guard try await sessions.revoke(sessionID: id, userID: identity.user.id, now: now, on: database.sql) else {
            throw PlazaError.notFound("session")
        }
    }

    // MARK: Profile

    func updateProfile(_ identity: Identity, _ update: ProfileUpdate, now: Date = Date()) async throws -> User {
        let errors = update.fieldErrors(now: now)
        guard errors.isEmpty else { throw PlazaError.validation(errors) }
        var user = identity.user
        if let name = update.displayName { user.displayName = name.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let birthDate = update.birthDate { user.birthDate = birthDate.isEmpty ? nil : birthDate }
        if let gender = update.gender { user.gender = gender }
        if let student = update.student { user.student = student }
        let (accounts, updated) = (accounts, user)
        try await database.transaction { db in try await accounts.update(updated, on: db, now: now) }
        return user.dto
    }

    /// Changes the password after checking the current one; other sessions are signed out.
    func changePassword(_ identity: Identity, _ request: ChangePasswordRequest, client: String, now: Date = Date()) async throws {
        try await requirePassword(identity, request.currentPassword, field: "currentPassword", client: client, now: now)
        if let problem = passwords.problem(request.newPassword) { throw PlazaError.validation(field: "newPassword", problem) }
        var user = identity.user
        user.passwordHash = try await passwords.hash(request.newPassword)
        let (accounts, sessions, outbox, updated) = (accounts, sessions, outbox, user)
        try await database.transaction { db in
            try await accounts.update(updated, on: db, now: now)
            try await sessions.revokeAll(userID: updated.id, except: identity.sessionID, now: now, on: db)
            try await outbox.enqueue(AccountMails.passwordChanged(to: updated.email), on: db, now: now)
        }
        mailQueued()
    }

    /// Moves the account to a new address, which must be verified again with a mailed code.
    func changeEmail(_ identity: Identity, _ request: ChangeEmailRequest, client: String, now: Date = Date()) async throws -> User {
        let email = AccountRules.normalizedEmail(request.email)
        if let problem = AccountRules.emailProblem(email) { throw PlazaError.validation(field: "email", problem) }
        try await requirePassword(identity, request.password, field: "password", client: client, now: now)
        try await limiter.hit(mailAccountRule, email, now: now)
        var user = identity.user
        user.email = email
        user.emailVerified = false
        let code = Secrets.sixDigitCode()
        let (accounts, codes, outbox, secrets, limits, baseURL, updated) = (accounts, codes, outbox, secrets, limits, baseURL, user)
        try await database.transaction { db in
            if email != identity.user.email, try await accounts.emailExists(email, on: db) {
                throw PlazaError.conflict(field: "email", "Another account uses this address.")
            }
            try await accounts.update(updated, on: db, now: now)
            try await codes.issue(
                userID: updated.id, purpose: .verifyEmail, email: email, codeHash: secrets.hash(code), now: now,
                expires: now.addingTimeInterval(limits.codeLifetime), on: db)
            try await outbox.enqueue(
                AccountMails.verificationCode(to: email, code: code, minutes: Int(limits.codeLifetime / 60), baseURL: baseURL), on: db, now: now)
        }
        mailQueued()
        return user.dto
    }

    /// Erases the account's personal data and signs out everywhere.
    func deleteAccount(_ identity: Identity, password: String, client: String, now: Date = Date()) async throws {
        try await requirePassword(identity, password, field: "password", client: client, now: now)
        let (accounts, sessions) = (accounts, sessions)
        try await database.transaction { db in
            try await sessions.revokeAll(userID: identity.user.id, except: nil, now: now, on: db)
            try await accounts.erase(identity.user.id, on: db, now: now)
        }
    }

    /// Re-checks the password of a signed-in user for a sensitive change; failures count like log-in failures.
    private func requirePassword(_ identity: Identity, _ password: String, field: String, client: String, now: Date) async throws {
        let subject = identity.user.id.uuidString
        try await limiter.check(loginAccountRule, subject, now: now)
        guard try await passwords.verify(password, hash: identity.user.passwordHash) else {
            try await limiter.record(loginAccountRule, subject, now: now)
            try await limiter.record(loginAddressRule, client, now: now)
            throw PlazaError.validation(field: field, "The password is wrong.")
        }
    }

    /// "iPhone", "Firefox on Linux"... from what the client said, else from its User-Agent.
    static func deviceName(_ given: String?, userAgent: String?) -> String {
        if let given = given?.trimmingCharacters(in: .whitespacesAndNewlines), !given.isEmpty { return String(given.prefix(60)) }
        guard let agent = userAgent, !agent.isEmpty else { return "Unknown device" }
        let browsers = ["Edg": "Edge", "Firefox": "Firefox", "Chrome": "Chrome", "Safari": "Safari", "curl": "curl", "PlazaClient": "Plaza app"]
        let systems = ["iPhone": "iPhone", "iPad": "iPad", "Android": "Android", "Mac OS": "macOS", "Windows": "Windows", "Linux": "Linux"]
        let browser = browsers.first { agent.contains($0.key) }?.value
        let system = systems.first { agent.contains($0.key) }?.value
        switch (browser, system) {
        case (let b?, let s?): return "\(b) on \(s)"
        case (let b?, nil): return b
        case (nil, let s?): return s
        default: return String(agent.prefix(60))
        }
    }
}
