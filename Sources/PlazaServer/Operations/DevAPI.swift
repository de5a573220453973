import Foundation
import Hummingbird
import PlazaCore

/// `/dev/*`: only in dev and demo mode. The mailbox shows every queued e-mail, so a developer (or a browser
/// test) can read a verification code without a mail server.
struct DevAPI: Sendable {
    let services: PlazaServices

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("dev/mailbox", use: mailbox)
    }

    struct MailboxPage: Sendable {
        var shell: Shell
        var mails: [Mail]
    }

    /// One mail as the page shows it: its text in parts, each web address a link (the verification link is one tap).
    struct Mail: Sendable {
        struct Part: Sendable {
            var text: String
            var link: String?
        }

        var to: String
        var subject: String
        var sentAt: String
        var parts: [Part]

        init(_ entry: OutboxStore.Entry) {
            (to, subject, sentAt) = (entry.to, entry.subject, RFC3339.format(entry.sentAt))
            parts = Self.parts(entry.text)
        }

        /// "Open https://x/verify?t=1 to ..." → text, link, text.
        static func parts(_ text: String) -> [Part] {
            var parts: [Part] = []
            var rest = text[...]
            while let match = rest.firstMatch(of: #/https?://[^\s<>"]+/#) {
                parts.append(Part(text: String(rest[..<match.range.lowerBound]), link: String(match.output)))
                rest = rest[match.range.upperBound...]
            }
            parts.append(Part(text: String(rest), link: nil))
            return parts
        }
    }

    /// Dev and demo only: the outbox, newest first; JSON for `Accept: application/json`.
    @Sendable func mailbox(_ request: Request, context: AppRequestContext) async throws -> Response {
        let mails = try await OutboxStore().recent(on: services.database.sql)
        if request.headers[.accept]?.contains("application/json") == true { return try .json(mails) }
        let page = MailboxPage(shell: Shell(title: "Dev mailbox", context: context), mails: mails.map(Mail.init))
        return PageRenderer(templates: services.templates).render("dev/mailbox", page)
    }
}
