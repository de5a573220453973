import Foundation
import PlazaCore

extension PlazaServices {
    /// Creates a verified account directly (`plaza admin create`, demo data, benchmarks). Existing ones are left alone.
    /// Returns false when the username or e-mail was taken.
    @discardableResult
    public func createAccount(
        email: String,
        username: String,
        displayName: String,
        password: String,
        role: Role,
        checkPolicy: Bool = true,
        awaitingApproval: Bool = false
    )
        async throws -> Bool
    {
        let email = AccountRules.normalizedEmail(email)
        let username = AccountRules.normalizedUsername(username)
        var validator = Validator()
        validator.apply(AccountRules.emailProblem(email), to: "email")
        validator.apply(AccountRules.usernameProblem(username), to: "username")
        validator.apply(AccountRules.displayNameProblem(displayName), to: "displayName")
        if checkPolicy { validator.apply(accounts.passwords.problem(password), to: "password") }
        guard validator.isValid else { throw PlazaError.validation(validator.errors) }
        var record = UserRecord(
            email: email,
            username: username,
            displayName: displayName,
            passwordHash: try await accounts.passwords.hash(password),
            role: role,
            emailVerified: true,
            now: Date()
        )
        // The operator's own merchants are approved, unless asked to wait for an admin's review like a sign-up.
        if role == .merchant, !awaitingApproval { record.approval = .approved }
        let store = AccountStore()
        let review = record.awaitsApproval ? [FeedMessage.review(AccountService.merchantReview(record))] : []
        return try await events.transaction { [record] db in
            let emailTaken = try await store.emailExists(email, on: db)
            let usernameTaken = try await store.usernameExists(username, on: db)
            if emailTaken || usernameTaken { return (false, []) }
            try await store.insert(record, on: db)
            return (true, review)
        }
    }
}
