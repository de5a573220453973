import Foundation
import Hummingbird
import PlazaCore

/// Report and block in one flow, from a listing, a profile or a conversation; the decisions about me, with their
/// statements of reasons and my one appeal.
extension MarketPages {
    func addReportRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("report", use: reportPage)
        signedIn.post("report", use: sendReport)
        signedIn.get("decisions", use: decisionsPage)
        signedIn.post("decisions/:id/appeal", use: appealPage)
    }

    struct ReasonOption: Sendable {
        var value: String
        var label: String
        var checked: Bool
    }

    struct ReportPage: Sendable {
        var shell: Shell
        var what: String
        var back: String
        var target: String
        var value: String
        var other: String
        var reasons: [ReasonOption]
        var form: FormState
        var block: Bool
    }

    /// What is reported, from the query: `listing`, `user` or `conversation`.
    private func reportTarget(
        _ request: Request,
        context: AuthenticatedContext
    ) async throws -> (field: String, value: String, what: String, other: String, back: String) {
        let query = request.uri.queryParameters
        if let raw = query.get("listing"), let id = UUID(uuidString: String(raw)) {
            let listing = try await market.listing(context.identity, id)
            return (
                "listingId", id.uuidString.lowercased(), say("the listing “{title}”", ["title": listing.title]),
                listing.seller.displayName,
                "/market/listings/\(raw)"
            )
        }
        if let raw = query.get("conversation"), let id = UUID(uuidString: String(raw)) {
            let conversation = try await market.conversation(context.identity, id)
            let other =
                conversation.buyer.username == context.identity.user.username ? conversation.seller : conversation.buyer
            return (
                "conversation", id.uuidString.lowercased(),
                say("your conversation with {name}", ["name": other.displayName]),
                other.displayName,
                "/market/conversations/\(raw)"
            )
        }
        let username = String(query.get("user") ?? "")
        let profile = try await market.profile(context.identity, username: username)
        return (
            "username", profile.username, "\(profile.displayName) (@\(profile.username))", profile.displayName,
            "/market/users/\(profile.username)"
        )
    }

    @Sendable func reportPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let target = try await reportTarget(request, context: context)
        let form = context.page.form("report") ?? FormState(names: ["reason", "details", "block"])
        let model = ReportPage(
            shell: Shell(title: say("Report"), context: context),
            what: target.what,
            back: target.back,
            target: target.field,
            value: target.value,
            other: target.other,
            reasons: ReportReason.allCases.map {
                ReasonOption(
                    value: $0.rawValue,
                    label: Self.reasonName($0),
                    checked: form.fields["reason"]?.value == $0.rawValue
                )
            },
            form: form,
            block: form.fields["block"]?.value == "1"
        )
        return renderer.render("market/report", model)
    }

    @Sendable func sendReport(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let field = form["target"]
        let value = form["value"]
        let query = ["listingId": "listing", "conversation": "conversation", "username": "user"][field] ?? "user"
        let back = "/market/report?\(query)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        do {
            guard let reason = ReportReason(rawValue: form["reason"]) else {
                throw PlazaError.validation(field: "reason", phrase("Pick what is wrong."))
            }
            let report = try await market.report(
                context.identity,
                ReportRequest(
                    listingId: field == "listingId" ? UUID(uuidString: value) : nil,
                    username: field == "username" ? value : nil,
                    conversationId: field == "conversation" ? UUID(uuidString: value) : nil,
                    reason: reason,
                    details: form.optional("details"),
                    block: form["block"] == "1"
                )
            )
            return PageRenderer.seeOther("/market?notice=\(report.blocked ? "reported-blocked" : "reported")")
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                "report",
                FormState(form, names: ["reason", "details", "block"], error: error),
                returnTo: back
            )
        }
    }

    struct DecisionRow: Sendable {
        var id: String
        var headline: String
        var statement: String
        var when: String
        var canAppeal: Bool
        var appeal: String?
        var outcome: String?
    }

    struct DecisionsPage: Sendable {
        var shell: Shell
        var rows: [DecisionRow]
        var form: FormState
    }

    @Sendable func decisionsPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let rows = try await market.decisions(context.identity).map { decision in
            let what = Self.decisionHeadline(decision.action, listingTitle: decision.listingTitle)
            return DecisionRow(
                id: decision.id.uuidString.lowercased(),
                headline: "\(what) · \(Self.reportedAs(decision.reason))",
                statement: decision.statement,
                when: context.reader.when(decision.decidedAt),
                canAppeal: decision.canAppeal,
                appeal: decision.appeal.map { say("You appealed: “{text}”", ["text": $0.text]) },
                outcome: decision.appeal.map {
                    switch $0.state {
                    case .open: say("An admin will look at your appeal.")
                    case .granted: say("Appeal granted: {reason}", ["reason": $0.reason ?? ""])
                    case .denied: say("Appeal not granted: {reason}", ["reason": $0.reason ?? ""])
                    }
                }
            )
        }
        let model = DecisionsPage(
            shell: Shell(title: say("Decisions about you"), context: context, notice: notice(request)),
            rows: rows,
            form: context.page.form("appeal") ?? FormState(names: ["text"])
        )
        return renderer.render("market/decisions", model)
    }

    @Sendable func appealPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "decision")
        do {
            _ = try await market.appeal(context.identity, decision: id, AppealRequest(text: form["text"]))
            return PageRenderer.seeOther("/market/decisions?notice=appealed")
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                "appeal",
                FormState(form, names: ["text"], error: error),
                returnTo: "/market/decisions#decision-\(id.uuidString.lowercased())"
            )
        }
    }

    /// Why someone reported, as the reader says it.
    static func reasonName(_ reason: ReportReason) -> String {
        switch reason {
        case .fakeUser: say("A fake user")
        case .spam: say("Spam")
        case .scam: say("A scam")
        case .prohibitedItem: say("An item not allowed here")
        case .harassment: say("Harassment")
        }
    }

    /// "reported as spam": the reason a decision was about.
    static func reportedAs(_ reason: ReportReason) -> String {
        switch reason {
        case .fakeUser: say("reported as a fake user")
        case .spam: say("reported as spam")
        case .scam: say("reported as a scam")
        case .prohibitedItem: say("reported as an item not allowed here")
        case .harassment: say("reported as harassment")
        }
    }

    /// How a marketplace decision reads to the student it concerns (their alert says the same: `decisionWording`).
    static func decisionHeadline(_ action: ReviewAction, listingTitle: String?) -> String {
        switch action {
        case .removeListing: say("Your listing “{title}” was removed", ["title": listingTitle ?? ""])
        case .suspend: say("You are suspended from the marketplace")
        default: say("A warning about your conduct on the marketplace")
        }
    }

}
