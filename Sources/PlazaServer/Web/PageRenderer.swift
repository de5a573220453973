import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore
import PlazaCore

/// What the layout shows around every page.
struct Shell: Sendable {
    struct SignedIn: Sendable {
        var displayName: String
        var username: String
        var unverified: Bool
        var email: String
        /// Merchants (and admins) see "My business" in the navigation.
        var merchant: Bool
        /// Admins see "Admin" (the console).
        var admin: Bool
        /// Designers (and admins) see the card shop's studio.
        var designer: Bool = false
    }

    /// Which navigation entry the page belongs to, for `aria-current`.
    struct Section: Sendable {
        var home = false
        var wallet = false
        var places = false
        var inbox = false
        var account = false
        var business = false
        var admin = false
    }

    var title: String
    var csrf: String
    var user: SignedIn?
    var badges: Badges?
    var at: Section
    /// A one-line confirmation at the top ("Your password was changed.").
    var notice: String?
    /// A one-line refusal at the top, for an action that was not done ("Refund refused: ...").
    var alert: String?
    /// A merchant not approved yet, on their home and business pages: where they stand and what follows.
    var approval: String?

    init(title: String, context: AppRequestContext, notice: String? = nil) {
        self.init(title: title, identity: context.identity, csrf: context.csrfToken, notice: notice, page: context.page)
    }

    init(title: String, context: AuthenticatedContext, notice: String? = nil) {
        self.init(title: title, identity: context.identity, csrf: context.csrfToken, notice: notice, page: context.page)
    }

    init(title: String, identity: Identity?, csrf: String?, notice: String?, page: PageInfo = PageInfo()) {
        self.title = title
        self.csrf = csrf ?? ""
        user = identity.map {
            SignedIn(
                displayName: $0.user.displayName,
                username: $0.user.username,
                unverified: !$0.user.emailVerified,
                email: $0.user.email,
                merchant: [.merchant, .admin].contains($0.user.role),
                admin: $0.user.role == .admin,
                designer: [.designer, .admin].contains($0.user.role)
            )
        }
        badges = page.badges
        at = Self.section(of: page.path)
        self.notice = notice
        alert = page.flash?.alert
        if let user = identity?.user, user.awaitsApproval, at.home || at.business {
            approval =
                user.approval == .rejected
                ? say(
                    "Your business was not approved. The reason given: {reason}. Change your business or its locations to ask again.",
                    ["reason": user.approvalReason ?? say("none")]
                )
                : say(
                    "An admin reviews new merchants: once you are approved, customers can find your business and you can charge them. We will tell you."
                )
        }
    }

    static func section(of path: String) -> Section {
        var section = Section()
        if path == "/" || path == "/home" {
            section.home = true
        } else if path == "/admin" || path.hasPrefix("/admin/") {
            section.admin = true
        } else if path.hasPrefix("/wallet/counter") || path == "/places/mine" || path == "/places/new"
            || (path.hasPrefix("/places/businesses/") && (path.hasSuffix("/edit") || path.hasSuffix("/presence")))
            || path.hasPrefix("/offers/businesses/") || path.hasPrefix("/offers/campaigns")
        {
            section.business = true
        } else if path.hasPrefix("/wallet") {
            section.wallet = true
        } else if path.hasPrefix("/places") {
            section.places = true
        } else if path.hasPrefix("/inbox") {
            section.inbox = true
        } else if path.hasPrefix("/account") {
            section.account = true
        }
        return section
    }
}

/// What the navigation counts for a signed-in reader: charges waiting for their answer, inbox entries not seen yet.
struct Badges: Sendable, Encodable {
    var charges: Int
    var inbox: Int
    /// Marketplace conversations with messages not read yet (the marketplace's Chat tab).
    var chats: Int
    /// "3", or "99+" past 99; nil at zero, so the template shows no badge (stored: templates see stored values only).
    let chargesLabel: String?
    let inboxLabel: String?

    init(charges: Int, inbox: Int, chats: Int = 0) {
        self.charges = charges
        self.inbox = inbox
        self.chats = chats
        chargesLabel = Self.label(charges)
        inboxLabel = Self.label(inbox)
    }

    /// The JSON for the page script: the counts; it words the labels itself.
    enum CodingKeys: String, CodingKey { case charges, inbox, chats }

    static func label(_ count: Int) -> String? { count <= 0 ? nil : count > 99 ? "99+" : String(count) }
}

/// What the page middleware learns about a page request for its layout: where it is, and the reader's badges.
struct PageInfo: Sendable {
    var path = "/"
    var badges: Badges?
    /// A refused form or action shown again after its redirect (see `FormFlash`).
    var flash: FormFlash?
}

/// The state of one form field: what the user typed and what is wrong with it.
struct Field: Sendable, Codable {
    var value: String = "" {
        didSet { on = !value.isEmpty }
    }
    var error: String?
    /// A checkbox's state: something was sent (Mustache takes an empty string for true, so templates ask this).
    private(set) var on = false

    init(value: String = "", error: String? = nil) {
        self.value = value
        self.error = error
        on = !value.isEmpty
    }
}

/// The fields of a form by name, filled from a submission and its problem.
struct FormState: Sendable, Codable {
    var fields: [String: Field] = [:]
    /// A problem not tied to one field ("The log-in or password is wrong.").
    var error: String?
    /// Money waits for a second factor: the form's second step asks for a code (`secondfactors/step`).
    var secondFactorAsked = false
    /// Money waits for a second factor the account has not set up: the form says where to set one up.
    var secondFactorMissing = false
    /// The account has a passkey: the second step offers "Use your passkey".
    var secondFactorPasskey = false
    /// The account has an authenticator app (else the code field takes a recovery code only).
    var secondFactorApp = false

    init(_ form: FormData? = nil, names: [String] = [], error: PlazaError? = nil) {
        for name in names where !name.lowercased().contains("password") {
            fields[name] = Field(value: form?[name] ?? "")
        }
        for name in names where fields[name] == nil { fields[name] = Field() }
        guard let error else { return }
        if error.asksAgain {
            // The code is never kept: the second step asks for a fresh one, the error beside its field.
            fields["secondFactor"] = Field(error: error.code == .invalidCode ? error.sentence : nil)
            secondFactorMissing = error.factors == []
            secondFactorAsked = !secondFactorMissing
            secondFactorPasskey = error.factors?.contains { $0.kind == .passkey } ?? false
            secondFactorApp = error.factors?.contains { $0.kind == .totp } ?? false
            return
        }
        let fieldErrors = error.errors ?? []
        for fieldError in fieldErrors {
            fields[fieldError.field, default: Field()].error = PageLanguage.say(fieldError.message)
        }
        if fieldErrors.isEmpty || error.code != .validationFailed { self.error = error.summary }
    }

    /// Prefills a field.
    func with(_ name: String, _ value: String) -> FormState {
        var copy = self
        copy.fields[name, default: Field()].value = value
        return copy
    }
}

/// Renders view models with the templates.
struct PageRenderer: Sendable {
    let templates: LocalizedTemplates
    /// Carries refused forms across their redirect (see `FormFlash`); pages without forms need none.
    var flashes: FlashCookies?

    func render(_ template: String, _ model: Any, status: HTTPResponse.Status = .ok) -> Response {
        let html =
            templates.render(model, withTemplate: template)
            ?? "<!doctype html><title>Plaza</title><p>Page unavailable.</p>"
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A redirect after a successful form (303, so the browser follows with GET).
    static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}
