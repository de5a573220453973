import Foundation
import Hummingbird
import PlazaCore

/// The web app's shell: the home page, static files, the HTML error page, and each domain's pages.
struct WebPages: Sendable {
    let services: PlazaServices
    let renderer: PageRenderer

    init(services: PlazaServices) {
        self.services = services
        renderer = PageRenderer(
            templates: services.templates,
            flashes: FlashCookies(secrets: services.secrets, secure: services.configuration.servesOverTLS)
        )
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = router.group().add(middleware: CSRFMiddleware(secrets: services.secrets))
        pages.get("/", use: home)
        let signedIn = pages.group("home", context: AuthenticatedContext.self)
        signedIn.get("live", use: homeFragment)
        signedIn.get("badges.json", use: badgesJSON)
        AccountsPages(
            accounts: services.accounts,
            renderer: renderer,
            configuration: services.configuration,
            campusDirectory: MarketCampusDirectory(market: services.market),
            catalogue: services.catalogue
        ).addRoutes(to: pages)
        BusinessesPages(businesses: services.businesses, renderer: renderer, configuration: services.configuration)
            .addRoutes(to: pages)
        PlacesPages(
            places: services.places,
            businesses: services.businesses,
            accounts: services.accounts,
            loyalty: services.loyalty,
            offers: services.offers,
            renderer: renderer,
            configuration: services.configuration
        ).addRoutes(
            to: pages
        )
        WalletPages(
            wallet: services.wallet,
            accounts: services.accounts,
            offers: services.offers,
            renderer: renderer,
            configuration: services.configuration
        ).addRoutes(
            to: pages
        )
        InboxPages(inbox: services.inbox, renderer: renderer).addRoutes(to: pages)
        SecondFactorsPages(
            secondFactors: services.secondFactors,
            renderer: renderer,
            maxBody: services.configuration.limits.maxRequestBody
        )
        .addRoutes(to: pages)
        NotificationsPages(
            notifications: services.notifications,
            renderer: renderer,
            maxBody: services.configuration.limits.maxRequestBody
        )
        .addRoutes(to: pages)
        LoyaltyPages(
            loyalty: services.loyalty,
            renderer: renderer,
            maxBody: services.configuration.limits.maxRequestBody,
            currency: services.configuration.wallet.currencies.first ?? "USD"
        ).addRoutes(to: pages)
        AdminPages(
            admin: services.admin,
            renderer: renderer,
            maxBody: services.configuration.limits.maxRequestBody,
            templateArt: { [cards = services.cards] in try await cards.reviewArt($0, viewer: $1) }
        ).addRoutes(to: pages)
        let currency = services.configuration.wallet.currencies.first ?? "USD"
        OffersPages(offers: services.offers, renderer: renderer, maxBody: services.configuration.limits.maxRequestBody)
            .addRoutes(to: pages)
        MarketPages(
            market: services.market,
            renderer: renderer,
            maxBody: services.configuration.limits.maxRequestBody,
            map: PlacesPages.mapLayers(services.configuration)
        ).addRoutes(to: pages)
        MarketAdminPages(
            market: services.market,
            renderer: renderer,
            maxBody: services.configuration.limits.maxRequestBody,
            map: PlacesPages.mapLayers(services.configuration)
        ).addRoutes(to: pages)
        CardsPages(cards: services.cards, renderer: renderer, maxBody: services.configuration.limits.maxRequestBody)
            .addRoutes(to: pages)
        CardsAdminPages(
            cards: services.cards,
            renderer: renderer,
            maxBody: services.configuration.limits.maxRequestBody
        ).addRoutes(to: pages)
        CampaignPages(
            offers: services.offers,
            renderer: renderer,
            maxBody: services.configuration.limits.maxRequestBody,
            currency: currency
        )
        .addRoutes(to: pages)
    }

    struct HomePage: Sendable {
        var shell: Shell
    }

    /// Anyone: what Plaza is, and the way in; signed in, the home screen.
    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        if context.identity != nil {
            return try await homeScreen(request, context: try AuthenticatedContext(context: context))
        }
        return renderer.render("home", HomePage(shell: Shell(title: "Plaza", context: context)))
    }

    struct ErrorPage: Sendable {
        var shell: Shell
        var status: Int
        var title: String
        var detail: String?
    }

    /// The HTML page for an error on a browser route.
    func errorPage(_ error: PlazaError, request: Request, context: AppRequestContext) -> Response? {
        if error.status == .unauthorized, request.method == .get {
            return PageRenderer.seeOther(
                "/login?next=\(request.uri.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/")"
            )
        }
        let error = error.localized(context.reader.words)
        let page = ErrorPage(
            shell: Shell(title: error.title, context: context),
            status: Int(error.status.code),
            title: error.title,
            detail: error.detail
        )
        var response = renderer.render("error", page, status: error.status)
        for field in error.headers { response.headers.append(field) }
        return response
    }
}
