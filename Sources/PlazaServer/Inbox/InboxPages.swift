import Foundation
import Hummingbird
import PlazaCore

/// `/inbox`: what happened to the signed-in user, newest first, kept live by the page script.
struct InboxPages: Sendable {
    let inbox: InboxService
    let renderer: PageRenderer

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("inbox", context: AuthenticatedContext.self)
        signedIn.get("", use: page)
        signedIn.get("live", use: fragment)
        signedIn.post("seen", use: markSeen)
    }

    struct Row: Sendable {
        var title: String
        var note: String?
        var link: String
        var time: String
        var when: String
        var status: String?
        var unread: Bool

        init(_ entry: InboxEntry, reader: Reader) {
            title = entry.title
            note = entry.note
            link = entry.link
            time = reader.machine(entry.occurredAt)
            when = reader.when(entry.occurredAt)
            status = entry.status == .pending ? say("waiting for you") : nil
            unread = entry.unread
        }
    }

    /// The list fragment's model: the page includes it, the script reloads it alone.
    struct List: Sendable {
        var csrf: String
        var rows: [Row]
        var none: Bool
        var unread: Int
        var unreadLabel: String
        var marker: String?
        var older: String?
    }

    struct Page: Sendable {
        var shell: Shell
        var list: List
    }

    func list(_ request: Request, _ context: AuthenticatedContext) async throws -> List {
        let cursor = request.uri.queryParameters.get("cursor").flatMap { $0.isEmpty ? nil : $0 }
        let locale = context.reader.locale
        let page = try await inbox.inbox(context.identity, limit: 30, cursor: cursor) { $0.formatted(locale: locale) }
        let label =
            page.unreadCount >= InboxPage.unreadLimit
            ? say("{count}+ new", ["count": "\(InboxPage.unreadLimit)"])
            : say("{count} new", ["count": "\(page.unreadCount)"])
        return List(
            csrf: context.csrfToken ?? "",
            rows: page.items.map { Row($0, reader: context.reader) },
            none: page.items.isEmpty,
            unread: page.unreadCount,
            unreadLabel: label,
            marker: page.seenMarker,
            older: page.nextCursor.map {
                "/inbox?cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
            }
        )
    }

    @Sendable func page(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render(
            "inbox/inbox",
            Page(shell: Shell(title: say("Inbox"), context: context), list: try await list(request, context))
        )
    }

    @Sendable func fragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render("inbox/inbox-list", try await list(request, context))
    }

    /// Marks everything the page showed as seen (up to its newest entry, so nothing that arrived meanwhile).
    @Sendable func markSeen(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: 4_096)
        try await inbox.markSeen(context.identity, through: form["marker"].isEmpty ? nil : form["marker"])
        return PageRenderer.seeOther("/inbox")
    }
}
