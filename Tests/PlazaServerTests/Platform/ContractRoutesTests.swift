import Foundation
import PlazaTestSupport
import Testing
import Yams

@testable import PlazaServer

/// The 405 answers' methods come from a line scanner over `openapi.yaml` (Yams at every start was a quarter of its
/// CPU): it must read the paths and methods Yams reads, and nothing else.
@Suite struct ContractRoutesTests {
    @Test func theScannerReadsTheContractsPathsAsYamsDoes() throws {
        let text = try String(contentsOfFile: repositoryFile("openapi.yaml"), encoding: .utf8)
        let spec = try #require(try Yams.load(yaml: text) as? [String: Any])
        let paths = try #require(spec["paths"] as? [String: [String: Any]])
        let expected = paths.mapValues { item in ContractRoutes.methodOrder.filter { item[$0.lowercased()] != nil } }
        let scanned = ContractRoutes.scan(text)
        #expect(expected.count > 200)
        #expect(scanned.count == expected.count, "each path once")
        let read = Dictionary(scanned.map { ($0.path, $0.methods) }, uniquingKeysWith: { first, _ in first })
        #expect(read == expected)
    }

    @Test func theScannerPassesOverWhatIsNotAPathOrAnOperation() {
        let text = """
            openapi: 3.1.0
            info:
              description: >-
                paths:
                  /not/a/path:
            paths:
              # a comment
              /v1/things:
                parameters:
                  - name: q
                get:
                  description: |
                    post:
                post:
                  summary: x
              '/v1/things/{id}':
                delete:
                  summary: y
                patch:
                  summary: z
            components:
              schemas:
                /not/either:
                  get:
            """
        let scanned = ContractRoutes.scan(text)
        #expect(scanned.map { $0.path } == ["/v1/things", "/v1/things/{id}"])
        #expect(scanned.map { $0.methods } == [["GET", "POST"], ["PATCH", "DELETE"]])
        let routes = ContractRoutes(specText: text)
        #expect(routes.methods(for: "/v1/things/42") == ["PATCH", "DELETE"])
        #expect(routes.methods(for: "/v1/others") == nil)
    }
}
