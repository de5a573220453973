import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

@Suite struct ConfigurationTests {
    @Test func defaultsServeLoopbackOnAnSQLiteFile() throws {
        let configuration = try PlazaConfiguration.fromEnvironment([:])
        #expect(configuration.host == "127.0.0.1" && configuration.port == 8080)
        #expect(configuration.storage == .sqlite(path: "plaza-data/plaza.sqlite"))
        #expect(configuration.bcryptCost == 12 && configuration.mode == .production)
        // A production server takes no test cards: the sandbox runs only when asked for (or in `plaza demo`).
        #expect(configuration.paymentGateway == nil)
        #expect(try PlazaConfiguration.fromEnvironment(["PLAZA_PAYMENT_GATEWAY": "sandbox"]).paymentGateway == .sandbox)
        let limits = try PlazaConfiguration.fromEnvironment(["PLAZA_LIMIT_TOP_UP": "day=300, month=900"]).wallet.limits
            .topUp
        #expect(limits == FundingLimits(transaction: 1_000, day: 300, month: 900))
        #expect(throws: ConfigurationErrors.self) {
            try PlazaConfiguration.fromEnvironment(["PLAZA_LIMIT_WITHDRAWAL": "week=5"])
        }
    }

    /// Stripe is chosen by its secret key, and needs the webhook secret and the public address its pages return to.
    @Test func stripeIsConfiguredByItsKeysAndNeedsAPublicAddress() throws {
        let complete = [
            "PLAZA_STRIPE_SECRET_KEY": "sk_live_abc", "PLAZA_STRIPE_WEBHOOK_SECRET": "whsec_def",
            "PLAZA_PUBLIC_URL": "https://plaza.example",
        ]
        #expect(
            try PlazaConfiguration.fromEnvironment(complete).paymentGateway
                == .stripe(StripeSettings(secretKey: "sk_live_abc", webhookSecret: "whsec_def"))
        )
        let local = try PlazaConfiguration.fromEnvironment(
            complete.merging(["PLAZA_STRIPE_API_URL": "http://127.0.0.1:12111/"]) { $1 }
        )
        #expect(
            local.paymentGateway
                == .stripe(
                    StripeSettings(
                        secretKey: "sk_live_abc",
                        webhookSecret: "whsec_def",
                        apiURL: "http://127.0.0.1:12111"
                    )
                )
        )
        func refused(_ environment: [String: String]) -> Set<String> {
            do {
                _ = try PlazaConfiguration.fromEnvironment(environment)
                return []
            } catch let error as ConfigurationErrors {
                return Set(error.errors.map(\.key))
            } catch {
                return ["?"]
            }
        }
        #expect(refused(complete.filter { $0.key != "PLAZA_PUBLIC_URL" }) == ["PLAZA_PUBLIC_URL"])
        #expect(refused(complete.filter { $0.key != "PLAZA_STRIPE_WEBHOOK_SECRET" }) == ["PLAZA_STRIPE_WEBHOOK_SECRET"])
        #expect(
            refused(complete.merging(["PLAZA_STRIPE_SECRET_KEY": "pk_live_publishable"]) { $1 }) == [
                "PLAZA_STRIPE_SECRET_KEY"
            ]
        )
        #expect(refused(complete.merging(["PLAZA_PAYMENT_GATEWAY": "sandbox"]) { $1 }) == ["PLAZA_STRIPE_SECRET_KEY"])
        #expect(refused(["PLAZA_PAYMENT_GATEWAY": "stripe"]) == ["PLAZA_STRIPE_SECRET_KEY"])
        #expect(
            StripeGateway(.init(secretKey: "sk_test_x", webhookSecret: "whsec_y"), logger: .init(label: "t")).isTestMode
        )
        #expect(
            !StripeGateway(.init(secretKey: "sk_live_x", webhookSecret: "whsec_y"), logger: .init(label: "t"))
                .isTestMode
        )
    }

    /// Every variable is read by `PlazaConfiguration` (and the parts it delegates to) and listed in the README's table;
    /// nothing else reads the process's environment but the `plaza` command handing it over.
    @Test func everyVariableIsReadInOnePlaceAndListedInTheReadme() throws {
        let readers = [
            "Sources/PlazaServer/App/Configuration.swift",
            "Sources/PlazaServer/App/PlazaConfiguration+Environment.swift",
            "Sources/PlazaServer/App/NetworkConfiguration.swift",
            "Sources/PlazaServer/Wallet/FundingLimits.swift", "Sources/PlazaServer/App/PushConfiguration.swift",
        ]
        var names = Set<String>()
        for file in readers {
            let text = try String(contentsOfFile: repositoryFile(file), encoding: .utf8)
            for match in text.matches(of: /"(PLAZA_[A-Z_]+)"/) { names.insert(String(match.output.1)) }
        }
        #expect(names.count >= 30 && names.contains("PLAZA_GLOBAL_EXECUTOR") && names.contains("PLAZA_ADMIN_PASSWORD"))
        let readme = try String(contentsOfFile: repositoryFile("README.md"), encoding: .utf8)
        #expect(names.filter { !readme.contains("| `\($0)` |") }.sorted() == [])

        let sources = URL(fileURLWithPath: repositoryFile("Sources"))
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            ?? []
        let readingEnvironment = try files.filter { $0.pathExtension == "swift" && !$0.path.contains("/PlazaBench/") }
            .filter {
                try String(contentsOf: $0, encoding: .utf8).contains("ProcessInfo.processInfo.environment")
            }
        #expect(readingEnvironment.map(\.lastPathComponent) == ["PlazaCommand.swift"])
        #expect(
            try PlazaConfiguration.fromEnvironment(["PLAZA_GLOBAL_EXECUTOR": "swift", "PLAZA_ADMIN_PASSWORD": " pass "])
                .adminPassword == " pass "
        )
    }

    /// `PLAZA_DEFAULT_LANGUAGE` names an offered language (the pseudo-language outside production only), and
    /// `GET /v1/languages` tells apps which.
    @Test func theDefaultLanguageMustBeOneOffered() async throws {
        func refusedKeys(_ environment: [String: String]) -> [String] {
            do {
                _ = try PlazaConfiguration.fromEnvironment(environment)
                return []
            } catch let error as ConfigurationErrors {
                return error.errors.map(\.key)
            } catch {
                return ["?"]
            }
        }
        #expect(refusedKeys(["PLAZA_DEFAULT_LANGUAGE": "xx"]) == ["PLAZA_DEFAULT_LANGUAGE"])
        #expect(refusedKeys(["PLAZA_DEFAULT_LANGUAGE": "en-XA"]) == ["PLAZA_DEFAULT_LANGUAGE"])
        #expect(try PlazaConfiguration.fromEnvironment([:]).defaultLanguage == "en")
        #expect(try PlazaConfiguration.fromEnvironment(["PLAZA_DEFAULT_LANGUAGE": "DE"]).defaultLanguage == "de")
        #expect(
            try PlazaConfiguration.fromEnvironment(["PLAZA_MODE": "dev", "PLAZA_DEFAULT_LANGUAGE": "en-XA"])
                .defaultLanguage == "en-XA"
        )
        let german = try PlazaConfiguration.fromEnvironment(["PLAZA_DEFAULT_LANGUAGE": "de"])
        #expect(german.defaultLanguage == "de")
        try await TestPlaza.withApp(.sqlite, configure: { $0.defaultLanguage = german.defaultLanguage }) { client, _ in
            let response = try await client.send(.get, "/v1/languages")
            let list = try response.decode(LanguageList.self)
            #expect(list.default == "de")
            #expect(list.items.first?.tag == "en")
        }
    }

    @Test func everyBadVariableIsNamedAtOnce() {
        do {
            _ = try PlazaConfiguration.fromEnvironment([
                "PLAZA_PORT": "eighty", "PLAZA_BCRYPT_COST": "99", "PLAZA_DATABASE_URL": "mysql://x",
                "PLAZA_LOG_LEVEL": "loud",
                "PLAZA_SECRET_KEY": "short", "PLAZA_PUBLIC_URL": "ftp://x", "PLAZA_SMTP_URL": "mailto:x",
                "PLAZA_PAYMENT_GATEWAY": "free-money",
            ])
            Issue.record("bad configuration accepted")
        } catch let error as ConfigurationErrors {
            #expect(
                Set(error.errors.map(\.key)) == [
                    "PLAZA_PORT", "PLAZA_BCRYPT_COST", "PLAZA_DATABASE_URL", "PLAZA_LOG_LEVEL", "PLAZA_SECRET_KEY",
                    "PLAZA_PUBLIC_URL",
                    "PLAZA_SMTP_URL",
                    "PLAZA_PAYMENT_GATEWAY",
                ]
            )
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aCampusBehindOneAddressMayRaiseTheSignUpLimits() throws {
        let campus = try PlazaConfiguration.fromEnvironment([
            "PLAZA_SIGNUPS_PER_ADDRESS": "500", "PLAZA_CODE_MAILS_PER_ADDRESS": "800",
        ])
        #expect(campus.limits.signupsPerAddress == 500 && campus.limits.codeMailsPerAddress == 800)
        #expect(PlazaConfiguration().limits.signupsPerAddress == 20)
        #expect(throws: ConfigurationErrors.self) {
            try PlazaConfiguration.fromEnvironment(["PLAZA_SIGNUPS_PER_ADDRESS": "0"])
        }
    }

    @Test func mapTilesAreAServerOrAFileAndTheGeocoderAnAddress() throws {
        let server = try PlazaConfiguration.fromEnvironment([
            "PLAZA_MAP_TILES": "https://tiles.example/{z}/{x}/{y}.png", "PLAZA_MAP_ATTRIBUTION": "© Tiles Example",
            "PLAZA_GEOCODER_URL": "https://nominatim.example",
        ])
        #expect(
            server.places.mapTilesURL == "https://tiles.example/{z}/{x}/{y}.png" && server.places.mapTilesFile == nil
        )
        #expect(
            server.places.mapAttribution == "© Tiles Example" && server.places.geocoderURL?.host == "nominatim.example"
        )
        let file = try PlazaConfiguration.fromEnvironment(["PLAZA_MAP_TILES": "/srv/town.mbtiles"])
        #expect(file.places.mapTilesFile == "/srv/town.mbtiles" && file.places.mapTilesURL == nil)
        do {
            _ = try PlazaConfiguration.fromEnvironment([
                "PLAZA_MAP_TILES": "tiles.example", "PLAZA_GEOCODER_URL": "nominatim",
            ])
            Issue.record("bad map settings accepted")
        } catch let error as ConfigurationErrors {
            #expect(Set(error.errors.map(\.key)) == ["PLAZA_MAP_TILES", "PLAZA_GEOCODER_URL"])
        }
    }

    @Test func postgresNeedsASharedSecretKey() {
        #expect(throws: ConfigurationErrors.self) {
            try PlazaConfiguration.fromEnvironment(["PLAZA_DATABASE_URL": "postgres://u:p@localhost/plaza"])
        }
        let ok = try? PlazaConfiguration.fromEnvironment([
            "PLAZA_DATABASE_URL": "postgres://u:p@localhost/plaza",
            "PLAZA_SECRET_KEY": String(repeating: "k", count: 40),
        ])
        #expect(ok != nil)
    }

    @Test func cookiesAreSecureBehindTLS() throws {
        #expect(try PlazaConfiguration.fromEnvironment(["PLAZA_PUBLIC_URL": "https://plaza.example"]).servesOverTLS)
        #expect(try !PlazaConfiguration.fromEnvironment(["PLAZA_PUBLIC_URL": "http://localhost:8080"]).servesOverTLS)
    }
}

@Suite struct SecretKeyFileTests {
    @Test func aGeneratedKeyIsKeptPrivateAndReusedOnTheNextStart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-key-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try SecretKeyFile.loadOrCreate(directory: directory)
        #expect(first.utf8.count >= 32)
        #expect(try SecretKeyFile.loadOrCreate(directory: directory) == first)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/secret.key")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
