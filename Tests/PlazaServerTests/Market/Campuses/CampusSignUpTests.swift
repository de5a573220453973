import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// A student proves their campus address once (issue 39): signing up with it and verifying it makes them a student of
/// its campus, without the marketplace's second code.
@Suite struct CampusSignUpTests {
    /// `name` signed up with `email` and verified it with the mailed code; answers their access token.
    static func signedUp(_ client: any TestClientProtocol, _ name: String, email: String) async throws -> String {
        let accounts = AccountsDriver(client)
        let registered = try await client.send(
            .post,
            "/v1/auth/register",
            json: RegisterRequest(
                email: email,
                username: name,
                displayName: name.capitalized,
                password: AccountsDriver.password,
                role: .customer
            )
        )
        #expect(registered.status == .created, "\(registered.text)")
        let verified = try await client.send(
            .post,
            "/v1/auth/verify-email",
            json: VerifyEmailRequest(email: email, code: try await accounts.latestCode(for: email))
        )
        #expect(verified.status == .ok, "\(verified.text)")
        return try await accounts.login(name).decode(TokenResponse.self).accessToken
    }

    @Test(arguments: TestEngine.enabled)
    func aCampusAddressVerifiedAtSignUpMakesAStudentWithoutASecondCode(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let admin = try await AdminTests.admin(client, services)
            let campus = try await CampusTests.campus(client, admin: admin)
            let zoe = try await Self.signedUp(client, "zoe", email: "zoe@cs.isar-uni.edu")
            let membership = try await client.send(.get, "/v1/me/campus", token: zoe)
            #expect(membership.status == .ok, "\(membership.text)")
            #expect(try membership.decode(CampusMembership.self).campus.id == campus.id)
            // One step is left: the agreement.
            #expect(
                try await client.send(.get, "/v1/market/listings", token: zoe).problem?.code == .agreementRequired
            )
            let signed = try await client.send(
                .post,
                "/v1/market/agreement/sign",
                json: AgreementSignature(version: 1),
                token: zoe
            )
            #expect(signed.status == .ok)
            #expect(try await client.send(.get, "/v1/market/listings", token: zoe).status == .ok)

            // An address of no campus proves nothing to the marketplace.
            let max = try await Self.signedUp(client, "max", email: "max@example.com")
            #expect(try await client.send(.get, "/v1/me/campus", token: max).status == .notFound)
            #expect(try await client.send(.get, "/v1/market/listings", token: max).problem?.code == .campusRequired)
        }
    }
}
