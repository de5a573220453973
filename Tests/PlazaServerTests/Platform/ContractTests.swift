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

    /// The first page lists every operation, each a link to its section's page, which describes it; every schema
    /// a section's page links to is on that page.
    @Test func theReferenceListsEveryOperationAndEachSectionHoldsWhatItLinks() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let first = try await client.execute(uri: "/docs/api", method: .get)
            #expect(first.status == .ok)
            for (_, path) in ProblemTests.operations {
                let listed = path.replacingOccurrences(of: "not-a-uuid", with: "{id}")
                #expect(first.text.contains("<code translate=\"no\">\(listed)</code>"), "\(listed) is not listed")
            }
            let sections = Set(Self.captures(#"href="(/docs/api/[a-z0-9-]+)#"#, in: first.text))
            #expect(sections.count >= 10 && sections.contains("/docs/api/wallet"))
            var described = Set<String>()
            for section in sections.sorted() {
                let page = try await client.execute(uri: section, method: .get)
                #expect(page.status == .ok, "\(section)")
                let ids = Set(Self.captures(#"id="([^"]+)""#, in: page.text))
                for schema in Set(Self.captures(##"href="#(schema-[A-Za-z0-9_]+)""##, in: page.text)) {
                    #expect(ids.contains(schema), "\(section) links to #\(schema) but does not have it")
                }
                described.formUnion(Self.captures(#"<article class="card op" id="([^"]+)""#, in: page.text))
            }
            let anchors = Set(Self.captures(#"href="/docs/api/[a-z0-9-]+#([^"]+)""#, in: first.text))
            #expect(anchors.isSubset(of: described), "\(anchors.subtracting(described).sorted()) are not described")
            let missing = try await client.execute(uri: "/docs/api/no-such-section", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    private static func captures(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The reference reads as documentation: Markdown rendered, how to authenticate, each schema's fields with types,
    /// what each answer means, and a curl example that carries what the operation needs.
    @Test func theReferenceRendersDescriptionsSchemasAndExamples() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let first = try await client.execute(uri: "/docs/api", method: .get).text
            #expect(first.contains(#"id="authentication""#) && first.contains("Authorization: Bearer"))
            let page = try await client.execute(uri: "/docs/api/wallet", method: .get).text
            #expect(
                page.contains("<code>Idempotency-Key</code>") && !page.contains("`Idempotency-Key`"),
                "Markdown is rendered"
            )
            // The transfer: its body's fields, typed, its answers, and a curl with a token, a key and a JSON body.
            let transfer = try #require(
                page.range(of: #"id="createTransfer""#).map { String(page[$0.lowerBound...].prefix(20_000)) }
            )
            #expect(transfer.contains(##"<a href="#schema-TransferRequest" translate="no">TransferRequest</a>"##))
            #expect(transfer.contains("Idempotency-Key required") && transfer.contains("Idempotency-Key: $(uuidgen)"))
            #expect(transfer.contains("-d &#39;{") || transfer.contains("-d '{"))
            #expect(page.contains(#"id="schema-TransferRequest""#) && page.contains(#"id="schema-Problem""#))
            #expect(page.contains("<code>amount</code>") && page.contains("integer"))
            #expect(!page.contains(#"id="schema-ListingPage""#), "the market's schemas are on the market's page")
        }
    }
}
