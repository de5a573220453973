import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

@Suite struct TransferTests {
    /// Anna and Ben signed in, Anna with `annaHas` in her wallet: their access tokens.
    static func annaAndBen(
        _ client: any TestClientProtocol,
        annaHas funding: Int64
    ) async throws -> (anna: String, ben: String) {
        let accounts = AccountsDriver(client)
        let anna = try await accounts.signedIn("anna").accessToken
        let ben = try await accounts.signedIn("ben").accessToken
        try await WalletDriver(client).fund(funding, token: anna)
        return (anna, ben)
    }

    @Test(arguments: TestEngine.enabled)
    func moneyMovesAtOnceAndBothSidesSeeIt(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (anna, ben) = try await Self.annaAndBen(client, annaHas: 5_000)
            let response = try await wallet.transfer(to: "Ben", 1_250, note: "pizza", token: anna)
            #expect(response.status == .created)
            let transfer = try response.decode(Transfer.self)
            #expect(transfer.to.username == "ben" && transfer.from.username == "anna" && transfer.note == "pizza")
            #expect(try await wallet.balance(token: anna) == 3_750)
            #expect(try await wallet.balance(token: ben) == 1_250)
            let received = try await wallet.activity(token: ben).items
            #expect(received.count == 1)
            #expect(
                received.first?.kind == .transferIn && received.first?.amount == 1_250
                    && received.first?.counterpart.username == "anna"
            )
            let sent = try await wallet.activity("?kind=transfer_out", token: anna).items
            #expect(sent.map(\.amount) == [-1_250])
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func moreThanTheBalanceMovesNothing(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (anna, ben) = try await Self.annaAndBen(client, annaHas: 1_000)
            let response = try await wallet.transfer(to: "ben", 1_001, token: anna)
            #expect(response.status == .unprocessableContent)
            #expect(response.problem?.code == .insufficientFunds)
            #expect(try await wallet.balance(token: anna) == 1_000)
            #expect(try await wallet.balance(token: ben) == 0)
            #expect(try await wallet.activity(token: ben).items.isEmpty)
        }
    }

    /// A transfer whose key was claimed before it ran (its first try's key vanished, pruned, between the try and the
    /// retry) records its response into that claim, in the transaction that moves the money; a claim that no longer
    /// holds its key moves nothing.
    @Test(arguments: TestEngine.enabled)
    func aHeldClaimRecordsWithTheMoneyAndALostOneMovesNothing(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (anna, ben) = try await Self.annaAndBen(client, annaHas: 1_000)
            let identity = try #require(try await services.accounts.identity(bearer: anna))
            let request = TransferRequest(to: "ben", amount: 300, currency: "USD")
            guard
                case .started(let claim) = try await services.idempotency.start(
                    scope: "test",
                    key: "held",
                    requestHash: "h",
                    lease: 30
                )
            else {
                Issue.record("the key was not free")
                return
            }
            let sent = try await services.wallet.transfer(identity, request, claim: claim)
            #expect(claim.recorded)
            guard
                case .replay(let status, _, let body) = try await services.idempotency.start(
                    scope: "test",
                    key: "held",
                    requestHash: "h",
                    lease: 30
                )
            else {
                Issue.record("the response was not stored with the key")
                return
            }
            #expect(status == 201 && body == sent.json)

            let lost = IdempotencyClaim(scope: "test", key: "never-claimed", requestHash: "h")
            await #expect(throws: PlazaError.self) {
                try await services.wallet.transfer(identity, request, claim: lost)
            }
            #expect(try await wallet.balance(token: anna) == 700)
            #expect(try await wallet.balance(token: ben) == 300)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test func unknownRecipientsYourselfAndBadAmountsAreNamed() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            #expect(try await wallet.transfer(to: "nobody", 100, token: anna).problem?.errors?.map(\.field) == ["to"])
            #expect(try await wallet.transfer(to: "anna", 100, token: anna).problem?.errors?.map(\.field) == ["to"])
            #expect(try await wallet.transfer(to: "ben", -5, token: anna).problem?.errors?.map(\.field) == ["amount"])
            let malformed = try await client.sendRaw(
                .post,
                "/v1/transfers",
                body: #"{"to":"ben","amount":12.5,"currency":"USD"}"#,
                token: anna
            )
            // Foundation reports a fraction in an integer without its path; Plaza still names the field.
            #expect(malformed.status == .unprocessableContent && malformed.problem?.errors?.map(\.field) == ["amount"])
            #expect(try await wallet.transfer(to: "ben\u{0}", 100, token: anna).problem?.errors?.map(\.field) == ["to"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aRetryWithTheSameKeyPaysOnceEvenAtOnceAndAnotherBodyIsRefused(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (anna, ben) = try await Self.annaAndBen(client, annaHas: 1_000)
            let first = try await wallet.transfer(to: "ben", 400, key: "rent-1", token: anna)
            let retry = try await wallet.transfer(to: "ben", 400, key: "rent-1", token: anna)
            #expect(first.status == .created && retry.status == .created)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try retry.decode(Transfer.self).id == first.decode(Transfer.self).id)
            #expect(try await wallet.balance(token: ben) == 400)
            let other = try await wallet.transfer(to: "ben", 500, key: "rent-1", token: anna)
            #expect(other.status == .unprocessableContent && other.problem?.code == .idempotencyKeyReused)
            #expect(try await wallet.balance(token: ben) == 400)
            // Twins sent at once (a client that gave up waiting and resent): one transfer, the same answer twice.
            async let twin1 = wallet.transfer(to: "ben", 100, key: "lunch-1", token: anna)
            async let twin2 = wallet.transfer(to: "ben", 100, key: "lunch-1", token: anna)
            let (a, b) = try await (twin1, twin2)
            #expect(a.status == .created && b.status == .created)
            #expect(try a.decode(Transfer.self).id == b.decode(Transfer.self).id)
            #expect(try await wallet.balance(token: ben) == 500)
            // A refusal is remembered too: the same key answers the same way even once the money is there.
            let refused = try await wallet.transfer(to: "ben", 900, key: "car-1", token: anna)
            #expect(refused.status == .unprocessableContent && refused.problem?.code == .insufficientFunds)
            try await wallet.fund(1_000, token: anna)
            let again = try await wallet.transfer(to: "ben", 900, key: "car-1", token: anna)
            #expect(
                again.problem?.code == .insufficientFunds
                    && again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true"
            )
            #expect(try await wallet.balance(token: ben) == 500)
        }
    }

    @Test func activityShowsThePastWeekOrTheLastTenAndPagesBack() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let (accounts, wallet) = (AccountsDriver(client), WalletDriver(client))
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await accounts.signedIn("ben")
            try await wallet.fund(10_000, token: anna)
            for amount in 1...12 {
                #expect(try await wallet.transfer(to: "ben", Int64(amount), token: anna).status == .created)
            }
            let first = try await wallet.activity(token: anna)
            #expect(first.items.map(\.amount) == (3...12).reversed().map { -Int64($0) })
            let cursor = try #require(first.nextCursor)
            let second = try await wallet.activity("?cursor=\(cursor)", token: anna)
            #expect(second.items.map(\.amount) == [-2, -1, 10_000])
            #expect(second.nextCursor == nil)
            let csv = try await client.send(.get, "/v1/activity.csv?kind=top_up", token: anna)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.text.split(separator: "\r\n").count == 2)
            #expect(csv.text.contains(",top_up,succeeded,100.00,USD,"))
        }
    }

    /// Spreadsheets split at `;` in some locales and read full-width `＝` as `=`: no cell may start a formula there.
    @Test(arguments: [
        ("=1+1", "'=1+1"), (";=1+1", ";'=1+1"), ("lunch; =HYPERLINK(\"x\")", "lunch; '=HYPERLINK(\"x\")"),
        ("＝1+1", "'＝1+1"),
        ("  @SUM(A1)", "  '@SUM(A1)"), ("a\t-2", "a\t'-2"), ("pizza -2 slices", "pizza -2 slices"), ("-", "'-"),
    ])
    func csvCellsNeverStartAFormula(_ note: String, _ shown: String) {
        #expect(CSV.guarded(note) == shown)
    }
}
