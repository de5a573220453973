import Foundation
import HummingbirdBcrypt
import NIOPosix
import PlazaCore

/// bcrypt hashing off the event loops, and the password rules that need the server's list.
struct PasswordHasher: Sendable {
    let cost: Int
    /// The 1,000 most common passwords (lower-cased), refused at sign-up and on every change.
    let common: Set<String>
    /// A hash of nothing anyone knows, checked against when a log-in names no account, so that
    /// the answer takes as long as for a real account (see `decoy(cost:)`).
    let decoyHash: String

    init(cost: Int) async throws {
        self.cost = cost
        guard
            let url = Bundle.module.url(
                forResource: "common-passwords",
                withExtension: "txt",
                subdirectory: "Resources"
            )
        else {
            throw Templates.MissingTemplate(name: "common-passwords.txt")
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        common = Set(text.split(whereSeparator: \.isNewline).map { $0.lowercased() })
        decoyHash = Self.decoy(cost: cost)
    }

    /// A bcrypt hash made without hashing: the `$2b$` prefix, `cost`, and a random salt and digest. Checking a password
    /// against it runs bcrypt at `cost` over that salt, the work a real account's check does, and never matches.
    /// Hashing a random token at start instead was 37 % of a first start's CPU (issue 42).
    static func decoy(cost: Int) -> String {
        let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        // 22 characters of salt, 31 of digest; any of bcrypt's base64 characters decode.
        let digits = (0..<53).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] }
        return "$2b$\(cost < 10 ? "0" : "")\(cost)$" + String(digits)
    }

    func hash(_ password: String) async throws -> String {
        let cost = UInt8(self.cost)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Checks `password` against `hash`, or against the decoy when there is no account (always false then).
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let target = hash.flatMap { $0.isEmpty ? nil : $0 } ?? decoyHash
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: target) }
        return matches && hash != nil
    }

    /// Why `password` is not acceptable, or `nil`.
    func problem(_ password: String) -> String? {
        if let problem = AccountRules.passwordProblem(password) { return problem }
        return common.contains(password.lowercased()) ? "This password is one of the most common; choose another." : nil
    }
}
