import Foundation
import JWTKit

/// The claims of an access token: who, which session, until when.
struct AccessClaims: JWTPayload {
    var sub: SubjectClaim
    var sid: String
    var exp: ExpirationClaim
    var iat: IssuedAtClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// Signs and checks the short-lived access tokens (JWT, HS256).
package struct AccessTokens: Sendable {
    let keys: JWTKeyCollection
    let lifetime: TimeInterval

    package init(secretKey: String, lifetime: TimeInterval) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: "plaza:jwt:\(secretKey)"), digestAlgorithm: .sha256)
        self.lifetime = lifetime
    }

    package func issue(userID: UUID, sessionID: UUID, now: Date = Date()) async throws -> String {
        let claims = AccessClaims(
            sub: SubjectClaim(value: userID.uuidString),
            sid: sessionID.uuidString,
            exp: ExpirationClaim(value: now.addingTimeInterval(lifetime)),
            iat: IssuedAtClaim(value: now)
        )
        return try await keys.sign(claims)
    }

    /// The user, session and expiry of a valid token; `nil` for a forged, malformed or expired one.
    func verify(_ token: String) async -> (userID: UUID, sessionID: UUID, expires: Date)? {
        guard let claims = try? await keys.verify(token, as: AccessClaims.self),
            let user = UUID(uuidString: claims.sub.value), let session = UUID(uuidString: claims.sid)
        else { return nil }
        return (user, session, claims.exp.value)
    }
}
