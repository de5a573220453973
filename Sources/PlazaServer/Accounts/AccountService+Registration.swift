import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Sign-up, e-mailed codes and password reset.
extension AccountService {
    /// Creates the account and mails a code. An address that already has an account gets the same answer
    /// (and its owner a warning mail), so sign-up does not tell who is registered.
    func register(_ request: RegisterRequest, client: String, now: Date = Date()) async throws -> User {
        var errors = request.fieldErrors(now: now, languages: languages)
        if !errors.contains(where: { $0.field == "password" }), let problem = passwords.problem(request.password) {
            errors.append(FieldError(field: "password", message: problem))
        }
        guard errors.isEmpty else { throw PlazaError.validation(errors) }
        try await limiter.hit(signupAddressRule, client, now: now)

        let email = AccountRules.normalizedEmail(request.email)
        let username = AccountRules.normalizedUsername(request.username)
        let hash = try await passwords.hash(request.password)
        let record = UserRecord(
            email: email,
            username: username,
            displayName: request.displayName.trimmingCharacters(in: .whitespacesAndNewlines),
            passwordHash: hash,
            role: request.role,
            birthDate: request.birthDate,
            gender: request.gender,
            student: request.student ?? false,
            language: request.language.flatMap(languages.offered),
            now: now
        )
        let (accounts, outbox, baseURL) = (accounts, outbox, baseURL)
        try await database.transaction { db in
            if try await accounts.usernameExists(username, on: db) {
                throw PlazaError.conflict(field: "username", phrase("This username is taken."))
            }
            if try await accounts.emailExists(email, on: db) {
                // The same answer as for a new address, all the way: the username is taken from now on as it would be by
                // the new (unverified) account, and neither can log in (see `checkCredentials`).
                try await accounts.reserve(username, reason: "signup", on: db, now: now)
                // In the words of the account's owner, who reads it, not of whoever signed up.
                let language = try await accounts.user(email: email, on: db)?.language
                let mail = AccountMails.alreadyRegistered(to: email, baseURL: baseURL, words: self.words(language))
                try await outbox.enqueue(mail, on: db, now: now)
                return
            }
            try await accounts.insert(record, on: db)
            try await self.queueCode(
                .verifyEmail,
                userID: record.id,
                email: email,
                language: record.language,
                now: now,
                on: db
            )
        }
        mailQueued()
        return record.dto
    }

    /// Marks the address verified when the code is right.
    func verifyEmail(_ request: VerifyEmailRequest, client: String, now: Date = Date()) async throws -> User {
        let email = AccountRules.normalizedEmail(request.email)
        var user = try await checkCode(
            email: email,
            code: request.code,
            purpose: .verifyEmail,
            client: client,
            now: now
        )
        // A new merchant's first verified address puts them in the admin's review queue; every verified address is told
        // to the domains that trust one (a campus address makes a student of its campus: issue 39, once is enough).
        let review =
            user.approval == .pending && !user.emailVerified ? [FeedMessage.review(Self.merchantReview(user))] : []
        user.email = email
        user.emailVerified = true
        let (accounts, verified) = (self.accounts, user)
        try await transaction(publishing: review + [.emailVerified(user: user.id, email: email)]) { db in
            // An address confirmed for a change of e-mail may have been taken since: only its owner, holding the code, learns so.
            if try await accounts.user(email: email, on: db).map({ $0.id != verified.id }) ?? false {
                throw PlazaError.conflict(field: "email", phrase("Another account uses this address now."))
            }
            try await accounts.update(verified, on: db, now: now)
        }
        identities.clear()
        return verified.dto
    }

    /// What the review queue shows of a merchant who just verified their address.
    static func merchantReview(_ user: UserRecord) -> ReviewSubmission {
        let domain = user.email.split(separator: "@").last.map(String.init) ?? ""
        return ReviewSubmission(
            kind: .merchant,
            subjectId: user.id,
            subject: ReviewSubmission.person(displayName: user.displayName, username: user.username),
            findings: [
                "Signed up as a merchant and verified an address at \(domain).",
                "No business yet: the merchant creates one next.",
            ]
        )
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
        if let problem = passwords.problem(request.newPassword) {
            throw PlazaError.validation(field: "newPassword", problem)
        }
        let email = AccountRules.normalizedEmail(request.email)
        var user = try await checkCode(
            email: email,
            code: request.code,
            purpose: .resetPassword,
            client: client,
            now: now
        )
        user.passwordHash = try await passwords.hash(request.newPassword)
        // Receiving the code proves the address, too.
        user.emailVerified = true
        let (accounts, sessions, outbox, updated) = (accounts, sessions, outbox, user)
        try await database.transaction { db in
            try await accounts.update(updated, on: db, now: now)
            try await sessions.revokeAll(userID: updated.id, except: nil, now: now, on: db)
            try await outbox.enqueue(
                AccountMails.passwordChanged(to: updated.email, words: words(updated.language)),
                on: db,
                now: now
            )
        }
        identities.clear()
        try await limiter.reset(loginAccountRule, updated.id.uuidString)
        mailQueued()
    }

    private func limitCodeMail(email: String, client: String, now: Date) async throws {
        guard AccountRules.emailProblem(email) == nil else {
            throw PlazaError.validation(field: "email", phrase("Enter a valid e-mail address."))
        }
        try await limiter.check(mailAccountRule, email, now: now)
        try await limiter.hit(mailAddressRule, client, now: now)
        try await limiter.record(mailAccountRule, email, now: now)
    }

    private func mailCode(to user: UserRecord, purpose: CodeStore.Purpose, now: Date) async throws {
        try await database.transaction { db in
            try await self.queueCode(
                purpose,
                userID: user.id,
                email: user.email,
                language: user.language,
                now: now,
                on: db
            )
        }
        mailQueued()
    }

    /// Issues a new code of `purpose` (the older one stops working) and queues its mail, in the caller's transaction.
    func queueCode(
        _ purpose: CodeStore.Purpose,
        userID: UUID,
        email: String,
        language: String? = nil,
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        let code = Secrets.sixDigitCode()
        try await codes.issue(
            userID: userID,
            purpose: purpose,
            email: email,
            codeHash: secrets.hash(code),
            now: now,
            expires: now.addingTimeInterval(limits.codeLifetime),
            on: db
        )
        let mail =
            switch purpose {
            case .verifyEmail:
                AccountMails.verificationCode(
                    to: email,
                    code: code,
                    minutes: codeMinutes,
                    baseURL: baseURL,
                    words: words(language)
                )
            case .resetPassword:
                AccountMails.resetCode(
                    to: email,
                    code: code,
                    minutes: codeMinutes,
                    baseURL: baseURL,
                    words: words(language)
                )
            case .campusEmail:
                AccountMails.campusCode(to: email, code: code, minutes: codeMinutes, words: words(language))
            }
        try await outbox.enqueue(mail, on: db, now: now)
    }

    /// The account whose newest code of `purpose` is `code`. Wrong, expired, used-up and unknown all
    /// answer alike, and count against the address and the account.
    private func checkCode(
        email: String,
        code: String,
        purpose: CodeStore.Purpose,
        client: String,
        now: Date
    ) async throws -> UserRecord {
        guard AccountRules.isCodeShaped(code) else {
            throw PlazaError.validation(field: "code", phrase("Enter the six digits from the e-mail."))
        }
        try await limiter.check(codeAddressRule, client, now: now)
        try await limiter.check(codeAccountRule, email, now: now)
        let invalid = invalidCode
        let (accounts, codes, secrets, limits) = (accounts, codes, secrets, limits)
        let user: UserRecord? = try await database.transaction { db in
            // A code to verify a new address was sent to that address, which the account does not have yet.
            let holder =
                purpose == .verifyEmail
                ? try await codes.holder(email: email, purpose: purpose, codeHash: secrets.hash(code), now: now, on: db)
                : nil
            var found = if let holder { try await accounts.user(id: holder, on: db) } else { UserRecord?.none }
            if found == nil { found = try await accounts.user(email: email, on: db) }
            guard let user = found else { return nil }
            let outcome = try await codes.consume(
                userID: user.id,
                purpose: purpose,
                codeHash: secrets.hash(code),
                maxAttempts: limits.codeAttempts,
                now: now,
                on: db
            )
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
}

/// Codes for another domain's proof of an address: the campus marketplace's university e-mail, with the limits of an
/// e-mail verification.
extension AccountService {
    var invalidCode: PlazaError {
        PlazaError(
            .badRequest,
            .invalidCode,
            phrase("The code is wrong or has expired."),
            detail: say(
                "Ask for a new code if this one is older than {minutes} minutes.",
                ["minutes": String(codeMinutes)]
            ),
            errors: [FieldError(field: "code", message: phrase("The code is wrong or has expired."))]
        )
    }

    /// Mails a six-digit code to a campus address the signed-in user claims (the older code stops working); when
    /// another account holds the address (`holder`), its owner gets a notice instead, and the caller cannot tell.
    /// Limited per account, per address and per client alike either way.
    package func mailCampusCode(
        _ identity: Identity,
        email: String,
        takenBy holder: UUID?,
        client: String,
        now: Date = Date()
    ) async throws {
        try await limiter.check(mailAccountRule, identity.user.id.uuidString, now: now)
        try await limiter.check(mailAccountRule, email, now: now)
        try await limiter.hit(mailAddressRule, client, now: now)
        try await limiter.record(mailAccountRule, identity.user.id.uuidString, now: now)
        try await limiter.record(mailAccountRule, email, now: now)
        let (outbox, baseURL) = (outbox, baseURL)
        try await database.transaction { db in
            if let holder {
                let language = try await self.accounts.user(id: holder, on: db)?.language
                let mail = AccountMails.campusAddressInUse(to: email, baseURL: baseURL, words: self.words(language))
                try await outbox.enqueue(mail, on: db, now: now)
            } else {
                try await self.queueCode(
                    .campusEmail,
                    userID: identity.user.id,
                    email: email,
                    language: identity.user.language,
                    now: now,
                    on: db
                )
            }
        }
        mailQueued()
    }

    /// Checks the code mailed to the campus address `email` for this user: 400 `invalid_code` when it is wrong, expired
    /// or was sent to another address.
    package func checkCampusCode(
        _ identity: Identity,
        email: String,
        code: String,
        client: String,
        now: Date = Date()
    ) async throws {
        guard AccountRules.isCodeShaped(code) else {
            throw PlazaError.validation(field: "code", phrase("Enter the six digits from the e-mail."))
        }
        try await limiter.check(codeAddressRule, client, now: now)
        try await limiter.check(codeAccountRule, email, now: now)
        let (codes, hash, attempts) = (codes, secrets.hash(code), limits.codeAttempts)
        let outcome = try await database.transaction { db in
            try await codes.consume(
                userID: identity.user.id,
                purpose: .campusEmail,
                codeHash: hash,
                maxAttempts: attempts,
                now: now,
                on: db
            )
        }
        guard outcome == .accepted(email: email) else {
            try await limiter.record(codeAddressRule, client, now: now)
            try await limiter.record(codeAccountRule, email, now: now)
            throw invalidCode
        }
    }
}

/// The browser that signed up is signed in when its address is verified (by code or the mail's link), and only it:
/// sign-up leaves it a short-lived proof (`WebCookies.signup`) of the account it created.
extension AccountService {
    static let signupProofLifetime: TimeInterval = 86_400

    /// `<user id>.<expiry, Unix seconds>.<keyed hash of both>`.
    func signupProof(for user: UUID, now: Date = Date()) -> String {
        let body =
            "\(user.uuidString.lowercased()).\(Int(now.addingTimeInterval(Self.signupProofLifetime).timeIntervalSince1970))"
        return "\(body).\(secrets.hash("signup:\(body)"))"
    }

    /// A web session for `user`, when `proof` is this browser's unexpired proof of signing them up; else nil.
    func sessionAfterVerification(
        _ user: User,
        proof: String?,
        userAgent: String?,
        now: Date = Date()
    ) async throws -> String? {
        let parts = (proof ?? "").split(separator: ".", maxSplits: 2).map(String.init)
        guard parts.count == 3, UUID(uuidString: parts[0]) == user.id, let expires = Double(parts[1]),
            expires > now.timeIntervalSince1970,
            Secrets.constantTimeEquals(parts[2], secrets.hash("signup:\(parts[0]).\(parts[1])")),
            let record = try await accounts.user(id: user.id, on: database.sql)
        else { return nil }
        return try await startWebSession(for: record, userAgent: userAgent, now: now)
    }
}
