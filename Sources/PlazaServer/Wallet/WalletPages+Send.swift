import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// Paying a person as payment apps do: a handle (`carla`, `@carla`, `$carla`) or a recent contact, then a confirmation
/// with the recipient's name and picture before any money moves, then a success screen with the receipt.
extension WalletPages {
    func addSendRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("send", use: sendForm)
        signedIn.get("send/review", use: reviewSend)
        signedIn.post("send", use: send)
        signedIn.get("people", use: people)
    }

    /// A person the typed "To" could mean, linking to the form with them filled in (the fallback without the script).
    struct Suggestion: Sendable, Codable {
        var username: String
        var name: String
        var link: String
    }

    /// The type-ahead's list for the pay and request forms' script (`?q=car`): JSON, each with its link.
    @Sendable func people(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let typed = String((request.uri.queryParameters.get("q") ?? "").prefix(80))
        let found = (try? await wallet.suggestPeople(context.identity, typed: typed)) ?? []
        return try .json(found.map { Suggestion(username: $0.username, name: $0.displayName, link: "") })
    }

    /// Without the script, a "To" that names nobody is answered beside the field with who it could mean: the same
    /// suggestions as the type-ahead, each a link back to the form (`path`) with that person and the rest kept.
    func suggestions(_ form: FormState, path: String, context: AuthenticatedContext) async -> [Suggestion] {
        guard let to = form.fields["to"], to.error != nil, !to.value.isEmpty,
            let found = try? await wallet.suggestPeople(context.identity, typed: to.value)
        else { return [] }
        let kept = ["amount", "note"].compactMap { name in
            form.fields[name].flatMap { $0.value.isEmpty ? nil : "&\(name)=\(Self.escape($0.value))" }
        }.joined()
        return found.map {
            Suggestion(username: $0.username, name: $0.displayName, link: "\(path)?to=%40\($0.username)\(kept)")
        }
    }

    struct Contact: Sendable {
        var username: String
        var name: String
        var short: String
        var initials: String
        var hue: Int
    }

    struct SendPage: Sendable {
        var shell: Shell
        var form: FormState
        var currency: String
        var contacts: [Contact]
        var hasContacts: Bool
        var suggestions: [Suggestion]
        var hasSuggestions: Bool
    }

    struct ReviewPage: Sendable {
        var shell: Shell
        var recipient: Contact
        var amount: String
        var amountText: String
        var note: String?
        var key: String
        var editLink: String
        /// The second step, when the payment waits for a code from the authenticator app.
        var form: FormState
    }

    static let sendFields = ["to", "amount", "note"]

    static func contact(_ person: Person) -> Contact {
        Contact(
            username: person.username,
            name: person.displayName,
            short: person.shortName,
            initials: person.initials,
            hue: Self.hue(person.username)
        )
    }

    /// One of the stylesheet's 12 colours for a person's initials (`.avatar.h0` ... `.h11`), the same for a username always.
    static func hue(_ username: String) -> Int {
        Int(username.utf8.reduce(UInt32(7)) { ($0 &* 31) &+ UInt32($1) } % 12)
    }

    @Sendable func sendForm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderSend(
            context: context,
            form: context.page.form("send") ?? FormState(FormData(request.uri.query ?? ""), names: Self.sendFields)
        )
    }

    func renderSend(context: AuthenticatedContext, form: FormState) async throws -> Response {
        let contacts = try await wallet.contacts(context.identity).map(Self.contact)
        let suggested = await suggestions(form, path: "/wallet/send", context: context)
        let page = SendPage(
            shell: Shell(title: say("Pay"), context: context),
            form: form,
            currency: currency,
            contacts: contacts,
            hasContacts: !contacts.isEmpty,
            suggestions: suggested,
            hasSuggestions: !suggested.isEmpty
        )
        return renderer.render("wallet/send", page)
    }

    /// The confirmation: who gets how much, checked before anything moves (a GET: nothing changes yet).
    @Sendable func reviewSend(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        // A GET form: the query is encoded as a posted form would be.
        let values = FormData(request.uri.query ?? "")
        do {
            var validator = Validator()
            let handle = AccountRules.handle(values["to"])
            validator.check(!handle.isEmpty, "to", phrase("Name who gets the money: a username such as @carla."))
            validator.check(
                handle != context.identity.user.username,
                "to",
                phrase("You cannot send money to yourself.")
            )
            validator.apply(WalletRules.textProblem(values.optional("note")), to: "note")
            let amount = WalletRules.parseAmount(values["amount"], currency: currency).flatMap { $0 > 0 ? $0 : nil }
            validator.check(amount != nil, "amount", phrase("Type an amount such as 12.50."))
            guard validator.isValid, let amount else { throw PlazaError.validation(validator.errors) }
            let person: Person
            do { person = try await accounts.person(handle) } catch let error as PlazaError
                where error.status == .notFound
            {
                throw PlazaError.validation(
                    field: "to",
                    say(
                        "No one has the username @{handle}. Check the spelling, or pick from your contacts.",
                        ["handle": handle]
                    )
                )
            }
            let edit = Self.sendFields.map { "\($0)=\(Self.escape(values[$0]))" }.joined(separator: "&")
            let page = ReviewPage(
                shell: Shell(title: say("Confirm payment"), context: context),
                recipient: Self.contact(person),
                amount: context.reader.money(amount, currency),
                amountText: values["amount"],
                note: values.optional("note"),
                key: UUID().uuidString,
                editLink: "/wallet/send?\(edit)",
                form: context.page.form("sendReview") ?? FormState()
            )
            return renderer.render("wallet/send-review", page)
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "send",
                FormState(values, names: Self.sendFields, error: error),
                returnTo: "/wallet/send"
            )
        }
    }

    /// Sends what the confirmation showed, once, then shows the payment's own page with "You sent ...".
    @Sendable func send(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        var sent: SentTransfer?
        do {
            let amount = try Self.amount(form["amount"], currency: currency)
            let ran = try await SecondFactorAnswer.$current.withValue(form["secondFactor"]) {
                try await once(form, action: "send", context: context) { claim in
                    sent = try await wallet.transfer(
                        context.identity,
                        TransferRequest(
                            to: form["to"],
                            amount: amount,
                            currency: currency,
                            note: form.optional("note")
                        ),
                        claim: claim
                    )
                }
            }
            if !ran { return PageRenderer.seeOther("/wallet?notice=done") }
        } catch let error as PlazaError where error.asksAgain {
            // The second step is the confirmation page again, with a field for the code.
            let review = Self.sendFields.map { "\($0)=\(Self.escape(form[$0]))" }.joined(separator: "&")
            return renderer.refused(
                "sendReview",
                FormState(form, error: error),
                returnTo: "/wallet/send/review?\(review)"
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "send",
                FormState(form, names: Self.sendFields, error: error),
                returnTo: "/wallet/send"
            )
        }
        guard let sent else { return PageRenderer.seeOther("/wallet") }
        return PageRenderer.seeOther("/wallet/activity/\(sent.transfer.id.uuidString.lowercased())?notice=sent")
    }
}
