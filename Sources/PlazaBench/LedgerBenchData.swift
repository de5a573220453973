import Foundation
import PlazaCore
import PlazaDemo
import PlazaServer
import SQLKit

/// The ledger bench's people: verified users `bench0`, `bench1`, … ordered by id (so account n sorts as n does in SQL too),
/// each funded through the ledger and holding a session token.
enum LedgerBenchData {
    struct User: Sendable {
        var id: UUID
        var username: String
        var token: String
    }

    static func seed(accounts: Int, funding: Int64, services: PlazaServices) async throws -> [User] {
        var random = BenchRandom(seed: 2026)
        let ids = (0..<accounts).map { _ in random.uuid() }.sorted { $0.uuidString < $1.uuidString }
        let now = Date()
        let tokens = await AccessTokens(secretKey: services.configuration.secretKey ?? "", lifetime: 3 * 3_600)
        var users: [User] = []
        for start in stride(from: 0, to: ids.count, by: 1_000) {
            let chunk = Array(
                ids[start..<min(start + 1_000, ids.count)].enumerated().map { (start + $0.offset, $0.element) }
            )
            let sessions = try await services.database.transaction { db in
                var sessions: [(UUID, UUID)] = []
                for (index, id) in chunk {
                    try await AccountStore().insert(
                        UserRecord(
                            id: id,
                            email: "bench\(index)@bench.invalid",
                            username: "bench\(index)",
                            displayName: "Bench \(index)",
                            passwordHash: "",
                            role: .customer,
                            emailVerified: true,
                            now: now
                        ),
                        on: db
                    )
                    let session = try await SessionStore().create(
                        userID: id,
                        kind: .api,
                        device: "bench",
                        now: now,
                        expires: now.addingTimeInterval(86_400),
                        on: db
                    )
                    sessions.append((id, session))
                }
                // One funding entry per thousand people, from the processor's clearing account.
                try await LedgerStore().post(
                    JournalEntry(
                        kind: "top_up",
                        referenceId: UUID(),
                        currency: "USD",
                        postings: [
                            Posting(
                                owner: SystemAccount.gatewayClearing,
                                kind: .system,
                                amount: -funding * Int64(chunk.count)
                            )
                        ]
                            + chunk.map { Posting(owner: $0.1, kind: .user, amount: funding) },
                        createdAt: now
                    ),
                    on: db
                )
                return sessions
            }
            for (offset, (id, session)) in sessions.enumerated() {
                users.append(
                    User(
                        id: id,
                        username: "bench\(start + offset)",
                        token: try await tokens.issue(userID: id, sessionID: session)
                    )
                )
            }
        }
        return users
    }
}
