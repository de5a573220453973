import Foundation
import Hummingbird
import PlazaCore

/// `/admin`: the console for admins only (others get 403, the signed-out the log-in page): the review queue, accounts
/// (search, suspend, reinstate, roles) and the audit log. Every action is the API's, through `AdminService`.
struct AdminPages: Sendable {
    let admin: AdminService
    let renderer: PageRenderer
    let maxBody: Int
    /// A card template's pages as shoppers will see them, for its review item (the card shop draws them).
    var templateArt: (@Sendable (_ template: UUID, _ viewer: Identity) async throws -> [ReviewArt])? = nil

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let console = pages.group("admin", context: AuthenticatedContext.self).add(middleware: AdminOnly())
        console.get("", use: queue)
        console.get("review/:id", use: item)
        console.post("review/:id/claim", use: claim)
        console.post("review/:id/release", use: release)
        console.post("review/:id/approve", use: approve)
        console.post("review/:id/reject", use: reject)
        console.get("users", use: users)
        console.get("users/:id", use: user)
        console.post("users/:id/suspend", use: suspend)
        console.post("users/:id/reinstate", use: reinstate)
        console.post("users/:id/role", use: changeRole)
        console.get("audit", use: auditLog)
        console.get("audit.csv", use: auditCSV)
        console.get("backups", use: backups)
    }

    /// Which tab of the console a page is.
    struct Tabs: Sendable {
        var queue = false
        var users = false
        var audit = false
        var campuses = false
        var cards = false
        var backups = false
    }

    // MARK: Review queue

    struct QueueRow: Sendable {
        var id: String
        var kind: String
        var subject: String
        var finding: String?
        var waiting: String
        var claimedBy: String?
        var decision: String?
    }

    struct QueuePage: Sendable {
        var shell: Shell
        var tabs: Tabs
        var rows: [QueueRow]
        var open: Bool
        var states: [Choice]
        var heading: String
        var next: String?
    }

    struct Choice: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    @Sendable func queue(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = request.uri.queryParameters
        let state = query.get("state").flatMap(ReviewState.init(rawValue:)) ?? .open
        let page = try await admin.reviewQueue(state: state, kind: nil, limit: 25, cursor: query.get("cursor"))
        let reader = context.reader
        let rows = page.items.map { item in
            QueueRow(
                id: item.id.uuidString.lowercased(),
                kind: Self.kindName(item.kind),
                subject: item.subject,
                finding: item.findings.first,
                waiting: reader.when(item.createdAt),
                claimedBy: item.claimedBy,
                decision: Self.decision(item, reader)
            )
        }
        let heading =
            state == .open
            ? (rows.isEmpty
                ? say("Nothing waits for review") : reader.count(rows.count, "home.review.waiting"))
            : (state == .approved ? say("Approved") : say("Rejected"))
        let model = QueuePage(
            shell: Shell(title: say("Review queue"), context: context),
            tabs: Tabs(queue: true),
            rows: rows,
            open: state == .open,
            states: ReviewState.allCases.map {
                Choice(value: $0.rawValue, label: Self.stateName($0), selected: $0 == state)
            },
            heading: heading,
            next: page.nextCursor.map { "/admin?state=\(state.rawValue)&cursor=\($0)" }
        )
        return renderer.render("admin/queue", model)
    }

    struct ItemPage: Sendable {
        var shell: Shell
        var tabs: Tabs
        var id: String
        var kind: String
        var subject: String
        var subjectLink: String?
        var subjectLabel: String
        /// A report's statement may be appealed once; a dispute's decision is final.
        var appealable: Bool
        /// A card template: its pages as shoppers will see them (an admin sees the version waiting).
        var proofLink: String?
        /// ... and the studio's form, where an admin may correct it before approving.
        var editLink: String?
        /// ... and those pages drawn here, each with its text twin.
        var art: [ReviewArt]
        var hasArt: Bool
        var findings: [String]
        /// What is asked for (a campaign: every field, or what changed since its approval).
        var changes: [Change]
        var hasChanges: Bool
        var changed: Bool
        var open: Bool
        var mine: Bool
        var heldBy: String?
        var heldUntil: String?
        var filed: String
        var decision: String?
        var reason: String?
        var rejectForm: FormState
        /// A report or an appeal: approving picks one of these, with a statement of reasons.
        var actions: [ActionOption]
        var hasActions: Bool
        var actForm: FormState
        var actHeading: String
        var rejectHeading: String
        var rejectButton: String
        /// A merchant's item: who the owner is and whether payouts reach a bank.
        var merchant: MerchantFacts?
    }

    struct ActionOption: Sendable {
        var value: String
        var label: String
        var checked: Bool
    }

    struct Change: Sendable {
        var field: String
        var before: String?
        var after: String
    }

    /// A campaign's fields as the admin reads them.
    static let fieldNames = [
        "title": phrase("Title"), "body": phrase("Text"), "startsAt": phrase("Starts"), "endsAt": phrase("Ends"),
        "schedule": phrase("Days and hours"),
        "target": phrase("Who receives it"),
        "delivery": phrase("How it reaches them"), "discount": phrase("Discount"),
        "minimumSpend": phrase("Minimum spend"),
        "maxDiscount": phrase("Largest discount"),
        "totalRedemptions": phrase("Coupons in all"), "perCustomer": phrase("Per customer"),
        "code": phrase("Printed code"),
    ]

    /// A diff's value for reading: an instant in the reader's time zone, JSON as `key: value` pairs.
    static func shown(_ value: String, reader: Reader) -> String {
        if let date = RFC3339.parse(value) { return reader.full(date) }
        guard value.hasPrefix("{") || value.hasPrefix("["), let data = value.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data)
        else { return value }
        func words(_ any: Any) -> String {
            switch any {
            case let dictionary as [String: Any]:
                dictionary.keys.sorted().map { "\($0): \(words(dictionary[$0]!))" }.joined(separator: ", ")
            case let array as [Any]: array.map(words).joined(separator: "; ")
            default: "\(any)"
            }
        }
        return words(object)
    }

    static let itemNotices = [
        "claimed": phrase("It is yours to decide for the next 15 minutes; no other admin can meanwhile."),
        "released": phrase("You let it go: another admin may pick it up."),
    ]

    @Sendable func item(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let item = try await admin.reviewItem(try Query.id(context.parameters, "id", "review item"))
        let reader = context.reader
        let me = context.identity.user.username
        let notice: String? =
            switch request.uri.queryParameters.get("notice") {
            case "decided" where item.state != .open: Self.decidedNotice(item)
            case let key?: Self.itemNotices[key].map { say($0) }
            case nil: nil
            }
        let actForm = context.page.form("act") ?? FormState(names: ["action", "reason"])
        var art: [ReviewArt] = []
        if item.kind == .template, let templateArt { art = try await templateArt(item.subjectId, context.identity) }
        let model = ItemPage(
            shell: Shell(title: say("Review: {subject}", ["subject": item.subject]), context: context, notice: notice),
            tabs: Tabs(queue: true),
            id: item.id.uuidString.lowercased(),
            kind: Self.kindName(item.kind),
            subject: item.subject,
            subjectLink: item.kind == .merchant
                ? "/admin/users/\(item.subjectId.uuidString.lowercased())"
                : item.kind == .dispute ? WalletService.disputePath(item.subjectId) : nil,
            subjectLabel: item.kind == .dispute ? say("The dispute and its receipt") : say("Account"),
            appealable: item.kind == .report,
            proofLink: item.kind == .template ? "/cards/templates/\(item.subjectId.uuidString.lowercased())" : nil,
            editLink: item.kind == .template ? "/cards/studio/\(item.subjectId.uuidString.lowercased())" : nil,
            art: art,
            hasArt: !art.isEmpty,
            findings: item.findings,
            changes: item.diff.map {
                Change(
                    field: Self.fieldNames[$0.field].map { say($0) } ?? $0.field,
                    before: $0.before.map { Self.shown($0, reader: reader) },
                    after: $0.after.map { Self.shown($0, reader: reader) } ?? "—"
                )
            },
            hasChanges: !item.diff.isEmpty,
            changed: item.diff.contains { $0.before != nil },
            open: item.state == .open,
            mine: item.claimedBy == me,
            heldBy: item.claimedBy == me ? nil : item.claimedBy,
            heldUntil: item.claimedUntil.map { reader.time($0) },
            filed: reader.when(item.createdAt),
            decision: Self.decision(item, reader),
            reason: item.reason,
            rejectForm: context.page.form("reject") ?? FormState(names: ["reason"]),
            actions: item.actions.map {
                ActionOption(
                    value: $0.rawValue,
                    label: Self.actionName($0),
                    // A single action (an offer report's stop) is the one chosen.
                    checked: actForm.fields["action"]?.value == $0.rawValue || item.actions.count == 1
                )
            },
            hasActions: !item.actions.isEmpty,
            actForm: actForm,
            actHeading: Self.actHeading(item.kind),
            rejectHeading: Self.rejectHeading(item.kind),
            rejectButton: [.report, .offerReport].contains(item.kind)
                ? say("Dismiss") : item.kind == .appeal ? say("Deny") : say("Reject"),
            merchant: item.merchant.map { MerchantFacts($0, reader) }
        )
        return renderer.render("admin/item", model)
    }

    @Sendable func claim(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "review item")
        do {
            _ = try await admin.claim(context.identity, id)
        } catch let error as PlazaError where error.status == .conflict {
            return renderer.refused(alert: error.sentence, returnTo: Self.itemPath(id))
        }
        return PageRenderer.seeOther("\(Self.itemPath(id))?notice=claimed")
    }

    @Sendable func release(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "review item")
        _ = try await admin.release(context.identity, id)
        return PageRenderer.seeOther("\(Self.itemPath(id))?notice=released")
    }

    @Sendable func approve(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await decide(request, context: context, approve: true)
    }

    @Sendable func reject(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await decide(request, context: context, approve: false)
    }

    private func decide(_ request: Request, context: AuthenticatedContext, approve: Bool) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "review item")
        do {
            // A report or an appeal sends its action and statement with the approval.
            let action = ReviewAction(rawValue: form["action"])
            let acting = approve && form.optional("reason") != nil || action != nil
            _ = try await admin.decide(
                context.identity,
                id,
                approve: approve,
                reason: approve && !acting ? nil : form["reason"],
                action: approve ? action : nil
            )
        } catch let error as PlazaError where error.status.code < 500 && error.status != .notFound {
            if error.code == .validationFailed {
                let name = approve ? "act" : "reject"
                return renderer.refused(
                    name,
                    FormState(form, names: ["action", "reason"], error: error),
                    returnTo: "\(Self.itemPath(id))#\(name)"
                )
            }
            return renderer.refused(alert: error.sentence, returnTo: Self.itemPath(id))
        }
        return PageRenderer.seeOther("\(Self.itemPath(id))?notice=decided")
    }

    static func actHeading(_ kind: ReviewKind) -> String {
        switch kind {
        case .appeal: say("Grant the appeal")
        case .dispute: say("Uphold: refund the customer")
        case .offerReport: say("Stop the campaign")
        default: say("Uphold the report")
        }
    }

    static func rejectHeading(_ kind: ReviewKind) -> String {
        switch kind {
        case .report: say("Dismiss the report")
        case .offerReport: say("Dismiss the reports: it keeps running")
        case .appeal: say("Deny the appeal")
        case .dispute: say("Reject the dispute")
        default: say("Reject")
        }
    }

    /// "Approved by root, Today 9:40 PM" once decided.
    static func decision(_ item: ReviewItem, _ reader: Reader) -> String? {
        item.decidedAt.map {
            say(
                "{state} by {admin}, {when}",
                [
                    "state": Self.stateName(item.state)
                        + (item.action.map { " (\(Self.actionNameInLine($0)))" } ?? ""),
                    "admin": item.decidedBy ?? say("an admin"), "when": reader.when($0),
                ]
            )
        }
    }

    static func itemPath(_ id: UUID) -> String { "/admin/review/\(id.uuidString.lowercased())" }
}
