import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// `GET /v1/admin/backups` and the console's Backups panel: admins see when the last copy was taken, how large it is
/// and whether it passed its check, and a folder that cannot be written shows there without stopping the server.
@Suite struct BackupAdminTests {
    @Test(arguments: TestEngine.enabled)
    func onlyAdminsSeeTheBackupsAndOffSaysSo(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let accounts = AccountsDriver(client)
            let customer = try await accounts.signedIn("anna").accessToken
            let merchant = try await accounts.signedIn("bruno", role: .merchant).accessToken
            let admin = try await AdminTests.admin(client, services)
            #expect(try await client.send(.get, "/v1/admin/backups").status == .unauthorized)
            #expect(try await client.send(.get, "/v1/admin/backups", token: customer).status == .forbidden)
            #expect(try await client.send(.get, "/v1/admin/backups", token: merchant).status == .forbidden)
            let off = try await client.send(.get, "/v1/admin/backups", token: admin)
            #expect(off.status == .ok)
            #expect(try off.decode(BackupList.self) == BackupList(every: nil, keep: nil, items: []))
            #expect(off.text.contains(#""every":null"#))

            let page = try await AdminAccountPagesTests().adminBrowser(client)
            let panel = try await page.get("/admin/backups").text
            #expect(panel.contains("data-backups-off"))
            #expect(panel.contains(engine == .postgres ? "pg_dump" : "PLAZA_BACKUP_DIR"))
            let home = try await page.get("/admin").text
            #expect(home.contains(#"href="/admin/backups""#), "the console's tabs lead there")
            let anna = PageSession(client)
            _ = try await anna.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            #expect(try await anna.get("/admin/backups").status == .forbidden)
        }
    }

    /// The real loop with a one-second interval (the environment allows a minute at least; the test sets it directly).
    @Test func theServerKeepsCopiesOnTimeAndTheConsoleShowsTheLast() async throws {
        let folder = try BackupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestPlaza.withApp(.sqlite, configure: BackupTests.configure(folder, every: 1, keep: 2)) {
            client,
            services in
            let admin = try await AdminTests.admin(client, services)
            var list = BackupList(every: nil, keep: nil, items: [])
            var first: String?
            for _ in 0..<100 {
                list = try await client.send(.get, "/v1/admin/backups", token: admin).decode(BackupList.self)
                first = first ?? list.items.last?.name
                // A third copy at least: the first has gone.
                if let first, list.items.count == 2, !list.items.map(\.name).contains(first) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(first != nil && !list.items.map(\.name).contains(first ?? ""), "the oldest copy was removed")
            #expect(list.every == 1 && list.keep == 2)
            #expect(list.items.count == 2)
            #expect(list.items.allSatisfy { $0.check == .ok && $0.bytes > 0 && $0.name.hasSuffix(".sqlite") })
            #expect(list.items.map(\.createdAt) == list.items.map(\.createdAt).sorted(by: >), "newest first")
            #expect(list.lastFailure == nil)

            let page = try await AdminAccountPagesTests().adminBrowser(client)
            let panel = try await page.get("/admin/backups").text
            #expect(panel.contains("Last backup"))
            #expect(panel.contains("Checked: ok"))
            // The page read the folder after the list did: its last copy is the list's newest or a newer one.
            let shown = try #require(
                panel.firstMatch(of: #/<dt>File</dt><dd translate="no">(plaza-[0-9TZ]+\.sqlite)</dd>/#)?.output.1
            )
            #expect(String(shown) >= list.items[0].name)
        }
    }

    @Test func aFolderThatCannotBeWrittenShowsThereAndTheServerServesOn() async throws {
        let folder = try BackupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A file where the folder's parent should be: no user, root included, can make the folder.
        let blocker = folder.appendingPathComponent("not-a-folder")
        _ = FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8))
        let target = blocker.appendingPathComponent("backups")
        try await TestPlaza.withApp(.sqlite, configure: BackupTests.configure(target, every: 1)) { client, services in
            let admin = try await AdminTests.admin(client, services)
            var list = BackupList(every: nil, keep: nil, items: [])
            for _ in 0..<100 where list.lastFailure == nil {
                list = try await client.send(.get, "/v1/admin/backups", token: admin).decode(BackupList.self)
                if list.lastFailure == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let failure = try #require(list.lastFailure)
            #expect(failure.reason.contains(target.path))
            #expect(list.items.isEmpty && list.every == 1)
            // Tried again at the next interval (a second; on a loaded machine later), and serving all along.
            var later = list
            for _ in 0..<300 where (later.lastFailure?.at ?? .distantPast) <= failure.at {
                try await Task.sleep(for: .milliseconds(100))
                later = try await client.send(.get, "/v1/admin/backups", token: admin).decode(BackupList.self)
            }
            #expect((later.lastFailure?.at ?? .distantPast) > failure.at)
            #expect(try await client.send(.get, "/healthz").status == .ok)

            let page = try await AdminAccountPagesTests().adminBrowser(client)
            let panel = try await page.get("/admin/backups").text
            #expect(panel.contains("data-backup-failure"))
            #expect(panel.contains("No backup yet."))
        }
    }
}
