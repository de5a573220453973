import Foundation
import Hummingbird
import PlazaCore

/// The merchant's campaign pages (`/offers/businesses/{id}/campaigns`, `/offers/campaigns/{id}`): list, editor with a
/// live preview, the campaign with its lint, actions and figures. Every action is the API's, through `OffersService`.
struct CampaignPages: Sendable {
    let offers: OffersService
    let renderer: PageRenderer
    let maxBody: Int
    /// The currency amounts are typed in (the Plaza's first).
    let currency: String

    static let notices = [
        "saved": phrase("Saved as a draft. Submit it for review when it is ready."),
        "changed": phrase("Your change is saved and waits for an admin's review; the approved version runs meanwhile."),
        "resent": phrase("Saved: the admin reviewing it sees the change."),
        "submitted": phrase("Sent for review: an admin will approve or reject it."),
        "paused": phrase("Paused: nobody receives it until you resume it."),
        "resumed": phrase("Running again: matching customers receive it."),
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("offers", context: AuthenticatedContext.self)
        signedIn.get("businesses/:id/campaigns", use: list)
        signedIn.get("businesses/:id/campaigns/new", use: newCampaign)
        signedIn.post("businesses/:id/campaigns", use: create)
        signedIn.post("businesses/:id/campaigns/reach", use: reach)
        signedIn.get("campaigns/:id", use: campaign)
        signedIn.get("campaigns/:id/edit", use: edit)
        signedIn.post("campaigns/:id", use: update)
        signedIn.post("campaigns/:id/submit", use: submit)
        signedIn.post("campaigns/:id/pause", use: pause)
        signedIn.post("campaigns/:id/resume", use: resume)
        signedIn.post("campaigns/:id/push", use: push)
    }

    static func path(_ campaign: UUID) -> String { "/offers/campaigns/\(campaign.uuidString.lowercased())" }

    // MARK: The list

    struct CampaignRow: Sendable {
        var id: String
        var title: String
        var kind: String
        var state: String
        /// The state in English, for `data-state` (scripts and tests read it).
        var stateCode: String
        var window: String
        var claimed: String?
        var pendingChange: Bool
    }

    struct ListPage: Sendable {
        var shell: Shell
        var businessId: String
        var name: String
        var rows: [CampaignRow]
        var hasRows: Bool
        var next: String?
    }

    static func row(_ campaign: Campaign, reader: Reader) -> CampaignRow {
        let content = campaign.content
        return CampaignRow(
            id: campaign.id.uuidString.lowercased(),
            title: content.title,
            kind: content.kind == .coupon ? say("Coupon") : say("Ad"),
            state: stateName(campaign.state),
            stateCode: stateCode(campaign.state),
            window: "\(reader.day(content.startsAt)) – \(reader.day(content.endsAt))",
            claimed: content.kind == .coupon ? claimed(campaign, reader: reader) : nil,
            pendingChange: campaign.pendingChange
        )
    }

    /// "claimed 3 of 50", or "claimed 3" when nothing caps the coupons.
    static func claimed(_ campaign: Campaign, reader: Reader) -> String {
        let count = campaign.claimed.formatted(.number.locale(reader.locale))
        guard let total = campaign.content.totalRedemptions else { return say("claimed {count}", ["count": count]) }
        return say(
            "claimed {count} of {total}",
            ["count": count, "total": total.formatted(.number.locale(reader.locale))]
        )
    }

    static func stateName(_ state: CampaignState) -> String { say(stateCode(state)) }

    /// The state's English word: `data-state`'s value, and the key of its words in the reader's language.
    static func stateCode(_ state: CampaignState) -> String {
        switch state {
        case .draft: phrase("draft")
        case .submitted: phrase("in review")
        case .approved: phrase("approved")
        case .rejected: phrase("rejected")
        case .active: phrase("active")
        case .paused: phrase("paused")
        case .ended: phrase("ended")
        }
    }

    /// The business's campaigns, newest first, for its owners and staff.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let cursor = request.uri.queryParameters.get("cursor").map { String($0) }
        let page = try await offers.campaigns(context.identity, business: id, limit: 50, cursor: cursor)
        let business = try await offers.businesses.requireMember(context.identity, of: id)
        let model = ListPage(
            shell: Shell(title: say("Offers and coupons"), context: context),
            businessId: id.uuidString.lowercased(),
            name: business.name,
            rows: page.items.map { Self.row($0, reader: context.reader) },
            hasRows: !page.items.isEmpty,
            next: page.nextCursor.map { "/offers/businesses/\(id.uuidString.lowercased())/campaigns?cursor=\($0)" }
        )
        return renderer.render("offers/campaigns", model)
    }

    // MARK: Actions

    @Sendable func submit(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await act(request, context, notice: "submitted") {
            _ = try await offers.submit(context.identity, $0)
            return nil
        }
    }

    @Sendable func pause(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await act(request, context, notice: "paused") {
            _ = try await offers.setPaused(context.identity, $0, true)
            return nil
        }
    }

    @Sendable func resume(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await act(request, context, notice: "resumed") {
            _ = try await offers.setPaused(context.identity, $0, false)
            return nil
        }
    }

    /// Staff push the running campaign to the customers in the shop now; the notice says how many it reached.
    @Sendable func push(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await act(request, context, notice: "pushed") { id -> String? in
            let pushed = try await offers.push(context.identity, id)
            return "pushed&sent=\(pushed.delivered)&present=\(pushed.present)"
        }
    }

    /// Runs an action on the campaign, then back to its page with `notice` (or what `action` answers as the notice);
    /// a refused action (a blocking finding, the wrong state, a merchant not approved yet) comes back as an alert.
    func act(
        _ request: Request,
        _ context: AuthenticatedContext,
        notice: String,
        _ action: (UUID) async throws -> String?
    ) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "campaign")
        do {
            let answer = try await action(id)
            return PageRenderer.seeOther("\(Self.path(id))?notice=\(answer ?? notice)")
        } catch let error as PlazaError where Self.isRefusal(error) {
            return renderer.refused(alert: Self.alert(error), returnTo: Self.path(id))
        }
    }

    /// A refusal the page explains (not a missing campaign nor a stranger's request, which answer with the error page).
    static func isRefusal(_ error: PlazaError) -> Bool {
        error.code == .merchantNotApproved
            || (error.status.code < 500 && error.status != .forbidden && error.status != .notFound)
    }

    static func alert(_ error: PlazaError) -> String {
        guard error.code == .campaignRefused else { return error.summary }
        let blocking = (error.findings ?? []).filter { $0.severity == .block }.map { PageLanguage.say($0.message) }
        return say("Not sent for review: fix these first.") + " " + blocking.joined(separator: " ")
    }
}
