import Foundation
import Hummingbird
import PlazaCore

/// The signed-in home screen: the balance with the wallet's actions, what waits for an answer, what is new in the inbox,
/// places nearby, and for merchants their businesses with today's takings. It only gathers what each domain's service
/// answers; the live part reloads when a charge or a payment event arrives.
extension WebPages {
    struct HomeScreen: Sendable {
        var shell: Shell
        var name: String
        var balance: String
        var pending: String?
        var live: HomeLive
        var nearby: [Place]
        var nearbyKnown: Bool
        var businesses: [BusinessRow]
        var noBusiness: Bool
        /// The first of the person's current loyalty cards.
        var cards: [LoyaltyPages.CardRow] = []
        /// The newest of the person's current offers.
        var offers: [OffersPages.OfferRow] = []
        /// The campus marketplace, when this Plaza has a campus: where the person stands.
        var market: MarketCard?
        /// For designers: their studio's next step.
        var studio: StudioCard?
        /// For admins: "4 items wait for review" (nil when none wait).
        var review: String?
    }

    struct StudioCard: Sendable {
        var text: String
        var action: String
        var href: String
    }

    struct MarketCard: Sendable {
        var text: String
        var action: String?
    }

    /// The part that follows events: charges waiting for an answer and the newest of the inbox.
    struct HomeLive: Sendable {
        struct Waiting: Sendable {
            var business: String
            var amount: String
        }

        struct Entry: Sendable {
            var title: String
            var link: String
            var when: String
            var time: String
            var unread: Bool
        }

        var waiting: [Waiting]
        var waitingTitle: String
        var hasWaiting: Bool
        var entries: [Entry]
        var unreadTitle: String
        var noEntries: Bool
    }

    struct Place: Sendable {
        var id: String
        var name: String
        var category: String
        var distance: String
    }

    struct BusinessRow: Sendable {
        var id: String
        var name: String
        var role: String
        var today: String
        var todayCount: String
    }

    /// The reader's counts for the navigation; a failure shows no badges rather than failing the page.
    @Sendable func badges(_ identity: Identity) async -> Badges? {
        async let charges = services.wallet.waitingCharges(identity)
        async let unread = services.inbox.unreadCount(identity)
        async let chats = services.market.unreadConversations(identity)
        guard let charges = try? await charges, let unread = try? await unread else { return nil }
        return Badges(charges: charges, inbox: unread, chats: (try? await chats) ?? 0)
    }

    @Sendable func badgesJSON(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try Response.json(await badges(context.identity) ?? Badges(charges: 0, inbox: 0))
    }

    func homeScreen(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let reader = context.reader
        let identity = context.identity
        let wallet = try await services.wallet.wallet(identity)
        let first = wallet.balances.first
        let businesses = try await services.businesses.myBusinesses(identity)
        var rows: [BusinessRow] = []
        for business in businesses {
            let today = try await services.wallet.dailyTotals(identity, business: business.id, days: 1).first
            rows.append(
                BusinessRow(
                    id: business.id.uuidString.lowercased(),
                    name: business.name,
                    role: business.role.map { $0 == .owner ? say("owner") : say("staff") } ?? "",
                    today: reader.money(
                        today?.net ?? 0,
                        today?.currency ?? services.configuration.wallet.currencies[0]
                    ),
                    todayCount: reader.count(today?.charges ?? 0, "home.business.sales")
                )
            )
        }
        let nearby = try await nearbyPlaces(identity, reader: reader)
        let merchant = [.merchant, .admin].contains(identity.user.role)
        let page = HomeScreen(
            shell: Shell(
                title: reader.words("shell.home"),
                context: context,
                notice: request.uri.queryParameters.get("notice").flatMap {
                    Self.notices.contains($0) ? reader.words("home.notice.\($0)") : nil
                }
            ),
            name: identity.user.displayName,
            balance: reader.money(
                first?.available ?? 0,
                first?.currency ?? services.configuration.wallet.currencies[0]
            ),
            pending: first.flatMap { $0.pending > 0 ? reader.money($0.pending, $0.currency) : nil },
            live: try await homeLive(context),
            nearby: nearby ?? [],
            nearbyKnown: nearby != nil,
            businesses: rows,
            noBusiness: merchant && rows.isEmpty
        )
        var screen = page
        screen.cards = try await services.loyalty.cards(identity, view: .current, limit: 3, cursor: nil).items.map {
            LoyaltyPages.row($0, reader: reader)
        }
        screen.offers = try await services.offers.offers(identity, history: false, limit: 3, cursor: nil).items.map {
            OffersPages.row($0, reader: reader)
        }
        screen.market = try await marketCard(identity, words: reader.words)
        screen.studio = try await studioCard(identity, reader: reader)
        if identity.user.role == .admin {
            let waiting = try await services.admin.openReviews()
            screen.review = waiting == 0 ? nil : reader.count(waiting, "home.review.waiting")
        }
        return renderer.render("home-signed-in", screen)
    }

    /// A designer's studio: their first template to start, or how their templates stand.
    func studioCard(_ identity: Identity, reader: Reader) async throws -> StudioCard? {
        guard identity.user.role == .designer else { return nil }
        let templates = try await services.cards.studio(identity)
        guard !templates.isEmpty else {
            return StudioCard(
                text: reader.words("home.studio.none"),
                action: reader.words("home.studio.start"),
                href: "/cards/studio/new"
            )
        }
        let count = { (state: CardTemplateState) in templates.filter { $0.state == state }.count }
        let parts = [
            count(.approved) > 0 ? reader.count(count(.approved), "home.studio.approved") : nil,
            count(.submitted) > 0 ? reader.count(count(.submitted), "home.studio.submitted") : nil,
            count(.rejected) > 0 ? reader.count(count(.rejected), "home.studio.rejected") : nil,
            count(.draft) > 0 ? reader.count(count(.draft), "home.studio.drafts") : nil,
        ].compactMap { $0 }
        return StudioCard(
            text: parts.joined(separator: " · "),
            action: reader.words("home.studio.open"),
            href: "/cards/studio"
        )
    }

    /// Notices after a redirect, by their catalogue key (`home.notice.<code>`).
    static let notices: Set<String> = ["welcome"]

    /// The campus marketplace's card: the next step of joining, or the student's campus.
    func marketCard(_ identity: Identity, words: Catalogue.Words) async throws -> MarketCard? {
        let market = services.market
        guard !(try await market.campuses()).isEmpty else { return nil }
        guard let membership = try await market.membership(identity) else {
            return MarketCard(text: words("home.market.join"), action: words("home.market.join.action"))
        }
        let campus = ["campus": membership.campus.name]
        guard try await market.agreement(identity).isSigned else {
            return MarketCard(text: words("home.market.verified", campus), action: words("home.market.sign"))
        }
        return MarketCard(text: words("home.market.member", campus), action: nil)
    }

    @Sendable func homeFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render("home-live", try await homeLive(context))
    }

    func homeLive(_ context: AuthenticatedContext) async throws -> HomeLive {
        let reader = context.reader
        let charges = try await services.wallet.listCharges(
            context.identity,
            business: nil,
            statuses: [.pending],
            limit: 5,
            cursor: nil
        ).items
        let locale = reader.locale
        let inbox = try await services.inbox.inbox(context.identity, limit: 3, cursor: nil) {
            $0.formatted(locale: locale)
        }
        return HomeLive(
            waiting: charges.map { HomeLive.Waiting(business: $0.business.name, amount: reader.money($0.money)) },
            waitingTitle: reader.count(charges.count, "home.waiting"),
            hasWaiting: !charges.isEmpty,
            entries: inbox.items.map {
                HomeLive.Entry(
                    title: $0.title,
                    link: $0.link,
                    when: reader.when($0.occurredAt),
                    time: reader.machine($0.occurredAt),
                    unread: $0.unread
                )
            },
            unreadTitle: inbox.unreadCount == 0
                ? reader.words("home.inbox.nothing_new") : reader.count(inbox.unreadCount, "home.inbox.new"),
            noEntries: inbox.items.isEmpty
        )
    }

    /// Up to three places near where the reader last shared from (in the last half hour); nil when Plaza does not know.
    func nearbyPlaces(_ identity: Identity, reader: Reader) async throws -> [Place]? {
        guard let position = services.places.index.position(of: identity.user.id),
            position.recordedAt > Date().addingTimeInterval(-1_800)
        else { return nil }
        let page = try await services.businesses.nearby(
            Coordinate(latitude: position.latitude, longitude: position.longitude),
            radius: 2_000,
            category: nil,
            limit: 3,
            cursor: nil
        )
        return page.items.map {
            Place(
                id: $0.id.uuidString.lowercased(),
                name: $0.name,
                category: PlacesPages.categoryName($0.category),
                distance: $0.distanceMeters.map(reader.distance) ?? ""
            )
        }
    }
}
