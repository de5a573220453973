import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// QR codes that start a payment (issue 39, trust at the till). A person's QR opens the payment form with their
/// username filled in, so a friend scans and pays them. A shop's QR, printed at the counter, opens the shop's pay
/// page: a customer scans it on the way in, shows the pay code it offers (or just stands there sharing their
/// location), and the cashier's charge arrives on that same page, live, to check and pay. Plaza has no payment to a
/// shop without its charge on purpose: the shop names the amount and the items, the customer approves; that is what
/// makes the receipt, the coupon and the punch right. Every QR has its text twin: the link, and the username to type.
extension WalletPages {
    func addPayQRRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("my-qr", use: myQR)
        signedIn.get("shop/:businessId", use: shopPage)
        signedIn.post("shop/:businessId/pay-code", use: shopPayCode)
        signedIn.get("shop/:businessId/poster", use: shopPoster)
    }

    struct MyQRPage: Sendable {
        var shell: Shell
        var username: String
        var name: String
        var link: String
        /// Markup made by `QRCode` from Plaza's own link (a username is letters, digits and `_`): unescaped.
        var qr: String
    }

    struct ShopPage: Sendable {
        var shell: Shell
        var businessId: String
        var name: String
        var address: String?
        var username: String
        var list: ChargeList
        var payCode: String?
        var payCodeExpires: String?
        var payCodeTime: String?
        /// Markup made by `QRCode` from the code's digits alone.
        var payCodeQR: String?
        /// The shop's team: the poster to print.
        var posterLink: String?
    }

    struct PosterPage: Sendable {
        var shell: Shell
        var businessId: String
        var name: String
        var address: String?
        var link: String
        /// Markup made by `QRCode` from Plaza's own link (a UUID): unescaped.
        var qr: String
    }

    /// "https://plaza.example/wallet/send?to=anna": what a person's QR holds.
    func payLink(to username: String) -> String {
        "\(configuration.baseURL)/wallet/send?to=\(Self.escape(username))"
    }

    /// "https://plaza.example/wallet/shop/<id>": what a shop's QR holds.
    func shopLink(_ business: UUID) -> String {
        "\(configuration.baseURL)/wallet/shop/\(business.uuidString.lowercased())"
    }

    @Sendable func myQR(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let user = context.identity.user
        let link = payLink(to: user.username)
        let page = MyQRPage(
            shell: Shell(title: say("My QR"), context: context),
            username: user.username,
            name: user.displayName,
            link: link,
            qr: QRCode(link)?.svg(scale: 5) ?? ""
        )
        return renderer.render("wallet/my-qr", page)
    }

    @Sendable func shopPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderShop(context: context, payCode: nil)
    }

    /// A fresh pay code, shown on the shop's page (never in a URL).
    @Sendable func shopPayCode(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: limit)
        return try await renderShop(context: context, payCode: try await wallet.newPayCode(context.identity))
    }

    func renderShop(context: AuthenticatedContext, payCode: PayCode?) async throws -> Response {
        let id = try Query.id(context.parameters, "businessId", "business")
        let business = try await wallet.businesses.business(id, viewer: context.identity)
        let reader = context.reader
        let page = ShopPage(
            shell: Shell(title: say("Pay {business}", ["business": business.name]), context: context),
            businessId: id.uuidString.lowercased(),
            name: business.name,
            address: business.locations.first?.address,
            username: context.identity.user.username,
            list: try await chargeList(context),
            payCode: payCode.map { String($0.code.prefix(4)) + " " + String($0.code.suffix(4)) },
            payCodeExpires: payCode.map { reader.machine($0.expiresAt) },
            payCodeTime: payCode.map { reader.time($0.expiresAt) },
            payCodeQR: payCode.flatMap { QRCode($0.qrPayload)?.svg(scale: 5) },
            posterLink: business.role == nil ? nil : "/wallet/shop/\(id.uuidString.lowercased())/poster"
        )
        return renderer.render("wallet/shop", page)
    }

    /// The shop's QR to print and put by the till: its owners and staff only.
    @Sendable func shopPoster(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "businessId", "business")
        let business = try await wallet.businesses.business(id, viewer: context.identity)
        guard business.role != nil else { throw PlazaError.notFound("business") }
        let link = shopLink(id)
        let page = PosterPage(
            shell: Shell(title: say("{business}: QR to print", ["business": business.name]), context: context),
            businessId: id.uuidString.lowercased(),
            name: business.name,
            address: business.locations.first?.address,
            link: link,
            qr: QRCode(link)?.svg(scale: 8) ?? ""
        )
        return renderer.render("wallet/shop-poster", page)
    }
}
