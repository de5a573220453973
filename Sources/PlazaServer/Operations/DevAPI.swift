import Foundation
import Hummingbird

/// `/dev/*`: only in dev and demo mode. The mailbox shows every queued e-mail, so a developer (or a browser
/// test) can read a verification code without a mail server.
struct DevAPI: Sendable {
    let services: PlazaServices

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("dev/mailbox", use: mailbox)
    }

    struct MailboxPage: Sendable {
        var shell: Shell
        var mails: [OutboxStore.Entry]
    }

    /// Dev and demo only: the outbox, newest first; JSON for `Accept: application/json`.
    @Sendable func mailbox(_ request: Request, context: AppRequestContext) async throws -> Response {
        let mails = try await OutboxStore().recent(on: services.database.sql)
        if request.headers[.accept]?.contains("application/json") == true { return try .json(mails) }
        let page = MailboxPage(shell: Shell(title: "Dev mailbox", context: context), mails: mails)
        return PageRenderer(templates: services.templates).render("dev/mailbox", page)
    }
}
