import Foundation
import PlazaDemo
import PlazaServer
import SQLKit

/// The PostgreSQL peer of `plaza bench ledger`: pgbench running the SQL of a Plaza transfer (conditional debit and
/// credit in id order, journal entry, postings, both sides' activity) as a custom script on the same database,
/// with as many clients; account numbers map to owners through a `bench_accounts` table.
struct LedgerPgbench {
    let path: String
    let url: URL
    let directory: URL

    static func find() -> String? {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin/pgbench" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    func prepare(users: [LedgerBenchData.User], on database: PlazaDatabase) async throws {
        try await database.sql.raw("DROP TABLE IF EXISTS bench_accounts").run()
        try await database.sql.raw("CREATE TABLE bench_accounts (n INT PRIMARY KEY, owner UUID NOT NULL)").run()
        for start in stride(from: 0, to: users.count, by: 1_000) {
            var insert = database.sql.insert(into: "bench_accounts").columns("n", "owner")
            for index in start..<min(start + 1_000, users.count) {
                insert = insert.values(SQLBind(index + 1), SQLBind(users[index].id))
            }
            try await insert.run()
        }
    }

    static func script(hot: Bool) -> String {
        let debit = """
            UPDATE wallet_accounts SET balance = balance - (:amount)::bigint, updated_at = now() \
            WHERE owner_id = (SELECT owner FROM bench_accounts WHERE n = :from) AND currency = 'USD' AND balance >= (:amount)::bigint;
            """
        let credit = """
            INSERT INTO wallet_accounts (owner_id, currency, kind, balance, updated_at) \
            VALUES ((SELECT owner FROM bench_accounts WHERE n = :to), 'USD', 'user', (:amount)::bigint, now()) \
            ON CONFLICT (owner_id, currency) DO UPDATE SET balance = wallet_accounts.balance + excluded.balance, updated_at = excluded.updated_at;
            """
        let pick =
            hot
            ? """
            \\set r random(0, 1)
            \\if :r = 0
            \\set from random(1, :hot)
            \\else
            \\set from random(1, :accounts)
            \\endif
            \\set r random(0, 1)
            \\if :r = 0
            \\set to random(1, :hot)
            \\else
            \\set to 1 + ((:from - 1) + random(1, :accounts - 1)) % :accounts
            \\endif
            \\if :to = :from
            \\set to 1 + (:from % :accounts)
            \\endif
            """
            : """
            \\set from random(1, :accounts)
            \\set to 1 + ((:from - 1) + random(1, :accounts - 1)) % :accounts
            """
        return """
            \(pick)
            \\set amount random(1, 100)
            BEGIN;
            \\if :from < :to
            \(debit)
            \(credit)
            \\else
            \(credit)
            \(debit)
            \\endif
            WITH e AS (INSERT INTO journal_entries (id, kind, reference_id, created_at) VALUES (gen_random_uuid(), 'transfer', gen_random_uuid(), now()) RETURNING id, reference_id), \
            p AS (INSERT INTO postings (entry_id, owner_id, currency, amount) \
            SELECT e.id, a.owner, 'USD', CASE WHEN a.n = :from THEN -(:amount)::bigint ELSE (:amount)::bigint END FROM e, bench_accounts a WHERE a.n IN (:from, :to)) \
            INSERT INTO wallet_activity (id, owner_id, kind, amount, currency, status, counterpart_kind, counterpart_id, counterpart_username, counterpart_name, note, reference_id, created_at) \
            SELECT gen_random_uuid(), a.owner, CASE WHEN a.n = :from THEN 'transfer_out' ELSE 'transfer_in' END, \
            CASE WHEN a.n = :from THEN -(:amount)::bigint ELSE (:amount)::bigint END, 'USD', 'succeeded', 'user', b.owner, 'bench' || (b.n - 1), 'bench' || (b.n - 1), NULL, e.reference_id, now() \
            FROM e, bench_accounts a, bench_accounts b WHERE a.n IN (:from, :to) AND b.n IN (:from, :to) AND a.n <> b.n;
            END;

            """
    }

    func run(transfers: Int, clients: Int, accounts: Int, hot: Int?) throws -> LoadMeter.Result {
        let name = hot == nil ? "uniform" : "hot"
        let script = directory.appendingPathComponent("transfer-\(name).sql")
        try Self.script(hot: hot != nil).write(to: script, atomically: true, encoding: .utf8)
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        let searchPath = components.queryItems?.first { $0.name == "search_path" }?.value
        components.queryItems = [URLQueryItem(name: "sslmode", value: "disable")]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.currentDirectoryURL = directory
        process.arguments = [
            "-n", "-M", "prepared", "-c", String(clients), "-j", "2", "-t", String(max(1, transfers / clients)), "-D",
            "accounts=\(accounts)",
            "-D", "hot=\(hot ?? 1)", "-l", "--log-prefix", "pgb-\(name)", "-f", script.path,
            components.url!.absoluteString,
        ]
        var environment = ProcessInfo.processInfo.environment
        if let searchPath { environment["PGOPTIONS"] = "-c search_path=\(searchPath)" }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
            let tps = Double(line.dropFirst(6).prefix { $0 != " " })
        else { throw HTTPPool.BenchFailure(description: "pgbench failed:\n\(text)") }
        // Per-transaction log lines: client, transaction, latency in µs, ...
        var latencies: [Double] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file.hasPrefix("pgb-\(name).") {
            let log = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for entry in log.split(separator: "\n") {
                let fields = entry.split(separator: " ")
                if fields.count > 2, let micros = Double(fields[2]) { latencies.append(micros / 1_000) }
            }
            try FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
        return LoadMeter.Result(
            operations: latencies.count,
            seconds: Double(latencies.count) / tps,
            latencies: latencies
        )
    }
}
