import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// `/places/background`: "Share in the background" with the OwnTracks app. One button makes an app password for it
/// and shows, once, the link and QR code that set the app up for Plaza; the page lists the phones set up so, with when
/// Plaza last heard from each, and revokes them.
extension PlacesPages {
    static let backgroundNotices: [String: String] = [
        "created":
            phrase(
                "Your phone's setup is ready. Open it in OwnTracks now: the link and QR code are shown only this once."
            ),
        "revoked": phrase("The phone was disconnected: Plaza no longer accepts what it sends."),
    ]

    struct BackgroundPage: Sendable {
        struct Row: Sendable {
            var id: String
            var name: String
            var added: String
            /// "last heard from" this, in the reader's locale; nil before the first message.
            var heard: String?
        }

        /// Right after the button: the setup, shown once. `qr` is markup made by `QRCode` from Plaza's own link.
        struct Setup: Sendable {
            var link: String
            var qr: String
        }

        var shell: Shell
        var sharing: Bool
        var setup: Setup?
        var phones: [Row]
        var hasPhones: Bool
        var createForm: FormState
        var revokeForm: FormState
        var url: String
        var username: String
    }

    func addBackgroundRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("background", use: background)
        signedIn.post("background", use: createBackground)
        signedIn.post("background/:id/revoke", use: revokeBackground)
    }

    /// Signed in: what OwnTracks does, the phones set up for it, and (once, after the button) the new setup.
    @Sendable func background(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let identity = context.identity
        let sharing = try await places.sharing(identity)
        let phones = try await accounts.ownTracksDevices(identity)
        let link = context.page.flash?.sealed.flatMap { accounts.secrets.open($0) }.map {
            String(decoding: $0, as: UTF8.self)
        }
        let notice = request.uri.queryParameters.get("notice").flatMap { Self.backgroundNotices[$0] }.map { say($0) }
        let page = BackgroundPage(
            shell: Shell(title: say("Share in the background"), context: context, notice: notice),
            sharing: sharing.level != .off,
            setup: link.map { BackgroundPage.Setup(link: $0, qr: QRCode($0)?.svg(scale: 4) ?? "") },
            phones: phones.map {
                BackgroundPage.Row(
                    id: $0.appPasswordId.uuidString.lowercased(),
                    name: $0.name,
                    added: context.reader.when($0.createdAt),
                    heard: $0.lastSeenAt.map { context.reader.when($0) }
                )
            },
            hasPhones: !phones.isEmpty,
            createForm: context.page.form("create") ?? FormState(names: ["name"]),
            revokeForm: context.page.form("revoke") ?? FormState(),
            url: accounts.ownTracksURL,
            username: identity.user.username
        )
        return renderer.render("places/background", page)
    }

    /// Makes the app password and its setup link, then back to the page, which shows them once.
    @Sendable func createBackground(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let link: String
        do {
            let created = try await accounts.createOwnTracks(context.identity, OwnTracksRequest(name: form["name"]))
            link = created.configUrl ?? ""
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "create",
                FormState(form, names: ["name"], error: error),
                returnTo: "/places/background#connect"
            )
        }
        return renderer.showOnce(
            sealed: try accounts.secrets.seal(Data(link.utf8)),
            returnTo: "/places/background?notice=created#setup"
        )
    }

    /// Revokes the phone's app password: its next report gets 401.
    @Sendable func revokeBackground(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "app password")
        do {
            try await accounts.deleteAppPassword(context.identity, id: id)
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused("revoke", FormState(error: error), returnTo: "/places/background#phones")
        }
        return PageRenderer.seeOther("/places/background?notice=revoked#phones")
    }
}
