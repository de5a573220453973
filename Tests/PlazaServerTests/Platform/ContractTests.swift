import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// `openapi.yaml` is the contract: served as written, and every operation in it exists.
@Suite struct ContractTests {
    @Test func theServerServesTheRepositorysContract() async throws {
        let repository = try String(contentsOfFile: repositoryFile("openapi.yaml"), encoding: .utf8)
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let served = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(served.status == .ok)
            #expect(served.text == repository, "run scripts/sync-openapi after editing openapi.yaml")
        }
    }

    @Test func everyOperationOfTheContractIsRouted() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            for (method, path) in ProblemTests.operations {
                let response = try await client.sendRaw(method, path, body: "{}")
                let routed = !(response.status == .notFound && response.problem?.title == "No such page or endpoint.")
                #expect(routed, "\(method) \(path) is in openapi.yaml but not served")
            }
        }
    }

    @Test func theReferencePageListsEveryOperation() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let page = try await client.execute(uri: "/docs/api", method: .get)
            #expect(page.status == .ok)
            for (_, path) in ProblemTests.operations {
                #expect(page.text.contains(path.replacingOccurrences(of: "not-a-uuid", with: "{id}")))
            }
        }
    }

    /// The reference reads as documentation: Markdown rendered, how to authenticate, each schema's fields with types,
    /// what each answer means, and a curl example that carries what the operation needs.
    @Test func theReferenceRendersDescriptionsSchemasAndExamples() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let page = try await client.execute(uri: "/docs/api", method: .get).text
            #expect(
                page.contains("<code>Idempotency-Key</code>") && !page.contains("`Idempotency-Key`"),
                "Markdown is rendered"
            )
            #expect(page.contains(#"id="authentication""#) && page.contains("Authorization: Bearer"))
            // The transfer: its body's fields, typed, its answers, and a curl with a token, a key and a JSON body.
            let transfer = try #require(
                page.range(of: #"id="createTransfer""#).map { String(page[$0.lowerBound...].prefix(20_000)) }
            )
            #expect(transfer.contains(##"<a href="#schema-TransferRequest" translate="no">TransferRequest</a>"##))
            #expect(transfer.contains("Idempotency-Key required") && transfer.contains("Idempotency-Key: $(uuidgen)"))
            #expect(transfer.contains("-d &#39;{") || transfer.contains("-d '{"))
            #expect(page.contains(#"id="schema-TransferRequest""#) && page.contains(#"id="schema-Problem""#))
            #expect(page.contains("<code>amount</code>") && page.contains("integer"))
        }
    }
}
