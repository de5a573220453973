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
    }

    var title: String
    var csrf: String
    var user: SignedIn?
    /// A one-line confirmation at the top ("Your password was changed.").
    var notice: String?
    /// A one-line refusal at the top, for an action that was not done ("Refund refused: ...").
    var alert: String?

    init(title: String, context: AppRequestContext, notice: String? = nil) {
        self.init(title: title, identity: context.identity, csrf: context.csrfToken, notice: notice)
    }

    init(title: String, context: AuthenticatedContext, notice: String? = nil) {
        self.init(title: title, identity: context.identity, csrf: context.csrfToken, notice: notice)
    }

    init(title: String, identity: Identity?, csrf: String?, notice: String?) {
        self.title = title
        self.csrf = csrf ?? ""
        user = identity.map {
            SignedIn(displayName: $0.user.displayName, username: $0.user.username, unverified: !$0.user.emailVerified, email: $0.user.email)
        }
        self.notice = notice
    }
}

/// The state of one form field: what the user typed and what is wrong with it.
struct Field: Sendable {
    var value: String = ""
    var error: String?
}

/// The fields of a form by name, filled from a submission and its problem.
struct FormState: Sendable {
    var fields: [String: Field] = [:]
    /// A problem not tied to one field ("The log-in or password is wrong.").
    var error: String?

    init(_ form: FormData? = nil, names: [String] = [], error: PlazaError? = nil) {
        for name in names where !name.lowercased().contains("password") {
            fields[name] = Field(value: form?[name] ?? "")
        }
        for name in names where fields[name] == nil { fields[name] = Field() }
        guard let error else { return }
        let fieldErrors = error.errors ?? []
        for fieldError in fieldErrors {
            fields[fieldError.field, default: Field()].error = fieldError.message
        }
        if fieldErrors.isEmpty || error.code != .validationFailed { self.error = error.detail.map { "\(error.title) \($0)" } ?? error.title }
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
    let templates: MustacheLibrary

    func render(_ template: String, _ model: Any, status: HTTPResponse.Status = .ok) -> Response {
        let html = templates.render(model, withTemplate: template) ?? "<!doctype html><title>Plaza</title><p>Page unavailable.</p>"
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
