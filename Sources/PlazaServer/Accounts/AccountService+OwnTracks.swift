import Foundation
import PlazaCore
import PlazaMedia

/// OwnTracks in one tap: an app password made for the OwnTracks app, handed over as a configuration link (and its QR
/// code) that sets the app up for Plaza. Revoking is deleting the app password (`deleteAppPassword`).
extension AccountService {
    /// The default name of a phone set up without one.
    static let ownTracksName = "OwnTracks"

    /// A new app password for OwnTracks; the answer is the only time its link (which holds the secret) is shown.
    func createOwnTracks(
        _ identity: Identity,
        _ request: OwnTracksRequest,
        now: Date = Date()
    ) async throws
        -> OwnTracksDevice
    {
        let typed = (request.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let name = typed.isEmpty ? Self.ownTracksName : typed
        let username = identity.user.username
        // The device id is checked with the name; the secret comes from `createAppPassword`.
        let draft = OwnTracksConfiguration(url: ownTracksURL, username: username, password: "", deviceName: name)
        let created = try await createAppPassword(
            identity,
            AppPasswordRequest(name: name),
            claim: nil,
            ownTracksDevice: draft.deviceId,
            now: now
        )
        var configuration = draft
        configuration.password = created.password ?? ""
        let link = configuration.link
        return OwnTracksDevice(
            appPasswordId: created.id,
            name: created.name,
            createdAt: created.createdAt,
            configUrl: link,
            qrSvg: QRCode(link)?.svg(scale: 3) ?? ""
        )
    }

    /// The phones set up for OwnTracks, oldest first, without their secrets.
    func ownTracksDevices(_ identity: Identity) async throws -> [OwnTracksDevice] {
        try await AppPasswordStore().ownTracksDevices(user: identity.user.id, on: database.sql)
    }

    /// A message sent with `appPassword` was accepted: the phone's "last heard from".
    func heardFrom(appPassword: UUID, now: Date = Date()) async throws {
        try await AppPasswordStore().heard(id: appPassword, now: now, on: database.sql)
    }

    /// Where OwnTracks posts: `POST /v1/owntracks` under the operator's public address.
    var ownTracksURL: String { "\(baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL)/v1/owntracks" }
}
