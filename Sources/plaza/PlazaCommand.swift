import ArgumentParser
import Foundation
import Logging
import PlazaBench
import PlazaCore
import PlazaDemo
import PlazaServer

/// `plaza`: the one command an operator runs.
@main
struct PlazaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plaza",
        abstract: "Plaza: wallet, offers, loyalty, places and marketplace for one town or campus.",
        subcommands: [
            Serve.self, Demo.self, Migrate.self, Admin.self, Backup.self, Ledger.self, Verify.self, Bench.self,
        ],
        defaultSubcommand: Serve.self
    )

    static func main() async {
        // Before anything else runs; a bad configuration is reported by the command itself.
        let configuration = try? PlazaConfiguration.fromEnvironment(ProcessInfo.processInfo.environment)
        ConcurrencyExecutor.install(configuration?.globalExecutor ?? .eventLoops)
        await main(nil)
    }
}

/// Reads the `PLAZA_*` variables, or exits with one line per bad variable.
/// Whether the operator named a database (`PLAZA_DATABASE_URL`); the environment is read in this file only.
func databaseConfigured() -> Bool {
    ProcessInfo.processInfo.environment["PLAZA_DATABASE_URL"] != nil
}

func loadConfiguration() throws -> PlazaConfiguration {
    do {
        return try PlazaConfiguration.fromEnvironment(ProcessInfo.processInfo.environment)
    } catch let error as ConfigurationErrors {
        for problem in error.errors { FileHandle.standardError.write(Data("plaza: \(problem)\n".utf8)) }
        throw ExitCode(78)  // EX_CONFIG
    }
}

/// Runs the server; a taken port ends the command with one line naming it and a non-zero status.
func exitingOnBusyPort(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as PortInUse {
        FileHandle.standardError.write(Data("plaza: \(error)\n".utf8))
        throw ExitCode(69)  // EX_UNAVAILABLE
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server (configured by PLAZA_* environment variables)."
    )

    func run() async throws {
        let configuration = try loadConfiguration()
        try await exitingOnBusyPort { try await ServerRunner.run(configuration) }
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server with demo accounts; e-mail shows at /dev/mailbox."
    )

    func run() async throws {
        var configuration = try loadConfiguration()
        configuration.mode = .demo
        configuration.paymentGateway = configuration.paymentGateway ?? .sandbox
        let baseURL = configuration.baseURL
        try await exitingOnBusyPort {
            try await ServerRunner.run(
                configuration,
                afterMigrations: { try await DemoData.seed($0) },
                // Only once the port listens: a banner before that could announce a server that never ran.
                onListening: { _ in print(DemoData.banner(baseURL: baseURL)) }
            )
        }
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    func run() async throws {
        try await ServerRunner.migrate(try loadConfiguration())
        print("The database is up to date.")
    }
}

struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage administrator accounts.",
        subcommands: [Create.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Create a verified admin account. The password is read from PLAZA_ADMIN_PASSWORD or standard input."
        )

        @Option(help: "The admin's e-mail address.") var email: String
        @Option(help: "The admin's username.") var username: String
        @Option(help: "The name shown to others.") var displayName = "Plaza Admin"

        func run() async throws {
            let configuration = try loadConfiguration()
            let password = configuration.adminPassword ?? readLine(strippingNewline: true) ?? ""
            let services = try await PlazaServices.open(configuration, logger: Logger(label: "plaza"))
            let created = try await services.withDatabase {
                try await services.migrate()
                return try await services.createAccount(
                    email: email,
                    username: username,
                    displayName: displayName,
                    password: password,
                    role: .admin
                )
            }
            try await services.database.close()
            guard created else {
                print("An account with that e-mail or username exists already; nothing changed.")
                throw ExitCode(1)
            }
            print("Admin \(username) created.")
        }
    }
}

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the SQLite database consistently, even while the server runs."
    )

    @Argument(help: "The file to write; it must not exist.") var path: String

    func run() async throws {
        let services = try await PlazaServices.open(try loadConfiguration(), logger: Logger(label: "plaza"))
        defer { Task { try? await services.database.close() } }
        try await services.backup(to: path)
        print("Backed up to \(path).")
    }
}

struct Ledger: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check the wallet ledger.", subcommands: [Verify.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Recompute every balance from the journal; exit 1 on any difference, unbalanced entry or overdrawn account."
        )

        func run() async throws {
            let services = try await PlazaServices.open(try loadConfiguration(), logger: Logger(label: "plaza"))
            let report: LedgerReport
            do {
                report = try await services.withDatabase { try await services.verifyLedger() }
                try await services.database.close()
            } catch {
                try? await services.database.close()
                throw error
            }
            print(report)
            if !report.problems.isEmpty { throw ExitCode(1) }
        }
    }
}

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every invariant across domains (the ledger's among them), reading only.",
        discussion:
            "Prints KIND ID: problem per broken invariant, then a summary. Exit 0: everything holds; 1: something is broken; "
            + "2: it could not check (no database, not migrated); 78: bad configuration."
    )

    func run() async throws {
        var configuration = try loadConfiguration()
        // Opening a SQLite file creates it: a missing database is reported, never made.
        if case .sqlite(let path) = configuration.storage, !FileManager.default.fileExists(atPath: path) {
            throw Self.unable("no database at \(path)")
        }
        // Without PLAZA_SECRET_KEY, opening would write a new secret.key; the checks sign and hash nothing.
        configuration.secretKey = configuration.secretKey ?? "plaza-verify-reads-only-and-signs-nothing"
        let report: VerifyReport
        do {
            let services = try await PlazaServices.open(configuration, logger: Logger(label: "plaza"))
            do {
                report = try await services.withDatabase { try await services.verify() }
                try await services.database.close()
            } catch {
                try? await services.database.close()
                throw error
            }
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("plaza: \(error)\n".utf8))
            throw ExitCode(78)  // EX_CONFIG
        } catch {
            throw Self.unable(String(describing: error))
        }
        print(report)
        if !report.findings.isEmpty { throw ExitCode(1) }
    }

    /// Exit 2, saying why nothing was checked.
    static func unable(_ reason: String) -> ExitCode {
        FileHandle.standardError.write(Data("plaza verify: could not check: \(reason)\n".utf8))
        return ExitCode(2)
    }
}
