import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The campus pages of the admin console: a campus added from the form (its mistakes beside their fields), a safe
/// spot placed on it and removed, a category added; then a student finds the campus on the marketplace's first page.
@Suite struct MarketPagesTests {
    @Test func anAdminAddsACampusAndItsSafeSpotsFromTheConsole() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let console = PageSession(client)
            _ = try await console.submit(
                "/login",
                to: "/login",
                ["login": AccountsDriver.admin, "password": AccountsDriver.password]
            )
            let empty = try await console.get("/admin/campuses").text
            #expect(empty.contains("No campus yet") && empty.contains(#"href="/admin/campuses" aria-current="page""#))

            // Mistakes come back beside their fields, with what was typed.
            let wrong = try await console.submit(
                "/admin/campuses",
                to: "/admin/campuses",
                [
                    "name": "Isar University", "domains": "isar-uni", "latitude": "48.15", "longitude": "11.58",
                    "termEnds": "2027-02-30",
                ]
            )
            let shown = try await console.follow(wrong).text
            #expect(
                shown.contains(#"id="campus-domains-error""#) && shown.contains(#"id="campus-terms-error""#),
                "\(shown)"
            )
            #expect(shown.contains(#"value="Isar University""#))

            let created = try await console.submit(
                "/admin/campuses",
                to: "/admin/campuses",
                [
                    "name": "Isar University", "domains": "isar-uni.edu, *.isar-uni.edu", "latitude": "48.15",
                    "longitude": "11.58",
                    "termEnds": "2027-02-15 2027-07-31",
                ]
            )
            let path = try #require(created.headers[.location]).split(separator: "?")[0]
            let campus = try await console.follow(created).text
            #expect(
                campus.contains("Campus added") && campus.contains("isar-uni.edu, *.isar-uni.edu")
                    && campus.contains("data-pick-latitude")
            )

            let spot = try await console.submit(
                String(path),
                to: "\(path)/safe-spots",
                [
                    "name": "Campus police", "latitude": "48.1497", "longitude": "11.5792",
                    "description": "Ground floor", "hours": "Always open",
                ]
            )
            let withSpot = try await console.follow(spot).text
            #expect(withSpot.contains("Safe spot added") && withSpot.contains("Campus police"))
            let id = try #require(try await services.market.allCampuses().first).id
            let spotID = try #require(try await services.market.safeSpots(campus: id).first).id
            let removed = try await console.submit(
                String(path),
                to: "\(path)/safe-spots/\(spotID.uuidString.lowercased())/delete",
                [:]
            )
            #expect(try await console.follow(removed).text.contains("Safe spot removed"))
            #expect(try await services.market.safeSpots(campus: id).isEmpty)

            let category = try await console.submit(
                "/admin/campuses",
                to: "/admin/campuses/categories",
                ["slug": "bikes", "name": "Bikes"]
            )
            #expect(try await console.follow(category).text.contains("Bikes"))

            // A student's first step names the campus and the domains that prove it.
            let student = PageSession(client)
            _ = try await AccountsDriver(client).signedIn("ana")
            _ = try await student.submit("/login", to: "/login", ["login": "ana", "password": AccountsDriver.password])
            let market = try await student.get("/market").text
            #expect(
                market.contains("Isar University") && market.contains("@isar-uni.edu")
                    && market.contains("Send the code")
            )
            #expect(try await student.get("/admin/campuses").status == .forbidden)
        }
    }

    @Test func aStudentPicksTheirUniversityAtSignUpAndHerVerifiedAddressMakesHerAStudent() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let admin = try await AdminTests.admin(client, services)
            let campus = try await CampusTests.campus(client, admin: admin)
            let id = campus.id.uuidString.lowercased()
            let browser = PageSession(client)
            let form = try await browser.get("/signup").text
            #expect(form.contains(#"<option value="\#(id)" translate="no" >Isar University</option>"#), "\(form)")

            let signup = try await browser.submit(
                "/signup",
                to: "/signup",
                [
                    "email": "zoe@isar-uni.edu", "username": "zoe", "displayName": "Zoe",
                    "password": AccountsDriver.password, "role": "customer",
                    "campus": id,
                ]
            )
            #expect(signup.headers[.location] == "/verify-email?email=zoe@isar-uni.edu&notice=sent&campus=\(id)")
            let page = try await browser.follow(signup).text
            #expect(page.contains(#"name="campus" value="\#(id)""#))
            let code = try await AccountsDriver(client).latestCode(for: "zoe@isar-uni.edu")
            let verified = try await browser.submit(
                "/verify-email?email=zoe%40isar-uni.edu&campus=\(id)",
                to: "/verify-email",
                ["email": "zoe@isar-uni.edu", "code": code, "campus": id]
            )
            #expect(verified.headers[.location] == "/market?campus=\(id)")
            // The address she signed up with proved her university once and for all: the agreement is all that is left.
            let market = try await browser.follow(verified).text
            #expect(
                market.contains("You are a verified student of Isar University") && !market.contains("Send the code"),
                "\(market)"
            )
        }
    }
}
