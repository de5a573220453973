import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// Two Plaza applications on one PostgreSQL database behave as one server: what one learns, the other knows.
@Suite struct SeveralProcessesTests {
    @Test(.enabled(if: TestEngine.enabled.contains(.postgres), "needs PLAZA_TEST_DATABASE_URL"))
    func twoProcessesShareSessionsLimitsAndMail() async throws {
        try await TestPlaza.withSharedDatabase(
            .postgres,
            configure: { ($0.limits.loginFailuresPerAccount, $0.limits.loginBackOffBase) = (4, 60) }
        ) {
            first,
            second in
            let tokens = try await AccountsDriver(first).signedIn("zoe")
            // A token from one process works on the other, and a refresh on the other rotates it for both.
            #expect(try await second.send(.get, "/v1/me", token: tokens.accessToken).status == .ok)
            let refreshed = try await second.send(
                .post,
                "/v1/auth/refresh",
                json: RefreshRequest(refreshToken: tokens.refreshToken)
            )
            #expect(refreshed.status == .ok)
            #expect(
                try await first.send(.post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: tokens.refreshToken))
                    .status == .unauthorized
            )
            // Failures counted on either process add up.
            for client in [first, second, first, second] {
                _ = try await AccountsDriver(client).login("zoe", password: "wrong password!")
            }
            #expect(try await AccountsDriver(first).login("zoe").status == .tooManyRequests)
            #expect(try await AccountsDriver(second).login("zoe").status == .tooManyRequests)
            // Mail queued by one process shows in the other's outbox.
            _ = try await first.send(.post, "/v1/auth/forgot-password", json: EmailRequest(email: "zoe@example.com"))
            #expect(
                try await AccountsDriver(second).mails(to: "zoe@example.com").first?.subject.hasPrefix(
                    "Reset your Plaza password"
                ) == true
            )
        }
    }
}
