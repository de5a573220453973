import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// The signed-in user's own account: profile, password, address, deletion.
extension AccountService {
    func updateProfile(_ identity: Identity, _ update: ProfileUpdate, now: Date = Date()) async throws -> User {
        let errors = update.fieldErrors(now: now, languages: languages)
        guard errors.isEmpty else { throw PlazaError.validation(errors) }
        var user = identity.user
        if let name = update.displayName { user.displayName = name.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let birthDate = update.birthDate { user.birthDate = birthDate.isEmpty ? nil : birthDate }
        if let gender = update.gender { user.gender = gender }
        if let student = update.student { user.student = student }
        if let timeZone = update.timeZone { user.timeZone = timeZone.isEmpty ? nil : timeZone }
        if let language = update.language { user.language = languages.offered(language) }
        let (accounts, updated) = (accounts, user)
        try await database.transaction { db in try await accounts.update(updated, on: db, now: now) }
        identities.clear()
        if updated.displayName != identity.user.displayName { try await accountChanged(updated) }
        return user.dto
    }

    /// Changes the password after checking the current one; other sessions are signed out.
    func changePassword(
        _ identity: Identity,
        _ request: ChangePasswordRequest,
        client: String,
        now: Date = Date()
    ) async throws {
        try await requirePassword(identity, request.currentPassword, field: "currentPassword", client: client, now: now)
        if let problem = passwords.problem(request.newPassword) {
            throw PlazaError.validation(field: "newPassword", problem)
        }
        var user = identity.user
        user.passwordHash = try await passwords.hash(request.newPassword)
        let (accounts, sessions, outbox, updated) = (accounts, sessions, outbox, user)
        try await database.transaction { db in
            try await accounts.update(updated, on: db, now: now)
            try await sessions.revokeAll(userID: updated.id, except: identity.sessionID, now: now, on: db)
            try await outbox.enqueue(
                AccountMails.passwordChanged(to: updated.email, words: words(updated.language)),
                on: db,
                now: now
            )
        }
        identities.clear()
        mailQueued()
    }

    /// Moves the account to a new address, which must be verified again with a mailed code.
    /// Mails a code to the new address; the account keeps its address until the code comes back (`verifyEmail`).
    /// Whether another account has the new address is not told: that address gets a notice instead of a code, and
    /// the answer is the same. Limited per account and per address, like every code mail.
    func changeEmail(
        _ identity: Identity,
        _ request: ChangeEmailRequest,
        client: String,
        now: Date = Date()
    ) async throws -> User {
        let email = AccountRules.normalizedEmail(request.email)
        if let problem = AccountRules.emailProblem(email) { throw PlazaError.validation(field: "email", problem) }
        try await requirePassword(identity, request.password, field: "password", client: client, now: now)
        try await limiter.hit(mailAccountRule, identity.user.id.uuidString, now: now)
        try await limiter.hit(mailAccountRule, email, now: now)
        let (accounts, outbox, baseURL, user) = (accounts, outbox, baseURL, identity.user)
        try await database.transaction { db in
            if let owner = try await accounts.user(email: email, on: db), owner.id != user.id {
                let mail = AccountMails.addressInUse(to: email, baseURL: baseURL, words: self.words(owner.language))
                try await outbox.enqueue(mail, on: db, now: now)
            } else {
                try await self.queueCode(
                    .verifyEmail,
                    userID: user.id,
                    email: email,
                    language: user.language,
                    now: now,
                    on: db
                )
            }
        }
        mailQueued()
        return user.dto
    }

    /// Erases the account's personal data and signs out everywhere.
    func deleteAccount(_ identity: Identity, password: String, client: String, now: Date = Date()) async throws {
        try await requirePassword(identity, password, field: "password", client: client, now: now)
        let (accounts, sessions, check) = (accounts, sessions, accountErasureCheck)
        try await database.transaction { db in
            try await check(identity.user, db)
            try await sessions.revokeAll(userID: identity.user.id, except: nil, now: now, on: db)
            try await accounts.erase(identity.user.id, on: db, now: now)
        }
        identities.clear()
        // Other domains erase what they hold about the person (places: location history, zones, memberships).
        try await accountErased(identity.user)
    }

    /// Re-checks the password of a signed-in user for a sensitive change; failures count like log-in failures.
    private func requirePassword(
        _ identity: Identity,
        _ password: String,
        field: String,
        client: String,
        now: Date
    ) async throws {
        let subject = identity.user.id.uuidString
        try await limiter.check(loginAccountRule, subject, now: now)
        guard try await passwords.verify(password, hash: identity.user.passwordHash) else {
            try await limiter.record(loginAccountRule, subject, now: now)
            try await limiter.record(loginAddressRule, client, now: now)
            throw PlazaError.validation(field: field, phrase("The password is wrong."))
        }
    }

    /// "iPhone", "Firefox on Linux"... from what the client said, else from its User-Agent.
    static func deviceName(_ given: String?, userAgent: String?) -> String {
        if let given = given?.trimmingCharacters(in: .whitespacesAndNewlines), !given.isEmpty {
            return String(given.prefix(60))
        }
        guard let agent = userAgent, !agent.isEmpty else { return "Unknown device" }
        let browsers = [
            "Edg": "Edge", "Firefox": "Firefox", "Chrome": "Chrome", "Safari": "Safari", "curl": "curl",
            "PlazaClient": "Plaza app",
        ]
        let systems = [
            "iPhone": "iPhone", "iPad": "iPad", "Android": "Android", "Mac OS": "macOS", "Windows": "Windows",
            "Linux": "Linux",
        ]
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

extension AccountService {
    /// Signed in: who a handle (`carla`, `@carla`, `$carla`) names, so that a payment shows its recipient before money
    /// moves. Usernames are public in Plaza (presence lists, payments); e-mail addresses are never looked up here.
    func person(_ handle: String) async throws -> Person {
        let username = AccountRules.handle(handle)
        guard AccountRules.usernameProblem(username) == nil,
            let user = try await accounts.users(usernames: [username], on: database.sql).first
        else { throw PlazaError.notFound("person with this username") }
        return Person(username: user.username, displayName: user.displayName)
    }
}
