import Foundation
import Logging
import PlazaCore

/// Reading the configuration from `PLAZA_*` environment variables, and the durations and database URLs they hold.
extension PlazaConfiguration {
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
            if let number = Int(port), (0...65535).contains(number) {
                configuration.port = number
            } else {
                fail("PLAZA_PORT", "must be a port number from 0 to 65535, not '\(port)'")
            }
        }
        if let url = value("PLAZA_DATABASE_URL") {
            do { configuration.storage = try parseStorage(url) } catch let error as ConfigurationError {
                errors.append(error)
            }
        }
        if let text = value("PLAZA_DATABASE_TIMEOUT") {
            if let seconds = PlazaConfiguration.parseDuration(text), (1...600).contains(seconds) {
                configuration.databaseTimeout = .milliseconds(Int64(seconds * 1_000))
            } else {
                fail("PLAZA_DATABASE_TIMEOUT", "must be a duration from 1s to 600s such as 5s or 2m, not '\(text)'")
            }
        }
        if let url = value("PLAZA_OTEL_ENDPOINT") {
            if let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil {
                configuration.otelEndpoint = parsed
            } else {
                fail(
                    "PLAZA_OTEL_ENDPOINT",
                    "must be an http:// or https:// URL such as http://127.0.0.1:4318, not '\(url)'"
                )
            }
        }
        if let name = value("OTEL_SERVICE_NAME"), !name.isEmpty { configuration.otelServiceName = name }
        if let key = value("PLAZA_SECRET_KEY") {
            if key.utf8.count >= 32 {
                configuration.secretKey = key
            } else {
                fail("PLAZA_SECRET_KEY", "must be at least 32 characters long")
            }
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
            if let number = Int(cost), (4...31).contains(number) {
                configuration.bcryptCost = number
            } else {
                fail("PLAZA_BCRYPT_COST", "must be a whole number from 4 to 31")
            }
        }
        if let level = value("PLAZA_LOG_LEVEL") {
            if let parsed = Logger.Level(rawValue: level.lowercased()) {
                configuration.logLevel = parsed
            } else {
                fail("PLAZA_LOG_LEVEL", "must be one of trace, debug, info, notice, warning, error, critical")
            }
        }
        if let mode = value("PLAZA_MODE") {
            if let parsed = Mode(rawValue: mode) {
                configuration.mode = parsed
            } else {
                fail("PLAZA_MODE", "must be production, dev or demo")
            }
        }
        if let language = value("PLAZA_DEFAULT_LANGUAGE") {
            let offered = Catalogue.shippedTags() + (configuration.mode == .production ? [] : [Catalogue.pseudo])
            // BCP 47 tags are case-insensitive (`DE`, `en-xa`): the offered spelling is kept.
            if let tag = offered.first(where: { $0.lowercased() == language.lowercased() }) {
                configuration.defaultLanguage = tag
            } else {
                fail("PLAZA_DEFAULT_LANGUAGE", "must be one of \(offered.joined(separator: ", ")), not '\(language)'")
            }
        }
        if let retention = value("PLAZA_LOCATION_RETENTION") {
            if let seconds = parseDuration(retention), seconds >= 3600 {
                configuration.places.retention = seconds
            } else {
                fail(
                    "PLAZA_LOCATION_RETENTION",
                    "must be a duration of at least an hour such as 30d, 72h or 90m, not '\(retention)'"
                )
            }
        }
        if let epsilon = value("PLAZA_MAP_EPSILON") {
            if let number = Double(epsilon), number > 0, number <= 1 {
                configuration.places.mapEpsilon = number
            } else {
                fail(
                    "PLAZA_MAP_EPSILON",
                    "must be a number above 0 and at most 1 (per metre; 0.01 gives about 200 m of expected error)"
                )
            }
        }
        if let tiles = value("PLAZA_MAP_TILES") {
            if tiles.hasSuffix(".mbtiles"), !tiles.contains("{") {
                configuration.places.mapTilesFile = tiles
            } else if tiles.contains("{z}"), tiles.contains("{x}"), tiles.contains("{y}"), tiles.hasPrefix("http") {
                configuration.places.mapTilesURL = tiles
            } else {
                fail(
                    "PLAZA_MAP_TILES",
                    "must be a tile URL template with {z}, {x} and {y} (https://tiles.example/{z}/{x}/{y}.png) or the path of an .mbtiles file"
                )
            }
        }
        if let attribution = value("PLAZA_MAP_ATTRIBUTION") { configuration.places.mapAttribution = attribution }
        if let geocoder = value("PLAZA_GEOCODER_URL") {
            if let url = URL(string: geocoder), ["http", "https"].contains(url.scheme ?? ""), url.host != nil {
                configuration.places.geocoderURL = url
            } else {
                fail(
                    "PLAZA_GEOCODER_URL",
                    "must be the http(s) address of a Nominatim-compatible geocoder, such as https://nominatim.example"
                )
            }
        }
        if let zone = value("PLAZA_TIME_ZONE") {
            if let parsed = TimeZone(identifier: zone) {
                configuration.places.timeZone = parsed
                configuration.places.timeZoneName = zone
            } else {
                fail("PLAZA_TIME_ZONE", "must be an IANA time zone such as Europe/Berlin, not '\(zone)'")
            }
        }
        if let currencies = value("PLAZA_CURRENCIES") {
            let codes = currencies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            if !codes.isEmpty, codes.allSatisfy(Money.isCurrencyCode) {
                configuration.wallet.currencies = codes
            } else {
                fail("PLAZA_CURRENCIES", "must be ISO 4217 codes separated by commas, such as USD or USD,EUR")
            }
        }
        if let shipping = value("PLAZA_CARDS_SHIPPING") {
            if let amount = Int64(shipping), (0...100_000).contains(amount) {
                configuration.cards.shipping = amount
            } else {
                fail(
                    "PLAZA_CARDS_SHIPPING",
                    "must be the flat shipping of a card order in minor units (499 is $4.99), not '\(shipping)'"
                )
            }
        }
        if let rate = value("PLAZA_CARDS_TAX_RATE") {
            if let basisPoints = Int(rate), (0...5_000).contains(basisPoints) {
                configuration.cards.taxBasisPoints = basisPoints
            } else {
                fail("PLAZA_CARDS_TAX_RATE", "must be the sales tax in basis points (825 is 8.25 %), not '\(rate)'")
            }
        }
        if let amount = value("PLAZA_SECOND_FACTOR_AMOUNT") {
            if amount.lowercased() == "none" {
                configuration.secondFactors.policy.threshold = nil
            } else if let major = Int64(amount), (0...1_000_000_000).contains(major) {
                configuration.secondFactors.policy.threshold = major
            } else {
                fail(
                    "PLAZA_SECOND_FACTOR_AMOUNT",
                    "must be the smallest payment that asks for a second factor in major units (100 is $100) or none, not '\(amount)'"
                )
            }
        }
        // One address may stand for a whole campus or office behind a NAT: its operator raises these.
        for (key, path) in [
            ("PLAZA_SIGNUPS_PER_ADDRESS", \Limits.signupsPerAddress),
            ("PLAZA_CODE_MAILS_PER_ADDRESS", \Limits.codeMailsPerAddress),
        ] {
            guard let text = value(key) else { continue }
            if let number = Int(text), (1...100_000).contains(number) {
                configuration.limits[keyPath: path] = number
            } else {
                fail(key, "must be a whole number from 1 to 100000 (per address in 15 minutes), not '\(text)'")
            }
        }
        if let ttl = value("PLAZA_CHARGE_TTL") {
            if let seconds = parseDuration(ttl), (10...3_600).contains(seconds) {
                configuration.wallet.chargeTTL = seconds
            } else {
                fail("PLAZA_CHARGE_TTL", "must be a duration from 10s to 1h such as 5m or 90s, not '\(ttl)'")
            }
        }
        if let executor = value("PLAZA_GLOBAL_EXECUTOR") {
            if let parsed = GlobalExecutor(rawValue: executor.lowercased()) {
                configuration.globalExecutor = parsed
            } else {
                fail("PLAZA_GLOBAL_EXECUTOR", "must be event-loops (the default) or swift, not '\(executor)'")
            }
        }
        // Not trimmed: a password may begin or end with spaces.
        if let words = value("PLAZA_OFFER_BLOCKED_WORDS") {
            configuration.offerBlockedWords = words.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            .filter { !$0.isEmpty }
        }
        configuration.adminPassword = environment["PLAZA_ADMIN_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.readPaymentGateway(value, fail: fail)
        configuration.network.read(value, fail: fail)
        configuration.push.read(value, fail: fail)
        configuration.pictures.read(value, fail: fail)
        configuration.passes.read(value, fail: fail)
        configuration.wallet.limits.read(value, fail: fail)
        configuration.backups.read(value, storage: configuration.storage, fail: fail)
        if case .postgres = configuration.storage, configuration.secretKey == nil {
            fail(
                "PLAZA_SECRET_KEY",
                "is required with PostgreSQL, so that every Plaza process signs tokens with the same key"
            )
        }
        if !errors.isEmpty { throw ConfigurationErrors(errors: errors) }
        return configuration
    }

    /// `30d`, `72h`, `90m`, `45s` or plain seconds.
    static func parseDuration(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        if let unit = text.last.flatMap({ units[$0] }), let number = Double(text.dropLast()), number.isFinite,
            number > 0
        {
            return number * unit
        }
        return Double(text).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
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
        throw ConfigurationError(
            key: "PLAZA_DATABASE_URL",
            message: "must be sqlite:PATH or postgres://user:password@host:5432/database"
        )
    }
}
