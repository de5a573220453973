import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// The admin console's API: admins only, every action in the audit log, a suspended person told why and signed out.
@Suite struct AdminTests {
    /// The admin `TestPlaza.withApp` makes as `plaza admin create` does, signed in through the API.
    static func admin(_ client: any TestClientProtocol, _ services: PlazaServices) async throws -> String {
        try await AccountsDriver(client).login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
    }

    @Test func everyAdminRouteIsForAdminsOnly() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let accounts = AccountsDriver(client)
            let customer = try await accounts.signedIn("anna").accessToken
            let merchant = try await accounts.signedIn("bruno", role: .merchant).accessToken
            let admin = try await Self.admin(client, services)
            let id = try await client.send(.get, "/v1/me", token: customer).decode(User.self).id
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/v1/admin/users?q=a"), (.get, "/v1/admin/users/\(id)"),
                (.post, "/v1/admin/users/\(id)/suspend"),
                (.post, "/v1/admin/users/\(id)/reinstate"), (.put, "/v1/admin/users/\(id)/role"),
                (.get, "/v1/admin/audit-log"),
                (.get, "/v1/admin/audit-log.csv"), (.get, "/v1/admin/review-queue"),
                (.get, "/v1/admin/review-queue/\(id)"),
                (.post, "/v1/admin/review-queue/\(id)/claim"), (.post, "/v1/admin/review-queue/\(id)/release"),
                (.post, "/v1/admin/review-queue/\(id)/approve"), (.post, "/v1/admin/review-queue/\(id)/reject"),
            ]
            for (method, path) in routes {
                #expect(try await client.send(method, path).status == .unauthorized, "\(path) signed out")
                #expect(
                    try await client.send(method, path, token: customer).status == .forbidden,
                    "\(path) as a customer"
                )
                #expect(
                    try await client.send(method, path, token: merchant).status == .forbidden,
                    "\(path) as a merchant"
                )
            }
            #expect(
                try await client.send(.get, "/v1/admin/users?q=ANN", token: admin).decode(Page<AdminUser>.self).items
                    .map(\.username) == ["anna"]
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aSuspendedPersonIsToldWhyAndSignedOutEverywhere(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let admin = try await Self.admin(client, services)
            let id = try await client.send(.get, "/v1/me", token: anna).decode(User.self).id
            let rootID = try await client.send(.get, "/v1/me", token: admin).decode(User.self).id

            let short = try await client.send(
                .post,
                "/v1/admin/users/\(id)/suspend",
                json: SuspendRequest(reason: "x"),
                token: admin
            )
            #expect(short.problem?.errors?.first?.field == "reason")
            let own = try await client.send(
                .post,
                "/v1/admin/users/\(rootID)/suspend",
                json: SuspendRequest(reason: "testing myself"),
                token: admin
            )
            #expect(own.status == .conflict)

            let suspended = try await client.send(
                .post,
                "/v1/admin/users/\(id)/suspend",
                json: SuspendRequest(reason: "Selling counterfeit tickets"),
                token: admin
            ).decode(AdminUser.self)
            #expect(suspended.suspendedAt != nil && suspended.suspensionReason == "Selling counterfeit tickets")
            #expect(try await client.send(.get, "/v1/me", token: anna).status == .unauthorized, "her sessions ended")
            let refused = try await accounts.login("anna")
            #expect(refused.status == .forbidden && refused.problem?.code == .accountSuspended)
            #expect(refused.problem?.detail?.contains("Selling counterfeit tickets") == true)
            #expect(
                try await accounts.login("anna", password: "a wrong guess").problem?.code == .invalidCredentials,
                "tells a guesser nothing"
            )

            _ = try await client.send(.post, "/v1/admin/users/\(id)/reinstate", token: admin)
            #expect(try await accounts.login("anna").status == .ok)
            let changed = try await client.send(
                .put,
                "/v1/admin/users/\(id)/role",
                json: RoleChange(role: .merchant),
                token: admin
            )
            #expect(try changed.decode(AdminUser.self).role == .merchant)

            let log = try await client.send(.get, "/v1/admin/audit-log?limit=2", token: admin).decode(
                Page<AuditEntry>.self
            )
            #expect(
                log.items.map(\.action) == ["user.role", "user.reinstate"]
                    && log.items.first?.detail == "customer → merchant"
            )
            let cursor = try #require(log.nextCursor).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let older = try await client.send(.get, "/v1/admin/audit-log?cursor=\(cursor)", token: admin)
                .decode(Page<AuditEntry>.self)
            #expect(
                older.items.map(\.action) == ["user.suspend"]
                    && older.items.first?.reason == "Selling counterfeit tickets"
            )
            #expect(older.items.first?.admin == "root" && older.items.first?.objectId == id.uuidString.lowercased())
            let csv = try await client.send(.get, "/v1/admin/audit-log.csv", token: admin)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true && csv.text.contains("user.suspend,user,"))

            // Written once, kept: the database itself refuses to change or remove an entry.
            await #expect(throws: (any Error).self) {
                try await services.database.sql.raw("UPDATE audit_log SET reason = 'nothing happened'").run()
            }
            await #expect(throws: (any Error).self) {
                try await services.database.sql.raw("DELETE FROM audit_log").run()
            }
            #expect(
                try await client.send(.get, "/v1/admin/audit-log", token: admin).decode(Page<AuditEntry>.self).items
                    .count == 3
            )
        }
    }
}
