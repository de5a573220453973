import ArgumentParser
import Foundation
import PlazaBench
import PlazaServer

/// `plaza bench …`: the benchmarks, each beside its peer in the same run (docs/benchmarks.md).
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure Plaza on this machine (build with -c release).",
        subcommands: [
            Auth.self, Cards.self, Chaos.self, Geo.self, LedgerTransfers.self, LiveIndexMemory.self, Loyalty.self,
            Market.self, Media.self,
            Offers.self, JSON.self,
            Push.self,
        ]
    )

    struct Cards: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "A two-page card's changes, previews and print PDFs per second, beside Chromium printing the same pages to PDF."
        )

        @Option(help: "Changes (edit, layout, preview) to time.") var changes = 2_000
        @Option(help: "Print PDFs to write.") var prints = 400
        @Option(help: "Chromium --print-to-pdf runs of the peer.") var chromiumRuns = 8

        func run() async throws {
            var options = CardsBench.Options()
            (options.changes, options.prints, options.chromiumRuns) = (changes, prints, chromiumRuns)
            print(try await CardsBench(configuration: try loadConfiguration(), options: options).run())
        }
    }

    struct Loyalty: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Offline punches synced per second over HTTP, each verified and counted once, beside bare Ed25519 verifications."
        )

        @Option(help: "Customers holding a card.") var customers = 1_000
        @Option(help: "Punches in all, shared evenly among the customers.") var punches = 10_000
        @Option(help: "Punches per sync, at most 100.") var batch = 50
        @Option(help: "Syncs in flight at once.") var concurrency = 16
        @Option(help: "HTTP client: nio (light, the default) or async-http-client.") var httpClient = BenchHTTPClient
            .nio

        func run() async throws {
            var options = LoyaltyBench.Options()
            options.customers = customers
            options.punches = punches
            options.batch = min(max(1, batch), 100)
            options.concurrency = concurrency
            options.httpClient = httpClient
            print(try await LoyaltyBench(configuration: try loadConfiguration(), options: options).run())
        }
    }

    struct Market: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Campus feed and search latency over HTTP beside the same queries on the database; chat delivery between two processes."
        )

        @Option(help: "Listings on the campus.") var listings = 100_000
        @Option(help: "Students who sell and ask.") var students = 200
        @Option(help: "Requests per query and route.") var requests = 2_000
        @Option(help: "Clients (and database tasks) at once.") var concurrency = 32
        @Option(help: "Chat messages (PostgreSQL only).") var messages = 2_000
        @Option(help: "HTTP client: nio (light, the default) or async-http-client.") var httpClient = BenchHTTPClient
            .nio

        func run() async throws {
            var options = MarketBench.Options()
            (options.listings, options.students, options.requests) = (listings, students, requests)
            (options.concurrency, options.messages, options.httpClient) = (concurrency, messages, httpClient)
            print(try await MarketBench(configuration: try loadConfiguration(), options: options).run())
        }
    }

    struct Offers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "What matching active campaigns adds to a location update over HTTP, beside the same updates in a town with none."
        )

        @Option(help: "Active campaigns in town.") var campaigns = 10_000
        @Option(help: "Shops they are spread over (one location each).") var businesses = 1_000
        @Option(help: "People sending updates (each run has its own).") var movers = 1_000
        @Option(help: "Location updates per run, shared among the movers.") var updates = 5_000
        @Option(help: "Side of the square town in metres.") var box = 4_000.0
        @Option(help: "Updates in flight at once.") var concurrency = 16
        @Option(help: "HTTP client: nio (light, the default) or async-http-client.") var httpClient = BenchHTTPClient
            .nio

        func run() async throws {
            var options = OffersBench.Options()
            (options.campaigns, options.businesses, options.movers, options.updates) = (
                campaigns, businesses, movers, updates
            )
            (options.boxMeters, options.concurrency, options.httpClient) = (box, concurrency, httpClient)
            print(try await OffersBench(configuration: try loadConfiguration(), options: options).run())
        }
    }

    struct Media: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "/healthz latency while clients upload worst-case pictures, beside the same server quiet."
        )

        @Option(help: "Clients uploading at once.") var uploaders = 8
        @Option(help: "Seconds of uploads (the quiet probe runs half as long first).") var seconds = 20.0
        @Option(help: "Another build's plaza binary to serve (before and after); this one by default.") var server:
            String?

        func run() async throws {
            var options = MediaBench.Options()
            (options.uploaders, options.seconds, options.server) = (uploaders, seconds, server)
            print(try await MediaBench(configuration: try loadConfiguration(), options: options).run())
        }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Web Push messages per second: encrypted, signed and sent to a push service on loopback, alone and through the outbox."
        )

        @Option(help: "Messages per measured row.") var messages = 5_000
        @Option(help: "Messages in flight at once.") var concurrency = 64

        func run() async throws {
            print(
                try await PushBench(
                    configuration: try loadConfiguration(),
                    messages: messages,
                    concurrency: concurrency
                ).run()
            )
        }
    }

    struct JSON: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A presence list encoded by Foundation's JSONEncoder and by JSONWriter."
        )

        @Option(help: "Calls per measured run.") var rounds = 2_000

        func run() async throws {
            print(try JSONBench(rounds: rounds).run())
        }
    }

    struct Chaos: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Conflicting money requests against a server it kills and restarts; exit 1 on anything lost, doubled or broken.",
            discussion: """
                Starts its own plaza serve on PLAZA_HOST/PLAZA_PORT against PLAZA_DATABASE_URL (default: a new SQLite file here, \
                removed when the run is clean). On PostgreSQL every kill first terminates the server's backends.
                """
        )

        @Option(help: "The seed (default: a random one, printed first).") var seed: UInt64?
        @Option(help: "Requests in all.") var operations = 10_000
        @Option(help: "SIGKILLs and restarts of the server.") var kills = 3
        @Option(help: "Run at every other kill (and fault), such as 'pg_ctl restart -m fast'.") var restartDatabase:
            String?
        @Option(
            help:
                "PostgreSQL faults with the server left running: its backends terminated (every other time, the restart)."
        )
        var faults = 0
        @Option(help: "Clients at once.") var concurrency = 8

        func run() async throws {
            var configuration = try loadConfiguration()
            var options = ChaosBench.Options()
            if let seed { options.seed = seed }
            (options.operations, options.kills, options.restartDatabase, options.concurrency) = (
                operations, kills, restartDatabase, concurrency
            )
            options.faults = faults
            var file: String?
            if !databaseConfigured() {
                let path = FileManager.default.currentDirectoryPath + "/plaza-chaos-\(options.seed).sqlite"
                // A run of the same seed starts afresh (a failed run keeps its file to look at, until then).
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                (file, configuration.storage) = (path, .sqlite(path: path))
            }
            let clean: Bool
            do {
                clean = try await ChaosBench(configuration: configuration, options: options).run {
                    // Unbuffered, line by line: a run that hangs still shows how far it got.
                    FileHandle.standardOutput.write(Data(($0 + "\n").utf8))
                }
            } catch {
                print("chaos: could not run: \(error)")
                throw ExitCode(2)
            }
            if let file {
                if clean {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
                } else {
                    print("chaos: the database is kept at \(file)")
                }
            }
            if !clean { throw ExitCode(1) }
        }
    }

    struct Auth: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Log-ins per second over HTTP, beside raw bcrypt verifications per second."
        )

        @Option(help: "How many log-ins to time.") var logins = 64
        @Option(help: "Log-ins in flight at once.") var concurrency = 4
        @Option(help: "bcrypt cost (default: PLAZA_BCRYPT_COST or 12).") var cost: Int?

        func run() async throws {
            var configuration = try loadConfiguration()
            if let cost { configuration.bcryptCost = cost }
            let report = try await AuthBench(configuration: configuration, logins: logins, concurrency: concurrency)
                .run()
            print(report)
        }
    }

    struct Geo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Location updates and presence/nearby queries per second over HTTP, beside Redis GEO and PostGIS on the same data.",
            discussion:
                "scripts/bench-geo starts Redis and a PostGIS-enabled PostgreSQL and runs this on SQLite and PostgreSQL."
        )

        @Option(help: "People in the town.") var users = 1_000_000
        @Option(help: "Side of the square town, metres.") var box = 20_000.0
        @Option(help: "Requests in flight at once, for Plaza and every peer.") var concurrency = 8
        @Option(help: "Requests per measured row.") var requests = 4_000
        @Option(help: "Port of a Redis server to compare with (GEOADD / GEOSEARCH).") var redisPort: Int?
        @Option(help: "PostgreSQL URL of a database with PostGIS to compare with (ST_DWithin).") var postgisURL: String?
        @Option(help: "HTTP client for Plaza's rows: nio (light, the default) or async-http-client.") var httpClient =
            BenchHTTPClient.nio
        @Flag(help: "Print each shop where the systems found different people.") var showDisagreements = false

        func run() async throws {
            var options = GeoBench.Options()
            options.showDisagreements = showDisagreements
            options.users = users
            options.boxMeters = box
            options.concurrency = concurrency
            options.requests = requests
            options.redisPort = redisPort
            options.postgisURL = postgisURL.flatMap(URL.init(string:))
            options.httpClient = httpClient
            print(try await GeoBench(configuration: try loadConfiguration(), options: options).run())
        }
    }

    struct LiveIndexMemory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "live-index",
            abstract: "Memory per live position in the live index, beside Redis holding the same people in a GEO set."
        )

        @Option(help: "Live positions.") var people = 1_000_000
        @Option(help: "Side of the square town, metres.") var box = 20_000.0
        @Option(help: "Port of a Redis server to compare with (GEOADD, INFO memory).") var redisPort: Int?

        func run() async throws {
            var options = LiveIndexBench.Options()
            (options.people, options.boxMeters, options.redisPort) = (people, box, redisPort)
            print(try await LiveIndexBench(options: options).run())
        }
    }

    struct LedgerTransfers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ledger",
            abstract:
                "Transfers per second over HTTP between funded accounts, beside the same SQL run directly (SQLite loop or pgbench).",
            discussion: "scripts/bench-ledger runs this on SQLite and on PostgreSQL from a release build."
        )

        @Option(help: "Funded accounts.") var accounts = 10_000
        @Option(help: "Transfers per measured row.") var transfers = 20_000
        @Option(help: "Clients in flight at once (HTTP and pgbench).") var concurrency = 32
        @Option(help: "Accounts in half of the pairs of the hot rows.") var hot = 10
        @Option(help: "pgbench's path (default: the newest under /usr/lib/postgresql).") var pgbench: String?
        @Option(help: "Turns Plaza and its peer take per row.") var rounds = 4
        @Option(help: "HTTP client for Plaza's rows: nio (light, the default) or async-http-client.") var httpClient =
            BenchHTTPClient.nio

        func run() async throws {
            var options = LedgerBench.Options()
            options.accounts = accounts
            options.transfers = transfers
            options.concurrency = concurrency
            options.hotAccounts = hot
            options.pgbench = pgbench
            options.rounds = rounds
            options.httpClient = httpClient
            print(try await LedgerBench(configuration: try loadConfiguration(), options: options).run())
        }
    }
}

extension BenchHTTPClient: ExpressibleByArgument {}
