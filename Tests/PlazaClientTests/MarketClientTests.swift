import Foundation
import HTTPTypes
import PlazaClient
import PlazaCore
import PlazaTestSupport
import Testing

/// Joining the campus marketplace from an app: pick the campus, prove the university address with the mailed code,
/// sign the agreement; each missing step is a problem code the app can branch on.
@Suite struct MarketClientTests {
    @Test(arguments: TestEngine.enabled)
    func aStudentJoinsTheirCampusThroughTheSDK(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { _, anna, accounts in
            let admin = try await accounts.login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
            let uni = CampusRequest(name: "Isar University", domains: ["*.isar-uni.edu"], center: Coordinate(latitude: 48.15, longitude: 11.58))
            let created = try await accounts.client.send(.post, "/v1/admin/campuses", json: uni, token: admin)
            let campus = try created.decode(Campus.self)
            #expect(try await anna.campuses().map(\.id) == [campus.id])
            #expect(try await anna.myCampus() == nil)
            await #expect(throws: PlazaClientError.self) { try await anna.marketCategories() }
            do {
                _ = try await anna.safeSpots()
                Issue.record("not a student yet: refused")
            } catch let error as PlazaClientError {
                #expect(error.code == .campusRequired)
            }

            try await anna.startCampusEmail("anna@isar-uni.edu")
            let code = try await accounts.latestCode(for: "anna@isar-uni.edu")
            let membership = try await anna.verifyCampusEmail("anna@isar-uni.edu", code: code)
            #expect(membership.campus.id == campus.id && membership.verifiedUntil > Date())
            #expect(try await anna.myCampus() == membership)
            do {
                _ = try await anna.marketCategories()
                Issue.record("unsigned: refused")
            } catch let error as PlazaClientError {
                #expect(error.code == .agreementRequired)
            }
            let agreement = try await anna.marketAgreement()
            #expect(try await anna.signMarketAgreement(version: agreement.version).isSigned)
            #expect(try await anna.marketCategories().contains { $0.slug == "textbooks" })
            #expect(try await anna.safeSpots().isEmpty)
            #expect(try await anna.unsignMarketAgreement().signedVersion == nil)
        }
    }
}
