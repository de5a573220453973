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
}
