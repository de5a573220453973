import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// `plaza verify`: real objects made through the API verify clean; each invariant broken by hand in the database is
/// named by its kind and the broken object's id, and nothing else is; the command exits 1 naming it, 2 without a
/// database.
@Suite struct VerifyTests {
    /// What verify finds, as `kind id` (no pause before the second read: nothing changes meanwhile here).
    static func found(_ services: PlazaServices) async throws -> Set<String> {
        Set(try await services.verify(recheckAfter: .zero).findings.map { "\($0.kind.rawValue) \($0.id)" })
    }

    static func sql(_ services: PlazaServices, _ statement: SQLQueryString) async throws {
        try await services.database.sql.raw(statement).run()
    }

    static func name(_ id: UUID) -> String { id.uuidString.lowercased() }

    @Test(arguments: TestEngine.enabled)
    func heldMoneyBidsAndAnswersOfTheMarket(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            let offer = try await DealTests.acceptedDeal(client, market, paid: true)
            let poster = try await BiddingTests.biddable(
                client,
                market.ana,
                start: 2_000,
                reserve: nil,
                endsAt: Date().addingTimeInterval(3_600)
            )
            #expect(try await BiddingTests.bid(client, market.ben, poster.id, 5_000).status == .created)
            #expect(try await BiddingTests.bid(client, market.cal, poster.id, 3_000).status == .created)
            let report = try await services.verify(recheckAfter: .zero)
            #expect(report.findings == [] && report.checks == VerifyKind.allCases.count)
            #expect(report.description == "verify: 10 checks, everything holds")

            // Money held on an offer someone cancelled behind the rules' back.
            try await Self.sql(services, "UPDATE market_offers SET state = 'cancelled' WHERE id = \(bind: offer.id)")
            #expect(try await Self.found(services) == ["escrow_held \(Self.name(offer.id))"])
            let line = try await services.verify(recheckAfter: .zero).findings.first?.description
            #expect(line == "escrow_held \(Self.name(offer.id)): payment held on a cancelled offer, 80.00 USD")
            try await Self.sql(services, "UPDATE market_offers SET state = 'accepted' WHERE id = \(bind: offer.id)")

            // The hold account with a dollar no payment holds: its balance is off its journal too.
            let hold = SystemAccount.marketHolds
            try await Self.sql(
                services,
                "UPDATE wallet_accounts SET balance = balance + 100 WHERE owner_id = \(bind: hold)"
            )
            #expect(try await Self.found(services) == ["escrow_total USD", "ledger_balance \(Self.name(hold)) USD"])
            try await Self.sql(
                services,
                "UPDATE wallet_accounts SET balance = balance - 100 WHERE owner_id = \(bind: hold)"
            )

            // The auction's count behind its steps, then another leader than the steps show.
            try await Self.sql(services, "UPDATE listings SET bidding_count = 1 WHERE id = \(bind: poster.id)")
            #expect(try await Self.found(services) == ["bid_count \(Self.name(poster.id))"])
            try await Self.sql(services, "UPDATE listings SET bidding_count = 2 WHERE id = \(bind: poster.id)")
            let cal = try #require(
                try await services.database.sql.raw("SELECT id FROM users WHERE username = 'cal'").first()
            ).decode(
                column: "id",
                as: UUID.self
            )
            try await Self.sql(
                services,
                "UPDATE listings SET bidding_leader = \(bind: cal) WHERE id = \(bind: poster.id)"
            )
            #expect(try await Self.found(services) == ["bid_leader \(Self.name(poster.id))"])
            try await Self.sql(services, "UPDATE listings SET bidding_leader_max = 1000 WHERE id = \(bind: poster.id)")
            #expect(try await Self.found(services) == ["bid_leader \(Self.name(poster.id))"])

            // A top-up's kept answer that says another amount than the top-up.
            let rows = try await services.database.sql.raw("SELECT scope, \(ident: "key"), body FROM idempotency_keys")
                .all()
            let (key, body) = try #require(
                try rows.map {
                    (
                        try $0.decode(column: "key", as: String.self),
                        try $0.decode(column: "body", as: String?.self) ?? ""
                    )
                }
                .first { $0.1.contains("cardBrand") }
            )
            var answer = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            answer["amount"] = 1
            let changed = String(decoding: try JSONSerialization.data(withJSONObject: answer), as: UTF8.self)
            try await Self.sql(
                services,
                "UPDATE idempotency_keys SET body = \(bind: changed) WHERE \(ident: "key") = \(bind: key)"
            )
            #expect(
                try await Self.found(services) == ["bid_leader \(Self.name(poster.id))", "idempotency_answer \(key)"]
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aPaidCardOrderHasItsOneCharge(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await CardOrderTests.shopper(client, services)
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 25)
            )
            let proof = try await CardOrderTests.proof(client, s.token, s.design.id)
            let order = try await CardOrderTests.order(client, s.token, proofs: [proof]).decode(CardOrder.self)
            #expect(try await CardOrderTests.pay(client, s.token, order).status == .ok)
            #expect(try await Self.found(services) == [])

            // The order's charge booked as a refund: a paid order without its charge (the ledger itself still balances).
            try await Self.sql(
                services,
                "UPDATE journal_entries SET kind = 'card_refund' WHERE reference_id = \(bind: order.id)"
            )
            #expect(try await Self.found(services) == ["card_order_payment \(Self.name(order.id))"])
            try await Self.sql(
                services,
                "UPDATE journal_entries SET kind = 'card_order' WHERE reference_id = \(bind: order.id)"
            )
            // Cancelled as if it had never been paid: its charge is then money taken for nothing.
            try await Self.sql(
                services,
                "UPDATE card_orders SET status = 'cancelled', paid_at = NULL WHERE id = \(bind: order.id)"
            )
            #expect(try await Self.found(services) == ["card_order_payment \(Self.name(order.id))"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aCouponIsClaimedWithinItsCapAndRedeemedByItsCharge(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (shop, campaign, anna, claim) = try await CouponChargeTests().claimed(client, services)
            let wallet = WalletDriver(client)
            let charge = try await wallet.charge(
                business: shop.business,
                customer: "anna",
                1_200,
                coupon: claim.code,
                token: shop.owner
            )
            .decode(Charge.self)
            #expect(try await wallet.approve(charge, token: anna).status == .ok)
            #expect(try await Self.found(services) == [])

            try await Self.sql(services, "UPDATE campaigns SET claimed = claimed + 1 WHERE id = \(bind: campaign)")
            #expect(try await Self.found(services) == ["coupon_claims \(Self.name(campaign))"])
            try await Self.sql(services, "UPDATE campaigns SET claimed = claimed - 1 WHERE id = \(bind: campaign)")

            // The charge that redeemed it, declined after all.
            try await Self.sql(services, "UPDATE charges SET status = 'declined' WHERE id = \(bind: charge.id)")
            #expect(try await Self.found(services) == ["coupon_redemption \(Self.name(claim.id))"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aCardCountsItsPunches(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let loyalty = LoyaltyTests()
            let shop = try await loyalty.shop(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await loyalty.takeCard(client, shop.program, token: anna)
            let punch = PunchSubmission(cardId: card.id, token: try await loyalty.token(client, shop).token)
            _ = try await loyalty.sync(client, [punch], token: anna)
            #expect(try await Self.found(services) == [])

            try await Self.sql(services, "UPDATE loyalty_cards SET punches = punches + 1 WHERE id = \(bind: card.id)")
            #expect(try await Self.found(services) == ["punch_count \(Self.name(card.id))"])
        }
    }

    /// Punches paying earned count on the card; a refund's take-back that never reached the card is named.
    @Test(arguments: TestEngine.enabled)
    func aCardCountsThePunchesPayingEarned(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (business, bruno, anna, _) = try await LoyaltyPaymentTests.bakery(client)
            let allowed = try await client.send(
                .put,
                "/v1/me/loyalty-settings",
                json: LoyaltySettings(cardOnPayment: true),
                token: anna
            )
            #expect(allowed.status == .ok)
            let paid = try await LoyaltyPaymentTests.pay(client, 1_000, at: business, bruno: bruno, anna: anna)
            let card = try #require(paid.loyalty?.first?.cardId)
            #expect(try await Self.found(services) == [])

            try await Self.sql(
                services,
                "UPDATE loyalty_payment_punches SET taken_back = 1 WHERE card_id = \(bind: card)"
            )
            #expect(try await Self.found(services) == ["punch_count \(Self.name(card))"])
        }
    }

    /// The daily run beside the server: quiet while everything holds; once something breaks, every admin is alerted
    /// (by mail with the default preferences) with what broke and where to look.
    @Test(arguments: TestEngine.enabled)
    func theDailyRunAlertsTheAdminsOnlyWhenSomethingBreaks(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let accounts = AccountsDriver(client)
            let alerts = { @Sendable (wait: Bool) async throws -> [AccountsDriver.Mail] in
                _ = try await services.notifications.fanOutWaiting()
                // Mail leaves through the outbox's worker, a moment after the alert was filed.
                if wait {
                    _ = try await accounts.subjects(
                        to: "root@example.com",
                        until: { $0.contains { $0.hasPrefix("plaza") } }
                    )
                }
                return try await accounts.mails(to: "root@example.com").filter { $0.subject.hasPrefix("plaza verify") }
            }
            try await services.verifyAndAlert(recheckAfter: .zero)
            #expect(
                try await alerts(false).isEmpty,
                "nothing broken, nobody woken (a late alert would be counted below)"
            )

            // An account whose balance no posting explains.
            try await Self.sql(
                services,
                "INSERT INTO wallet_accounts (owner_id, currency, kind, balance, updated_at) VALUES (\(bind: UUID()), 'USD', 'user', 500, \(bind: Date()))"
            )
            try await services.verifyAndAlert(recheckAfter: .zero)
            let sent = try await alerts(true)
            #expect(sent.count == 1 && sent.first?.subject == "plaza verify: 1 problem", "\(sent.map(\.subject))")
            #expect(sent.first?.text.contains("ledger_balance") == true && sent.first?.text.contains("/admin") == true)
        }
    }

    /// `plaza verify` on `storage` (SQLite): its exit status, standard output and standard error.
    static func run(_ path: String) async throws -> (status: Int32, output: String, error: String) {
        let child = Process()
        child.executableURL = try ChildPlaza.binary()
        child.arguments = ["verify"]
        var environment = ProcessInfo.processInfo.environment
        environment["PLAZA_DATABASE_URL"] = "sqlite:\(path)"
        environment["PLAZA_MODE"] = "dev"
        environment["PLAZA_LOG_LEVEL"] = "error"
        environment.removeValue(forKey: "PLAZA_SECRET_KEY")
        child.environment = environment
        let (output, error) = (Pipe(), Pipe())
        (child.standardOutput, child.standardError) = (output, error)
        try child.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while child.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let text = { (pipe: Pipe) in String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        return (child.terminationStatus, text(output), text(error))
    }

    @Test func theCommandNamesWhatIsBrokenAndNeverMakesADatabase() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-verify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("plaza.sqlite").path
        let none = try await Self.run(missing)
        #expect(none.status == 2 && none.error.contains("no database"), "\(none)")
        #expect(!FileManager.default.fileExists(atPath: missing), "no database is made")

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let empty = folder.appendingPathComponent("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        let unmigrated = try await Self.run(empty)
        #expect(unmigrated.status == 2 && unmigrated.error.contains("not migrated"), "\(unmigrated)")

        try await TestPlaza.withPreparedStorage(.sqlite, accounts: []) { storage, _ in
            guard case .sqlite(let path) = storage else { return }
            let clean = try await Self.run(path)
            #expect(clean.status == 0 && clean.output == "verify: 10 checks, everything holds\n", "\(clean)")

            // An account whose balance no posting explains.
            let owner = UUID()
            let services = try await PlazaServices.open(
                TestPlaza.configuration(storage: storage),
                logger: .init(label: "verify-test")
            )
            try await services.database.sql.raw(
                "INSERT INTO wallet_accounts (owner_id, currency, kind, balance, updated_at) VALUES (\(bind: owner), 'USD', 'user', 500, \(bind: Date()))"
            ).run()
            try await services.database.close()
            let broken = try await Self.run(path)
            #expect(broken.status == 1, "\(broken)")
            #expect(
                broken.output
                    == "ledger_balance \(Self.name(owner)) USD: cached balance 500, postings sum to 0\nverify: 10 checks, 1 problem\n"
            )
        }
    }
}
