import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// The handshake at the meetup: the seller's page with the QR and the six digits (saying live when the buyer
/// confirmed), and the buyer's code or scan.
extension MarketPages {
    // MARK: The handshake

    struct HandshakePage: Sendable {
        var shell: Shell
        var id: String
        var conversation: String
        /// Markup made by `QRCode` from Plaza's own signed token (never user text).
        var qr: String
        var code: String
        var until: String
        var buyer: String
        var status: HandshakeStatus
    }

    /// The seller's QR and code, shown once on this answer (never in an address); a new one replaces it.
    @Sendable func handshakePage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "meetup")
        let (meetup, conversation) = try await market.meetupSide(context.identity, id)
        do {
            let handshake = try await market.handshake(context.identity, meetup: id)
            let buyer = try await market.conversation(context.identity, conversation.id).buyer
            let code = "\(handshake.code.prefix(3)) \(handshake.code.suffix(3))"
            let name = Person(username: buyer.username, displayName: buyer.displayName).shortName
            let model = HandshakePage(
                shell: Shell(title: say("Handshake"), context: context),
                id: id.uuidString.lowercased(),
                conversation: conversation.id.uuidString.lowercased(),
                qr: QRCode(handshake.token)?.svg(scale: 5) ?? "",
                code: code,
                until: context.reader.time(handshake.expiresAt),
                buyer: name,
                status: HandshakeStatus(done: false, buyer: name, conversation: conversation.id.uuidString.lowercased())
            )
            return renderer.render("market/handshake", model)
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(alert: Self.sentence(error), returnTo: Self.path(meetup.conversationId))
        }
    }

    struct HandshakeStatus: Sendable {
        var done: Bool
        var buyer: String
        var conversation: String
    }

    /// The handshake page's live line: waiting, or confirmed.
    @Sendable func handshakeStatus(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "meetup")
        let (meetup, conversation) = try await market.meetupSide(context.identity, id)
        let buyer = try await market.conversation(context.identity, conversation.id).buyer
        let status = HandshakeStatus(
            done: meetup.state == .completed,
            buyer: Person(username: buyer.username, displayName: buyer.displayName).shortName,
            conversation: conversation.id.uuidString.lowercased()
        )
        return renderer.render("market/handshake-status", status)
    }

    /// The buyer's typed code or scanned QR.
    @Sendable func confirmPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "meetup")
        let (meetup, _) = try await market.meetupSide(context.identity, id)
        let back = Self.path(meetup.conversationId)
        do {
            let token = form.optional("token")
            let result = try await market.confirmHandshake(
                context.identity,
                meetup: id,
                HandshakeConfirmation(code: token == nil ? form["code"] : nil, token: token)
            )
            return PageRenderer.seeOther(
                Self.path(meetup.conversationId, notice: result.payment == nil ? "bought" : "bought-paid")
            )
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                "handshake",
                FormState(form, names: ["code"], error: error),
                returnTo: back + "#deal"
            )
        }
    }
}
