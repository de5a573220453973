import Foundation
import PlazaCore

/// Who is calling: the signed-in user and the session (device) the call came through.
package struct Identity: Sendable {
    package var user: UserRecord
    package var sessionID: UUID

    package init(user: UserRecord, sessionID: UUID) {
        self.user = user
        self.sessionID = sessionID
    }

    /// Unverified accounts can log in but not move money or post (later domains call this).
    func requireVerified() throws {
        guard user.emailVerified else { throw PlazaError.emailNotVerified }
    }

    func require(_ roles: Role...) throws {
        guard roles.contains(user.role) else { throw PlazaError.forbidden }
    }
}
