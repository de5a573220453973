import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// "Share in the background" (issue 40): `POST /v1/me/owntracks` makes an app password for OwnTracks and the link
/// that sets the app up; what the app then posts is heard, kept under the sharing rules, and refused once revoked.
@Suite struct OwnTracksSetupTests {
    /// What OwnTracks posts in HTTP mode with the configuration's credentials.
    static func post(
        _ client: any TestClientProtocol,
        _ configuration: OwnTracksConfiguration,
        latitude: Double = 35.6812,
        longitude: Double = 139.7671
    ) async throws -> TestResponse {
        let basic = Data("\(configuration.username):\(configuration.password)".utf8).base64EncodedString()
        let tst = Int(Date().timeIntervalSince1970) - 5
        let body =
            #"{"_type":"location","lat":\#(latitude),"lon":\#(longitude),"tst":\#(tst),"acc":10,"tid":"\#(configuration.tid)"}"#
        return try await client.execute(
            uri: "/v1/owntracks",
            method: .post,
            headers: [.authorization: "Basic \(basic)", .contentType: "application/json"],
            body: ByteBuffer(string: body)
        )
    }

    static func setUp(_ client: any TestClientProtocol, token: String) async throws -> OwnTracksConfiguration {
        let created = try await client.send(.post, "/v1/me/owntracks", json: OwnTracksRequest(), token: token)
        #expect(created.status == .created)
        let link = try #require(try created.decode(OwnTracksDevice.self).configUrl)
        return try #require(OwnTracksConfiguration(link: link))
    }

    @Test(arguments: TestEngine.enabled)
    func theSetupLinkConfiguresOwnTracksAndItsMessagesAreHeard(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let anna = try await PlacesDriver(client).sharingCustomer("anna")
            let created = try await client.send(.post, "/v1/me/owntracks", token: anna.accessToken)
            #expect(created.status == .created && created.text.contains(#""lastSeenAt":null"#))
            let phone = try created.decode(OwnTracksDevice.self)
            #expect(phone.name == "OwnTracks" && phone.qrSvg?.hasPrefix("<svg") == true)
            let link = try #require(phone.configUrl)
            #expect(link.hasPrefix("owntracks:///config?inline="))
            let inline = link.dropFirst("owntracks:///config?inline=".count)
            #expect(!inline.isEmpty && !inline.contains(where: { "+/=".contains($0) }), "base64, percent-encoded")
            let configuration = try #require(OwnTracksConfiguration(link: link))
            #expect(configuration.type == "configuration" && configuration.mode == 3 && configuration.auth)
            #expect(configuration.url.hasSuffix("/v1/owntracks") && configuration.username == "anna")
            #expect(configuration.monitoring == 1 && configuration.locatorInterval == 300)
            #expect(configuration.deviceId == "owntracks" && configuration.tid == "AN")

            func listed() async throws -> [OwnTracksDevice] {
                try await client.send(.get, "/v1/me/owntracks", token: anna.accessToken)
                    .decode(Page<OwnTracksDevice>.self).items
            }
            let before = try await listed()
            #expect(before.map(\.appPasswordId) == [phone.appPasswordId] && before[0].lastSeenAt == nil)
            #expect(before[0].configUrl == nil && before[0].qrSvg == nil)
            let listText = try await client.send(.get, "/v1/me/owntracks", token: anna.accessToken).text
            #expect(!listText.contains(configuration.password))

            let posted = try await Self.post(client, configuration)
            #expect(posted.status == .ok && posted.text == "[]")
            let heard = try #require(try await listed().first?.lastSeenAt)
            #expect(abs(heard.timeIntervalSinceNow) < 60)
            let history = try await client.send(.get, "/v1/me/locations", token: anna.accessToken)
                .decode(GeoJSONFeatureCollection<HistoryPointProperties>.self)
            #expect(history.features.map(\.geometry.coordinates) == [[139.7671, 35.6812]])
            // A plain app password is not a phone of this list.
            _ = try await client.send(
                .post,
                "/v1/me/app-passwords",
                json: AppPasswordRequest(name: "Script"),
                token: anna.accessToken
            )
            #expect(try await listed().count == 1)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func ownTracksPointsInsideAPrivateZoneKeepOnlyTheZone(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let anna = try await PlacesDriver(client).sharingCustomer("anna")
            let zone = try await client.send(
                .post,
                "/v1/me/private-zones",
                json: PrivateZoneRequest(name: "Home", latitude: 35.0, longitude: 135.0, radiusMeters: 300),
                token: anna.accessToken
            )
            #expect(zone.status == .created)
            let configuration = try await Self.setUp(client, token: anna.accessToken)
            #expect(try await Self.post(client, configuration, latitude: 35.0005, longitude: 135.0005).status == .ok)
            let history = try await client.send(.get, "/v1/me/locations", token: anna.accessToken)
                .decode(GeoJSONFeatureCollection<HistoryPointProperties>.self)
            #expect(history.features.map(\.properties.privateZone) == ["Home"])
            #expect(history.features.map(\.geometry.coordinates) == [[135.0, 35.0]])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aRevokedPhoneGets401AndOnlyItsOwnerMayRevokeIt(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let places = PlacesDriver(client)
            let anna = try await places.sharingCustomer("anna")
            let max = try await places.sharingCustomer("max")
            let created = try await client.send(.post, "/v1/me/owntracks", token: anna.accessToken)
            let phone = try created.decode(OwnTracksDevice.self)
            let configuration = try #require(OwnTracksConfiguration(link: phone.configUrl ?? ""))
            let path = "/v1/me/app-passwords/\(phone.appPasswordId.uuidString.lowercased())"
            #expect(try await client.send(.delete, path, token: max.accessToken).status == .notFound)
            #expect(try await Self.post(client, configuration).status == .ok)
            #expect(try await client.send(.delete, path, token: anna.accessToken).status == .noContent)
            let refused = try await Self.post(client, configuration)
            #expect(refused.status == .unauthorized && refused.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            let problem = try #require(refused.problem)
            #expect(problem.code == .invalidCredentials && problem.title.contains("revoked"))
            #expect(!(problem.detail ?? "").contains("e-mailed"))
            #expect(try await client.send(.get, "/v1/me/owntracks", token: anna.accessToken).text.contains("[]"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theEleventhAppPasswordIsRefusedWithAConflict(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna")
            for number in 1...AppPasswordStore.maximumPerUser {
                let made = try await client.send(
                    .post,
                    "/v1/me/owntracks",
                    json: OwnTracksRequest(name: "Phone \(number)"),
                    token: anna.accessToken
                )
                #expect(made.status == .created)
            }
            let refused = try await client.send(.post, "/v1/me/owntracks", token: anna.accessToken)
            #expect(refused.status == .conflict && refused.problem?.code == .conflict)
            #expect(refused.problem?.title.contains("delete one first") == true)
            let blank = try await client.send(
                .post,
                "/v1/me/owntracks",
                json: OwnTracksRequest(name: String(repeating: "x", count: 61)),
                token: anna.accessToken
            )
            #expect(blank.status == .unprocessableContent && blank.problem?.errors?.map(\.field) == ["name"])
        }
    }
}
