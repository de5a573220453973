import Foundation
import Hummingbird
import PlazaCore

/// Paying into Plaza's hold asks for a confirmation like every other payment (issue 39): the deal card's button opens
/// this page, which names the seller, the item and the amount, and says what the hold does; only its button pays.
extension MarketPages {
    struct PayConfirmPage: Sendable {
        var shell: Shell
        var id: String
        var seller: WalletPages.Contact
        var title: String
        var amount: String
        var key: String
        var back: String
        /// The second step, when paying waits for a code from the authenticator app.
        var form: FormState
    }

    @Sendable func payConfirm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "offer")
        let offer = try await market.offerSide(context.identity, id)
        let back = Self.path(offer.conversationId)
        // Nothing to confirm for the seller, or once paid: back to the deal, which says where it stands.
        guard offer.buyerId == context.identity.user.id, offer.state == .accepted, offer.paymentState == nil else {
            return PageRenderer.seeOther(back + "#deal")
        }
        let money = try await market.dealMoney(offer)
        let page = PayConfirmPage(
            shell: Shell(title: say("Confirm payment"), context: context),
            id: id.uuidString.lowercased(),
            seller: WalletPages.contact(Person(username: money.seller.username, displayName: money.seller.name)),
            title: money.title,
            amount: context.reader.money(money.amount),
            key: UUID().uuidString,
            back: back + "#deal",
            form: context.page.form("pay") ?? FormState()
        )
        return renderer.render("market/pay-confirm", page)
    }
}
