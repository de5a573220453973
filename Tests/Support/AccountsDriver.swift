import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore

/// Drives the accounts API the way a client would, so tests read as scenarios.
public struct AccountsDriver: Sendable {
    public let client: any TestClientProtocol

    public init(_ client: any TestClientProtocol) {
        self.client = client
    }

    public static let password = "a long enough passphrase"

    public struct DriverError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Signs `name` up (e-mail `name@example.com`) and returns the response.
    @discardableResult
    public func register(
        _ name: String,
        role: Role = .customer,
        password: String = password
    ) async throws -> TestResponse {
        try await client.send(
            .post,
            "/v1/auth/register",
            json: RegisterRequest(
                email: "\(name)@example.com",
                username: name,
                displayName: name.capitalized,
                password: password,
                role: role
            )
        )
    }

    /// Every mail queued for `email`, newest first, from the dev mailbox.
    public func mails(to email: String) async throws -> [Mail] {
        let response = try await client.execute(
            uri: "/dev/mailbox",
            method: .get,
            headers: [.accept: "application/json"]
        )
        return try response.decode([Mail].self).filter { $0.to == email }
    }

    /// The subjects of the mails to `email`, read again every 100 ms for up to 10 s until `done` holds for them: mail
    /// leaves through the outbox's own worker, a moment after the change that sent it.
    public func subjects(to email: String, until done: ([String]) -> Bool) async throws -> [String] {
        var subjects = try await mails(to: email).map(\.subject)
        for _ in 0..<100 where !done(subjects) {
            try await Task.sleep(for: .milliseconds(100))
            subjects = try await mails(to: email).map(\.subject)
        }
        return subjects
    }

    public struct Mail: Codable, Sendable {
        public var to: String
        public var subject: String
        public var text: String
        public var sentAt: Date
    }

    /// The six-digit code of the newest mail to `email`.
    public func latestCode(for email: String) async throws -> String {
        // The newest mail with a code: alerts (a new sign-in) may arrive in between.
        guard let code = try await mails(to: email).lazy.compactMap({ Self.code(in: $0.text) }).first else {
            throw DriverError(description: "no code mailed to \(email)")
        }
        return code
    }

    public static func code(in text: String) -> String? {
        let digits = text.split(whereSeparator: { !$0.isNumber })
        return digits.first { $0.count == 6 }.map(String.init)
    }

    /// Verifies `name`'s address with the mailed code.
    @discardableResult
    public func verify(_ name: String) async throws -> TestResponse {
        let email = "\(name)@example.com"
        return try await client.send(
            .post,
            "/v1/auth/verify-email",
            json: VerifyEmailRequest(email: email, code: try await latestCode(for: email))
        )
    }

    /// The admin approves the merchant's review item, as on the admin console.
    public func approveMerchant(_ id: UUID) async throws {
        let admin = try await login(Self.admin).decode(TokenResponse.self).accessToken
        let queue = try await client.send(.get, "/v1/admin/review-queue?kind=merchant&limit=100", token: admin).decode(
            Page<ReviewItem>.self
        )
        guard let item = queue.items.first(where: { $0.subjectId == id }) else {
            throw DriverError(description: "no review item for \(id)")
        }
        let approved = try await client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: admin)
        guard approved.status == .ok else {
            throw DriverError(description: "approve \(id): \(approved.status) \(approved.text)")
        }
    }

    public func login(_ login: String, password: String = password) async throws -> TestResponse {
        try await client.send(.post, "/v1/auth/login", json: LoginRequest(login: login, password: password))
    }

    /// The admin every `TestPlaza.withApp` has (password `password`).
    public static let admin = "root"

    /// A verified, signed-in account's tokens; a merchant approved by the admin, unless `approved` is false.
    public func signedIn(_ name: String, role: Role = .customer, approved: Bool = true) async throws -> TokenResponse {
        let registration = try await register(name, role: role)
        guard registration.status == .created else {
            throw DriverError(description: "register \(name): \(registration.status) \(registration.text)")
        }
        try await verify(name)
        if role == .merchant, approved { try await approveMerchant(try registration.decode(User.self).id) }
        let response = try await login(name)
        guard response.status == .ok else {
            throw DriverError(description: "login \(name): \(response.status) \(response.text)")
        }
        return try response.decode(TokenResponse.self)
    }
}
