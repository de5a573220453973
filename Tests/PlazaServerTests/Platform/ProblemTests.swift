import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing
import Yams

/// Bad input on every route of the contract answers a problem+json 4xx, never a 500.
@Suite struct ProblemTests {
    /// Every operation of `openapi.yaml` with a request body or a path parameter.
    static let operations: [(method: HTTPRequest.Method, path: String)] = {
        let spec =
            (try? Yams.load(yaml: String(contentsOfFile: repositoryFile("openapi.yaml"), encoding: .utf8))
                as? [String: Any]) ?? [:]
        let paths = spec["paths"] as? [String: [String: Any]] ?? [:]
        return paths.flatMap { path, item in
            item.keys.compactMap { HTTPRequest.Method($0.uppercased()) }.map {
                ($0, path.replacingOccurrences(of: "{id}", with: "not-a-uuid"))
            }
        }.sorted { $0.path + $0.method.rawValue < $1.path + $1.method.rawValue }
    }()

    static let garbage = [
        "", "{", "[]", "null", "\"text\"", "42", #"{"email": 7, "password": [], "code": {}}"#,
        String(repeating: "[", count: 5000),
    ]

    /// Valid JSON with a number its field cannot take is the client's mistake in that field, not "not valid JSON".
    @Test func numbersThatDoNotFitTheirFieldAreNamed() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let zoe = try await AccountsDriver(client).signedIn("zoe").accessToken
            func fields(_ method: HTTPRequest.Method, _ path: String, _ body: String) async throws -> [String] {
                var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(zoe)"]
                headers[HTTPField.Name("Idempotency-Key")!] = UUID().uuidString
                let response = try await client.execute(
                    uri: path,
                    method: method,
                    headers: headers,
                    body: ByteBuffer(string: body)
                )
                #expect(response.status == .unprocessableContent, "\(path) \(body) answered \(response.status)")
                return response.problem?.errors?.map(\.field) ?? []
            }
            #expect(
                try await fields(.post, "/v1/transfers", #"{"to":"ann","amount":1.5,"currency":"USD"}"#) == ["amount"]
            )
            #expect(
                try await fields(
                    .post,
                    "/v1/transfers",
                    #"{"to":"ann","amount":99999999999999999999,"currency":"USD"}"#
                ) == ["amount"]
            )
            #expect(
                try await fields(
                    .post,
                    "/v1/me/private-zones",
                    #"{"name":"Home","latitude":48.1,"longitude":11.5,"radiusMeters":100.5}"#
                ) == [
                    "radiusMeters"
                ]
            )
            // null where the contract gives it no meaning is refused, not read as "left out".
            #expect(try await fields(.patch, "/v1/me", #"{"displayName":null}"#) == ["displayName"])
            #expect(
                try await fields(.put, "/v1/me/location-sharing", #"{"level":"off","zoneDisplay":null}"#) == [
                    "zoneDisplay"
                ]
            )
            // Query numbers are plain decimals: hexadecimal is not a latitude.
            let hex = try await client.send(.get, "/v1/nearby/businesses?latitude=0x10&longitude=11.5")
            #expect(hex.status == .unprocessableContent && hex.problem?.errors?.map(\.field) == ["latitude"])
            #expect(try await client.send(.get, "/v1/nearby/businesses?latitude=48.1&longitude=1.15e1").status == .ok)
        }
    }

    /// PostgreSQL cannot store U+0000 in text: every route refuses it up front, naming the field, on both engines.
    @Test(arguments: TestEngine.enabled)
    func theNulCharacterIsRefusedNamingItsField(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let zoe = try await AccountsDriver(client).signedIn("zoe").accessToken
            let app = try await client.sendRaw(
                .post,
                "/v1/me/app-passwords",
                body: #"{"name":"Own\u0000Tracks"}"#,
                token: zoe
            )
            #expect(app.status == .unprocessableContent && app.problem?.errors?.map(\.field) == ["name"])
            let nested = try await client.sendRaw(
                .post,
                "/v1/me/private-zones",
                body: #"{"name":"Home\u0000","latitude":1,"longitude":2,"radiusMeters":200}"#,
                token: zoe
            )
            #expect(nested.status == .unprocessableContent && nested.problem?.errors?.map(\.field) == ["name"])
            #expect(try await client.send(.get, "/v1/me/app-passwords", token: zoe).status == .ok)
            // In a query: refused naming the parameter, wherever it is (here a search that reaches the database).
            let query = try await client.send(.get, "/v1/businesses?q=Cor%00ner", token: zoe)
            #expect(query.status == .unprocessableContent && query.problem?.errors?.map(\.field) == ["q"])
            // In a path parameter too.
            let bruno = try await AccountsDriver(client).signedIn("bruno", role: .merchant).accessToken
            let business = try await PlacesDriver(client).createBusiness(name: "Corner Cafe", token: bruno)
            #expect(
                try await client.send(.delete, "/v1/businesses/\(business.id)/members/zo%00e", token: bruno).status
                    == .notFound
            )
        }
    }

    @Test func everyRouteOfTheContractAnswersGarbageWithAProblem() async throws {
        #expect(Self.operations.count >= 17)
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let tokens = try await AccountsDriver(client).signedIn("zoe")
            for (method, path) in Self.operations {
                for body in Self.garbage {
                    for token in [nil, tokens.accessToken] {
                        let response = try await client.sendRaw(method, path, body: body, token: token)
                        #expect(
                            response.status.code < 500,
                            "\(method) \(path) with \(body.prefix(20)) answered \(response.status)"
                        )
                        if response.status.code >= 400 {
                            #expect(
                                response.problem != nil,
                                "\(method) \(path) answered \(response.status) without a problem document"
                            )
                        }
                    }
                }
            }
        }
    }

    @Test func malformedJSONIs400AndWrongMediaTypeIs415() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let malformed = try await client.sendRaw(.post, "/v1/auth/login", body: "{\"login\": ")
            #expect(malformed.status == .badRequest)
            #expect(malformed.problem?.code == .malformedRequest)
            let form = try await client.sendRaw(
                .post,
                "/v1/auth/login",
                body: "login=a&password=b",
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(form.status == .unsupportedMediaType)
        }
    }

    @Test func oversizedBodiesAre413() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let huge = "{\"login\": \"" + String(repeating: "a", count: 2 << 20) + "\"}"
            let response = try await client.sendRaw(.post, "/v1/auth/login", body: huge)
            #expect(response.status == .contentTooLarge)
            #expect(response.problem?.code == .payloadTooLarge)
        }
    }

    @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let response = try await client.send(.put, "/v1/me")
            #expect(response.status == .methodNotAllowed)
            #expect(response.problem?.code == .methodNotAllowed)
            #expect(response.headers[.allow] == "GET, PATCH, DELETE")
            let trace = try await client.execute(uri: "/healthz", method: .trace)
            #expect(trace.status == .methodNotAllowed && trace.headers[.allow] == "GET")
        }
    }

    @Test func unknownRoutesAreProblemsForTheAPIAndPagesForBrowsers() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let api = try await client.send(.get, "/v1/nothing-here")
            #expect(api.status == .notFound)
            #expect(api.problem?.code == .notFound)
            let page = try await client.execute(uri: "/nothing-here", method: .get, headers: [.accept: "text/html"])
            #expect(page.status == .notFound)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("No such page or endpoint."))
        }
    }
}

/// The repository's copy of `file`, found from this source file's place in the tree.
func repositoryFile(_ file: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(file).path
}
