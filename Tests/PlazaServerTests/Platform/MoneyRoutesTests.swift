import Foundation
import PlazaTestSupport
import Testing
import Yams

@testable import PlazaServer

/// Every POST that moves money (the contract's `MoneyIdempotencyKey` parameter) declares how it keeps its key
/// where it is registered, and nothing else is registered as moving money.
@Suite struct MoneyRoutesTests {
    @Test func everyMoneyRouteOfTheContractDeclaresItsIdempotencyMode() async throws {
        let spec = try #require(
            try Yams.load(yaml: String(contentsOfFile: repositoryFile("openapi.yaml"), encoding: .utf8))
                as? [String: Any]
        )
        let paths = try #require(spec["paths"] as? [String: [String: Any]])
        let moneyPosts = paths.compactMap { path, item -> String? in
            let parameters = (item["post"] as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
            guard parameters.contains(where: { ($0["$ref"] as? String)?.hasSuffix("/MoneyIdempotencyKey") == true })
            else { return nil }
            return "POST " + path.replacingOccurrences(of: "{id}", with: ":id")
        }
        #expect(moneyPosts.count == 16, "the card shop added 4: orders, pay, cancel, proofs; disputes 1: the answer")
        try await TestPlaza.withApp(.sqlite) { _, services in
            let declared = services.moneyRoutes.all
            #expect(Set(declared.keys) == Set(moneyPosts))
            #expect(declared.values.allSatisfy { $0 != .recordedAfter })
            #expect(declared["POST /v1/transfers"] == .deferred)
        }
    }
}
