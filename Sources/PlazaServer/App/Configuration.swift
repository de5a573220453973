import Foundation
import Logging

/// Everything Plaza reads at start-up, from `PLAZA_*` environment variables (see the README's table).
public struct PlazaConfiguration: Sendable {
    /// Where the data lives.
    public enum Storage: Sendable, Equatable {
        case sqlite(path: String)
        case postgres(URL)
    }

    /// `production` serves no `/dev` pages; `dev` and `demo` show mail at `/dev/mailbox`.
    public enum Mode: String, Sendable {
        case production
        case dev
        case demo
    }

    public var host = "127.0.0.1"
    public var port = 8080
    public var storage: Storage = .sqlite(path: "plaza-data/plaza.sqlite")
    /// At least 32 bytes; signs access tokens and hashes one-time codes. `nil` until resolved at start.
    public var secretKey: String?
    /// The address users reach Plaza at, used in e-mails and to decide on `Secure` cookies.
    public var publicURL: URL?
    public var smtpURL: URL?
    public var bcryptCost = 12
    public var logLevel: Logger.Level = .info
    public var mode: Mode = .production
    public var limits = Limits()

    public init() {}

    /// Where the SQLite file and the generated secret key live.
    public var dataDirectory: String {
        if case .sqlite(let path) = storage { return URL(fileURLWithPath: path).deletingLastPathComponent().path }
        return "plaza-data"
    }

    /// Whether cookies must carry `Secure`: Plaza is reached over TLS.
    public var servesOverTLS: Bool { publicURL?.scheme == "https" }

    /// The base for links in e-mails.
    public var baseURL: String { publicURL?.absoluteString ?? "http://\(host):\(port)" }

    /// Reads `environment` (normally the process's), reporting every bad variable at once.
    public static func fromEnvironment(_ environment: [String: String]) throws -> PlazaConfiguration {
        var configuration = PlazaConfiguration()
        var errors: [ConfigurationError] = []
        func value(_ key: String) -> String? {
            guard let raw = environment[key]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        func fail(_ key: String, _ message: String) { errors.append(ConfigurationError(key: key, message: message)) }

        if let host = value("PLAZA_HOST") { configuration.host = host }
        if let port = value("PLAZA_PORT") {
            if let number = Int(port), (0...65535).contains(number) { configuration.port = number } else { fail("PLAZA_PORT", "must be a port number from 0 to 65535, not '\(port)'") }
        }
        if let url = value("PLAZA_DATABASE_URL") {
            do { configuration.storage = try parseStorage(url) } catch let error as ConfigurationError { errors.append(error) }
        }
        if let key = value("PLAZA_SECRET_KEY") {
            if key.utf8.count >= 32 { configuration.secretKey = key } else { fail("PLAZA_SECRET_KEY", "must be at least 32 characters long") }
        }
        if let url = value("PLAZA_PUBLIC_URL") {
            if let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil {
                configuration.publicURL = parsed
            } else {
                fail("PLAZA_PUBLIC_URL", "must be an http:// or https:// URL, not '\(url)'")
            }
        }
        if let url = value("PLAZA_SMTP_URL") {
            if let parsed = URL(string: url), ["smtp", "smtps"].contains(parsed.scheme ?? ""), parsed.host != nil {
                configuration.smtpURL = parsed
            } else {
                fail("PLAZA_SMTP_URL", "must look like smtp://user:password@host:587 or smtps://host:465, not '\(url)'")
            }
        }
        if let cost = value("PLAZA_BCRYPT_COST") {
            if let number = Int(cost), (4...31).contains(number) { configuration.bcryptCost = number } else { fail("PLAZA_BCRYPT_COST", "must be a whole number from 4 to 31") }
        }
        if let level = value("PLAZA_LOG_LEVEL") {
            if let parsed = Logger.Level(rawValue: level.lowercased()) { configuration.logLevel = parsed } else {
                fail("PLAZA_LOG_LEVEL", "must be one of trace, debug, info, notice, warning, error, critical")
            }
        }
        if let mode = value("PLAZA_MODE") {
            if let parsed = Mode(rawValue: mode) { configuration.mode = parsed } else { fail("PLAZA_MODE", "must be production, dev or demo") }
        }
        if case .postgres = configuration.storage, configuration.secretKey == nil {
            fail("PLAZA_SECRET_KEY", "is required with PostgreSQL, so that every Plaza process signs tokens with the same key")
        }
        if !errors.isEmpty { throw ConfigurationErrors(errors: errors) }
        return configuration
    }

    static func parseStorage(_ text: String) throws -> Storage {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            guard let url = URL(string: text) else {
                throw ConfigurationError(key: "PLAZA_DATABASE_URL", message: "is not a valid URL")
            }
            return .postgres(url)
        }
        if text.hasPrefix("sqlite://") { return .sqlite(path: String(text.dropFirst("sqlite://".count))) }
        if text.hasPrefix("sqlite:") { return .sqlite(path: String(text.dropFirst("sqlite:".count))) }
        throw ConfigurationError(key: "PLAZA_DATABASE_URL", message: "must be sqlite:PATH or postgres://user:password@host:5432/database")
    }
}

/// Limits that tests and operators may tighten; the defaults follow the accounts issue.
public struct Limits: Sendable {
    public var accessTokenLifetime: TimeInterval = 15 * 60
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    public var codeLifetime: TimeInterval = 15 * 60
    public var codeAttempts = 5
    public var rateWindow: TimeInterval = 15 * 60
    public var loginFailuresPerAccount = 10
    public var loginFailuresPerAddress = 30
    /// Code e-mails (verify, resend, reset) per address and per account in one window.
    public var codeMailsPerAccount = 5
    public var codeMailsPerAddress = 20
    public var signupsPerAddress = 20
    public var maxRequestBody = 1 << 20
    public init() {}
}
