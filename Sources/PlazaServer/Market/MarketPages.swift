import Foundation
import Hummingbird
import PlazaCore

/// The campus marketplace's pages: `/market` walks a student in (prove the university address with its code, sign the
/// agreement) and then shows their campus; every action is the API's, through `MarketService`.
struct MarketPages: Sendable {
    let market: MarketService
    let renderer: PageRenderer
    let maxBody: Int
    /// The base map of the meetup map.
    let map: PlacesPages.MapLayers

    static let notices = [
        "verified": phrase("Your university address is verified. One step left: read and sign the agreement."),
        "signed": phrase("Welcome to your campus marketplace."),
        "unsigned":
            phrase(
                "Signature withdrawn: your listings are hidden and the marketplace is closed to you until you sign again."
            ),
        "posted": phrase("Posted: students of your campus can find it now."),
        "sold": phrase("Marked sold: it has left the feed."),
        "changed": phrase("Saved: the listing shows your changes."),
        "price": phrase("Price changed: students who saved it hear when it drops."),
        "removed": phrase("Removed: nobody sees it any more."),
        "deleted": phrase("Deleted for you: the other side keeps it."),
        "unblocked": phrase("Unblocked: you see each other's listings and may write again."),
        "bid": phrase("Bid placed: Plaza bids for you up to your maximum, and tells you if someone outbids you."),
        "reported": phrase("Thanks for reporting it: an admin looks at every report, and you hear what they decide."),
        "reported-blocked":
            phrase(
                "Thanks for reporting it, and blocked: an admin looks at every report, and you hear what they decide."
            ),
        "appealed": phrase("Appeal sent: an admin looks at the decision again, and you hear the outcome."),
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("market", context: AuthenticatedContext.self)
        signedIn.get("", use: home)
        signedIn.post("campus-email", use: startCampusEmail)
        signedIn.get("verify", use: verifyPage)
        signedIn.post("verify", use: verify)
        signedIn.get("agreement", use: agreement)
        signedIn.post("agreement/sign", use: sign)
        signedIn.post("agreement/unsign", use: unsign)
        addListingRoutes(to: signedIn)
        addChatRoutes(to: signedIn)
        addDealRoutes(to: signedIn)
        addReportRoutes(to: signedIn)
        addYouRoutes(to: signedIn)
    }

    struct HomePage: Sendable {
        var shell: Shell
        var form: FormState
        var campuses: [CampusRow]
        /// The student's university, when sign-up or their address tells: the form speaks of it by name.
        var chosen: ChosenCampus?
        var noCampuses: Bool
        /// Not a verified student yet: step 1.
        var joining: Bool
        /// Verified, the agreement unsigned: step 2.
        var signing: Bool
        /// An upheld report suspended them: the decisions page and its appeal are what is left.
        var suspended: Bool
        var member: Member?
    }

    struct ChosenCampus: Sendable {
        var name: String
        var example: String
    }

    struct CampusRow: Sendable {
        var name: String
        var domains: String
    }

    struct Member: Sendable {
        var campus: String
        var until: String
    }

    @Sendable func home(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let reader = context.reader
        let membership = try await market.membership(context.identity)
        let signed = try await market.agreement(context.identity).isSigned
        let suspended = try await market.isSuspended(context.identity)
        if let membership, signed, !suspended {
            return try await feedPage(request, context: context, membership: membership)
        }
        let campuses = try await market.campuses()
        // The university picked at sign-up, or the one whose domain the account's own address has: its address goes in
        // the form already (a campus address used to sign up is the one to verify).
        let email = context.identity.user.email
        let picked = request.uri.queryParameters.get("campus").flatMap(UUID.init(uuidString:))
        let chosen = campuses.first { $0.id == picked } ?? campuses.first { MarketRules.belongs(email, to: $0.domains) }
        var form = context.page.form("campus-email") ?? FormState(names: ["email"])
        if context.page.form("campus-email") == nil, let chosen, MarketRules.belongs(email, to: chosen.domains) {
            form = form.with("email", email)
        }
        let model = HomePage(
            shell: Shell(title: say("Campus marketplace"), context: context, notice: notice(request)),
            form: form,
            campuses: campuses.map {
                CampusRow(
                    name: $0.name,
                    domains: $0.domains.map { "@" + $0.replacingOccurrences(of: "*.", with: "") }.joined(
                        separator: ", "
                    )
                )
            },
            chosen: chosen.map { campus in
                ChosenCampus(
                    name: campus.name,
                    example: "you@" + (campus.domains.first ?? "uni.edu").replacingOccurrences(of: "*.", with: "")
                )
            },
            noCampuses: campuses.isEmpty,
            joining: membership == nil,
            signing: membership != nil && !signed,
            suspended: membership != nil && signed && suspended,
            member: membership.map { Member(campus: $0.campus.name, until: reader.day($0.verifiedUntil)) }
        )
        return renderer.render("market/home", model)
    }

    @Sendable func startCampusEmail(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let email = form["email"].trimmingCharacters(in: .whitespaces)
        do {
            try await market.startCampusEmail(context.identity, email: email, client: context.clientAddress)
            return PageRenderer.seeOther("/market/verify?\(FormData.encoded([("email", email)]))")
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "campus-email",
                FormState(form, names: ["email"], error: error),
                returnTo: "/market"
            )
        }
    }

    struct VerifyPage: Sendable {
        var shell: Shell
        var email: String
        var form: FormState
    }

    @Sendable func verifyPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let email = request.uri.queryParameters.get("email").map { String($0) } ?? ""
        guard !email.isEmpty else { return PageRenderer.seeOther("/market") }
        let model = VerifyPage(
            shell: Shell(title: say("Enter your code"), context: context),
            email: email,
            form: context.page.form("code") ?? FormState(names: ["code"])
        )
        return renderer.render("market/verify", model)
    }

    @Sendable func verify(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let email = form["email"]
        do {
            _ = try await market.verifyCampusEmail(
                context.identity,
                CampusEmailVerification(email: email, code: form["code"]),
                client: context.clientAddress
            )
            return PageRenderer.seeOther("/market/agreement?notice=verified")
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "code",
                FormState(form, names: ["code"], error: error),
                returnTo: "/market/verify?\(FormData.encoded([("email", email)]))"
            )
        }
    }

    struct AgreementPage: Sendable {
        var shell: Shell
        var version: Int
        var paragraphs: [String]
        var signed: Bool
        var signedAt: String?
    }

    /// The agreement's rules in the reader's language (`market.agreement.text`, the English one word for word), else
    /// as the API gives them.
    static func agreementParagraphs(_ agreement: MarketAgreement, words: Catalogue.Words) -> [String] {
        let english = Catalogue.englishWords("market.agreement.text")
        let text = english == agreement.text ? words("market.agreement.text") : agreement.text
        return text.split(separator: "\n").map(String.init)
    }

    @Sendable func agreement(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let agreement = try await market.agreement(context.identity)
        let model = AgreementPage(
            shell: Shell(title: say("Marketplace agreement"), context: context, notice: notice(request)),
            version: agreement.version,
            paragraphs: Self.agreementParagraphs(agreement, words: context.reader.words),
            signed: agreement.isSigned,
            signedAt: agreement.isSigned ? agreement.signedAt.map(context.reader.full) : nil
        )
        return renderer.render("market/agreement", model)
    }

    @Sendable func sign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        do {
            _ = try await market.sign(context.identity, version: Int(form["version"]) ?? 0)
            return PageRenderer.seeOther("/market?notice=signed")
        } catch let error as PlazaError where error.code == .stateConflict {
            return renderer.refused(alert: "\(error.title) \(error.detail ?? "")", returnTo: "/market/agreement")
        }
    }

    @Sendable func unsign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        _ = try await market.unsign(context.identity)
        return PageRenderer.seeOther("/market/agreement?notice=unsigned")
    }

    func notice(_ request: Request) -> String? {
        request.uri.queryParameters.get("notice").flatMap {
            (Self.notices[String($0)] ?? Self.youNotices[String($0)]).map { say($0) }
        }
    }
}
