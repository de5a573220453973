import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The campus marketplace's gate: an admin adds a campus and its safe spots, a student proves a university address
/// with a mailed code and signs the agreement; until both, every marketplace route says which step is missing.
@Suite struct CampusTests {
    static let uni = CampusRequest(
        name: "Isar University",
        domains: ["*.isar-uni.edu"],
        center: Coordinate(latitude: 48.1500, longitude: 11.5800),
        termEnds: ["2027-02-15", "2027-07-31"]
    )

    /// A campus, added by the admin; answers it.
    static func campus(
        _ client: any TestClientProtocol,
        admin: String,
        _ request: CampusRequest = uni
    ) async throws -> Campus {
        let created = try await client.send(.post, "/v1/admin/campuses", json: request, token: admin)
        #expect(created.status == .created, "\(created.text)")
        return try created.decode(Campus.self)
    }

    /// `name`, signed in, proving `email` with the mailed code (and signing the agreement when asked).
    static func student(
        _ client: any TestClientProtocol,
        _ name: String,
        email: String,
        sign: Bool = true
    ) async throws -> String {
        let accounts = AccountsDriver(client)
        let token = try await accounts.signedIn(name).accessToken
        let started = try await client.send(
            .post,
            "/v1/me/campus-email",
            json: CampusEmailRequest(email: email),
            token: token
        )
        #expect(started.status == .accepted, "\(started.text)")
        let code = try await accounts.latestCode(for: email)
        let verified = try await client.send(
            .post,
            "/v1/me/campus-email/verify",
            json: CampusEmailVerification(email: email, code: code),
            token: token
        )
        #expect(verified.status == .ok, "\(verified.text)")
        if sign {
            #expect(
                try await client.send(
                    .post,
                    "/v1/market/agreement/sign",
                    json: AgreementSignature(version: 1),
                    token: token
                ).status == .ok
            )
        }
        return token
    }

    @Test(arguments: TestEngine.enabled)
    func aStudentProvesTheirAddressSignsTheAgreementAndIsIn(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let admin = try await AdminTests.admin(client, services)
            let campus = try await Self.campus(client, admin: admin)
            let spot = SafeSpotRequest(
                name: "Library lobby",
                latitude: 48.1502,
                longitude: 11.5801,
                description: "Staffed desk",
                hours: "8–22"
            )
            #expect(
                try await client.send(.post, "/v1/admin/campuses/\(campus.id)/safe-spots", json: spot, token: admin)
                    .status == .created
            )
            // Anyone sees the campuses to pick theirs.
            let listed = try await client.send(.get, "/v1/market/campuses").decode(Page<CampusSummary>.self)
            #expect(listed.items.map(\.name) == ["Isar University"])

            let accounts = AccountsDriver(client)
            let ana = try await accounts.signedIn("ana").accessToken
            var gated = try await client.send(.get, "/v1/market/categories", token: ana)
            #expect(gated.status == .forbidden && gated.problem?.code == .campusRequired)

            // A personal address is no campus's; a campus address gets a code, and a wrong one is refused.
            let personal = try await client.send(
                .post,
                "/v1/me/campus-email",
                json: CampusEmailRequest(email: "ana@example.com"),
                token: ana
            )
            #expect(personal.status == .unprocessableContent && personal.problem?.errors?.map(\.field) == ["email"])
            let email = "Ana.Lopez@CS.isar-uni.edu"
            #expect(
                try await client.send(.post, "/v1/me/campus-email", json: CampusEmailRequest(email: email), token: ana)
                    .status == .accepted
            )
            let code = try await accounts.latestCode(for: email.lowercased())
            let wrong = String(code.map { $0 == "9" ? "0" : Character(String(($0.wholeNumberValue ?? 0) + 1)) })
            let refused = try await client.send(
                .post,
                "/v1/me/campus-email/verify",
                json: CampusEmailVerification(email: email, code: wrong),
                token: ana
            )
            #expect(refused.status == .badRequest && refused.problem?.code == .invalidCode)
            let verified = try await client.send(
                .post,
                "/v1/me/campus-email/verify",
                json: CampusEmailVerification(email: email, code: code),
                token: ana
            )
            let membership = try verified.decode(CampusMembership.self)
            #expect(membership.campus == CampusReference(id: campus.id, name: "Isar University"))
            #expect(
                try await client.send(.get, "/v1/me/campus", token: ana).decode(CampusMembership.self) == membership
            )

            // Verified, but the agreement is not signed yet.
            gated = try await client.send(.get, "/v1/market/categories", token: ana)
            #expect(gated.status == .forbidden && gated.problem?.code == .agreementRequired)
            let agreement = try await client.send(.get, "/v1/market/agreement", token: ana).decode(MarketAgreement.self)
            #expect(agreement.version == 1 && agreement.signedVersion == nil && agreement.text.contains("safe spot"))
            let stale = try await client.send(
                .post,
                "/v1/market/agreement/sign",
                json: AgreementSignature(version: 0),
                token: ana
            )
            #expect(stale.status == .conflict)
            let signed = try await client.send(
                .post,
                "/v1/market/agreement/sign",
                json: AgreementSignature(version: 1),
                token: ana
            )
            #expect(try signed.decode(MarketAgreement.self).signedVersion == 1)

            let categories = try await client.send(.get, "/v1/market/categories", token: ana).decode(
                Page<MarketCategory>.self
            )
            #expect(
                categories.items.map(\.slug) == [
                    "textbooks", "furniture", "electronics", "clothing", "dorm_supplies", "tickets", "other",
                ]
            )
            let spots = try await client.send(.get, "/v1/market/safe-spots", token: ana).decode(Page<SafeSpot>.self)
            #expect(spots.items.map(\.name) == ["Library lobby"])

            // Unsigning closes the marketplace again.
            #expect(
                try await client.send(.post, "/v1/market/agreement/unsign", token: ana).decode(MarketAgreement.self)
                    .signedVersion == nil
            )
            #expect(
                try await client.send(.get, "/v1/market/safe-spots", token: ana).problem?.code == .agreementRequired
            )

        }
    }

    /// Whether a campus address belongs to a member is told to that address's owner alone: anyone else asking for it
    /// gets what a free address gets, no code is sent, and asking is limited per account and per address alike.
    @Test(arguments: TestEngine.enabled)
    func aTakenAddressAnswersAsAFreeOneAndAskingIsLimited(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let admin = try await AdminTests.admin(client, services)
            _ = try await Self.campus(client, admin: admin)
            let accounts = AccountsDriver(client)
            _ = try await Self.student(client, "ana", email: "ana@isar-uni.edu")
            let ben = try await accounts.signedIn("ben").accessToken
            let ask = { @Sendable (email: String, token: String) in
                try await client.send(
                    .post,
                    "/v1/me/campus-email",
                    json: CampusEmailRequest(email: email),
                    token: token
                )
            }
            let taken = try await ask("ana@isar-uni.edu", ben)
            let free = try await ask("ben@isar-uni.edu", ben)
            #expect(taken.status == .accepted && free.status == .accepted && taken.text == free.text, "\(taken.text)")
            // Ana's mailbox hears of it, without a code; Ben has nothing to verify with.
            let notice = try #require(try await accounts.mails(to: "ana@isar-uni.edu").first)
            #expect(notice.subject == "Someone asked to use your campus address on another account")
            #expect(AccountsDriver.code(in: notice.text) == nil)
            let guess = try await client.send(
                .post,
                "/v1/me/campus-email/verify",
                json: CampusEmailVerification(email: "ana@isar-uni.edu", code: "123456"),
                token: ben
            )
            #expect(guess.status == .badRequest && guess.problem?.code == .invalidCode, "\(guess.text)")

            // Five a window per account: Ben's sixth is refused, for a taken address as for a free one.
            for index in 0..<3 { #expect(try await ask("ben\(index)@isar-uni.edu", ben).status == .accepted) }
            for email in ["ana@isar-uni.edu", "ben9@isar-uni.edu"] {
                let limited = try await ask(email, ben)
                #expect(
                    limited.status == .tooManyRequests && limited.problem?.code == .rateLimited
                        && limited.headers[.retryAfter] != nil
                )
            }
            // Five a window per address, whoever asks: Ana's own, Ben's, and three more accounts use them up.
            for name in ["carla", "dora", "eve"] {
                #expect(
                    try await ask("ana@isar-uni.edu", try await accounts.signedIn(name).accessToken).status == .accepted
                )
            }
            let sixth = try await ask("ana@isar-uni.edu", try await accounts.signedIn("fred").accessToken)
            #expect(sixth.status == .tooManyRequests && sixth.problem?.code == .rateLimited)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aMembershipLapsesAfterTheTermAndEachStudentSeesOnlyTheirCampus(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let admin = try await AdminTests.admin(client, services)
            let isar = try await Self.campus(client, admin: admin)
            var state = Self.uni
            (state.name, state.domains) = ("State College", ["state.edu"])
            let college = try await Self.campus(client, admin: admin, state)
            for (campus, name) in [(isar, "Isar lobby"), (college, "State police")] {
                let spot = SafeSpotRequest(name: name, latitude: 48.15, longitude: 11.58)
                #expect(
                    try await client.send(.post, "/v1/admin/campuses/\(campus.id)/safe-spots", json: spot, token: admin)
                        .status == .created
                )
            }
            let ana = try await Self.student(client, "ana", email: "ana@isar-uni.edu")
            let sam = try await Self.student(client, "sam", email: "sam@state.edu")
            #expect(
                try await client.send(.get, "/v1/market/safe-spots", token: ana).decode(Page<SafeSpot>.self).items.map(
                    \.name
                ) == ["Isar lobby"]
            )
            #expect(
                try await client.send(.get, "/v1/market/safe-spots", token: sam).decode(Page<SafeSpot>.self).items.map(
                    \.name
                ) == ["State police"]
            )
            // A subdomain rule does not take another domain that merely ends the same way.
            let lookalike = try await client.send(
                .post,
                "/v1/me/campus-email",
                json: CampusEmailRequest(email: "x@fakestate.edu"),
                token: sam
            )
            #expect(lookalike.status == .unprocessableContent)

            // Verified now, Ana belongs until the next term end (2027-02-15, that whole day) and 14 days more.
            let user = try #require(try await AccountStore().user(login: "ana", on: services.database.sql))
            let identity = Identity(user: user, sessionID: UUID())
            let until = try #require(try await services.market.membership(identity)).verifiedUntil
            if Date() < RFC3339.parse("2027-02-16T00:00:00Z")! {
                #expect(until == RFC3339.parse("2027-03-02T00:00:00Z"))
            }
            let later = until.addingTimeInterval(1)
            #expect(try await services.market.membership(identity, now: later) == nil)
            let lapsed = await #expect(throws: PlazaError.self) {
                try await services.market.requireStudent(identity, now: later)
            }
            #expect(lapsed?.code == .campusRequired)
        }
    }

    @Test func campusesAreForAdminsAndMustMakeSense() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let admin = try await AdminTests.admin(client, services)
            let student = try await AccountsDriver(client).signedIn("ana").accessToken
            #expect(
                try await client.send(.post, "/v1/admin/campuses", json: Self.uni, token: student).status == .forbidden
            )
            #expect(
                try await client.send(
                    .put,
                    "/v1/admin/market/categories/bikes",
                    json: CategoryName(name: "Bikes"),
                    token: student
                ).status
                    == .forbidden
            )
            let bad = CampusRequest(
                name: " ",
                domains: ["uni", "-x.edu"],
                center: Coordinate(latitude: 91, longitude: 0),
                termEnds: ["2027-13-01"]
            )
            let refused = try await client.send(.post, "/v1/admin/campuses", json: bad, token: admin)
            #expect(refused.status == .unprocessableContent)
            #expect(
                Set(refused.problem?.errors?.map(\.field) ?? []) == [
                    "name", "domains.0", "domains.1", "center", "termEnds.0",
                ]
            )
            _ = try await Self.campus(client, admin: admin)
            let twice = try await client.send(.post, "/v1/admin/campuses", json: Self.uni, token: admin)
            #expect(twice.status == .conflict && twice.problem?.errors?.map(\.field) == ["domains"])
            // Categories: a new slug goes last (201), an existing one is renamed (200).
            #expect(
                try await client.send(
                    .put,
                    "/v1/admin/market/categories/bikes",
                    json: CategoryName(name: "Bikes"),
                    token: admin
                ).status == .created
            )
            #expect(
                try await client.send(
                    .put,
                    "/v1/admin/market/categories/bikes",
                    json: CategoryName(name: "Bicycles"),
                    token: admin
                ).status == .ok
            )
            #expect(try await services.market.categories().last == MarketCategory(slug: "bikes", name: "Bicycles"))
            let slug = try await client.send(
                .put,
                "/v1/admin/market/categories/Bad%20Slug",
                json: CategoryName(name: "X"),
                token: admin
            )
            #expect(slug.status == .unprocessableContent)
        }
    }
}
