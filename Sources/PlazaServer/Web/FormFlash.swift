import Foundation
import Hummingbird
import PlazaCore

/// A refused form outlives its redirect: the POST answers 303 back to the form's page (POST → redirect → GET, so a
/// reload never posts again and every link on the page works), and the GET shows what was typed with each problem
/// beside its field. The state rides in a signed cookie that only the page it returns to reads, once, within a minute.
struct FormFlash: Codable, Sendable {
    /// The page that shows it (path only).
    var path: String
    /// Which form of the page was refused, and what it held (passwords and card numbers are never kept).
    var form: String?
    var state: FormState?
    /// A refusal not tied to a form ("Refund refused: ..."), shown at the top.
    var alert: String?
    /// A secret the page shows this once (OwnTracks' configuration link), sealed with `Secrets.seal`: the cookie is
    /// signed, not encrypted.
    var sealed: String?
}

/// Writes and reads `FormFlash` cookies: base64url JSON and its keyed hash, so no one else can word a page's errors.
struct FlashCookies: Sendable {
    static let name = "plaza_flash"
    /// Browsers keep about 4 KB per cookie; longer typed values are dropped (their errors stay).
    static let largest = 3_600
    let secrets: Secrets
    let secure: Bool

    func cookie(_ flash: FormFlash) -> Cookie {
        var flash = flash
        var payload = Self.encode(flash)
        if payload.count > Self.largest, var state = flash.state {
            for name in state.fields.keys { state.fields[name]?.value = "" }
            flash.state = state
            payload = Self.encode(flash)
        }
        let value = payload.count > Self.largest ? "" : "\(payload).\(secrets.hash("flash:\(payload)"))"
        return Cookie(
            name: Self.name,
            value: value,
            maxAge: value.isEmpty ? 0 : 60,
            path: flash.path,
            secure: secure,
            httpOnly: true,
            sameSite: .lax
        )
    }

    /// The flash in `value` when it is genuine and meant for `path`.
    func read(_ value: String, path: String) -> FormFlash? {
        let parts = value.split(separator: ".")
        guard parts.count == 2, Secrets.constantTimeEquals(String(parts[1]), secrets.hash("flash:\(parts[0])")),
            let data = Data(base64URL: String(parts[0])),
            let flash = try? JSONDecoder().decode(FormFlash.self, from: data), flash.path == path
        else { return nil }
        return flash
    }

    /// Read once: the page that showed it clears it.
    func cleared(path: String) -> Cookie {
        Cookie(name: Self.name, value: "", maxAge: 0, path: path, secure: secure, httpOnly: true, sameSite: .lax)
    }

    private static func encode(_ flash: FormFlash) -> String {
        ((try? JSONEncoder().encode(flash)) ?? Data()).base64URLEncodedString()
    }
}

extension PageRenderer {
    /// A refused form: back to `location` (its page, with any query or fragment), which shows `state` in the form
    /// named `form` (see `PageInfo.form`).
    func refused(_ form: String, _ state: FormState, returnTo location: String) -> Response {
        back(to: location, FormFlash(path: Self.path(of: location), form: form, state: state))
    }

    /// An action refused without a form of its own: back to `location`, with `alert` at the top of the page.
    func refused(alert: String, returnTo location: String) -> Response {
        back(to: location, FormFlash(path: Self.path(of: location), alert: alert))
    }

    /// A secret made by the POST, shown once by the page at `location` (POST → redirect → GET): `sealed` rides in the
    /// flash cookie, which that page reads once and clears.
    func showOnce(sealed: String, returnTo location: String) -> Response {
        back(to: location, FormFlash(path: Self.path(of: location), sealed: sealed))
    }

    private func back(to location: String, _ flash: FormFlash) -> Response {
        var response = Self.seeOther(location)
        if let flashes { response.setCookie(flashes.cookie(flash)) }
        return response
    }

    static func path(of location: String) -> String {
        String(location.prefix { $0 != "?" && $0 != "#" })
    }
}

extension PageInfo {
    /// The refused form named `name` that this page load shows again, if any.
    func form(_ name: String) -> FormState? {
        flash?.form == name ? flash?.state : nil
    }
}
