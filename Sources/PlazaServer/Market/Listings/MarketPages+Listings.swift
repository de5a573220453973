import Foundation
import Hummingbird
import PlazaCore

/// The marketplace's Buy and Sell pages: the campus feed with search and filters, one listing, my listings, and the
/// new-listing form whose photos upload while the rest is filled in (`/market/photos`, the page script).
extension MarketPages {
    static let listingFields = ["title", "description", "price", "free", "category", "condition"]

    /// A listing's state as its tag shows it ("sold").
    static func stateName(_ state: ListingState) -> String {
        switch state {
        case .active: say("active")
        case .reserved: say("reserved")
        case .sold: say("sold")
        case .removed: say("removed")
        }
    }

    /// A listing's condition as the reader says it.
    static func conditionName(_ condition: ListingCondition) -> String {
        switch condition {
        case .new: say("New")
        case .likeNew: say("Like new")
        case .good: say("Good")
        case .fair: say("Fair")
        case .poor: say("Poor")
        }
    }

    func addListingRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("listings/:id", use: listingPage)
        signedIn.post("listings/:id/sold", use: sold)
        signedIn.post("listings/:id/remove", use: remove)
        signedIn.get("sell", use: sell)
        signedIn.get("sell/new", use: newListing)
        signedIn.post("sell", use: post)
        signedIn.post("photos", use: photo)
        signedIn.get("users/:username", use: profilePage)
        addEditListingRoutes(to: signedIn)
    }

    struct ProfilePage: Sendable {
        var shell: Shell
        var name: String
        var username: String
        var since: String
        var sold: String
        var cards: [Card]
        var mine: Bool
        var following: Bool
        /// "★ 4.5 · 2 ratings", or nil before any shows.
        var rating: String?
        var ratings: [RatingRow]
        var hasRatings: Bool
        var bio: String?
        var photo: String?
    }

    struct RatingRow: Sendable {
        var stars: String
        var label: String
        var comment: String?
        var who: String
    }

    /// "★★★★☆" for 4 stars.
    static func stars(_ count: Int) -> String {
        String(repeating: "★", count: max(0, min(5, count))) + String(repeating: "☆", count: max(0, 5 - count))
    }

    /// "★ 4.5 · 12 ratings", or nil before the first shown rating.
    static func ratingLine(_ summary: RatingSummary, reader: Reader) -> String? {
        summary.average.map {
            "★ \($0.formatted(.number.precision(.fractionLength(1)).locale(reader.locale))) · "
                + reader.count(summary.count, "count.rating")
        }
    }

    /// "★ 4.8 (12) · member since March 2025 · 7 sales", or "No ratings yet · …": the seller as their profile counts them.
    static func sellerFacts(_ seller: ListingSeller, reader: Reader) -> String {
        let rating =
            seller.rating.flatMap { summary in
                summary.average.map {
                    "★ \($0.formatted(.number.precision(.fractionLength(1)).locale(reader.locale))) "
                        + "(\(summary.count.formatted(.number.locale(reader.locale))))"
                }
            } ?? say("No ratings yet")
        let since = seller.memberSince.map { say("member since {month}", ["month": reader.monthYear($0)]) }
        let sales = seller.sales.map { reader.count($0, "count.sale") }
        return ([rating] + [since, sales].compactMap { $0 }).joined(separator: " · ")
    }

    static func ratingRow(_ rating: MarketRating, reader: Reader) -> RatingRow {
        RatingRow(
            stars: stars(rating.stars),
            label: say("{stars} of 5 stars", ["stars": rating.stars.formatted(.number.locale(reader.locale))]),
            comment: rating.comment,
            who: say(
                rating.role == .buyer ? phrase("{name}, who bought {title}") : phrase("{name}, who sold {title}"),
                [
                    "name": Person(username: rating.rater.username, displayName: rating.rater.displayName).shortName,
                    "title": rating.listingTitle,
                ]
            ) + " · \(reader.day(rating.shownAt))"
        )
    }

    /// A student's page: who they are on the marketplace and what they sell now.
    @Sendable func profilePage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard try await market.membership(context.identity) != nil else { return PageRenderer.seeOther("/market") }
        let profile = try await market.profile(context.identity, username: context.parameters.get("username") ?? "")
        let listings = try await market.feed(
            context.identity,
            ListingQuery(seller: profile.username),
            limit: 50,
            cursor: nil
        )
        let reader = context.reader
        let ratings = try await market.ratings(context.identity, username: profile.username, limit: 20, cursor: nil)
            .items.map {
                Self.ratingRow($0, reader: reader)
            }
        let model = ProfilePage(
            shell: Shell(title: profile.displayName, context: context, notice: notice(request)),
            name: profile.displayName,
            username: profile.username,
            since: reader.day(profile.memberSince),
            sold: reader.count(profile.itemsSold, "count.item_sold"),
            cards: listings.items.map { Self.card($0, reader: reader) },
            mine: profile.username == context.identity.user.username,
            following: try await market.following(context.identity).contains { $0.username == profile.username },
            rating: Self.ratingLine(profile.rating, reader: reader),
            ratings: ratings,
            hasRatings: !ratings.isEmpty,
            bio: profile.bio,
            photo: profile.photo?.thumbnailUrl
        )
        return renderer.render("market/profile", model)
    }

    struct PersonRow: Sendable {
        var username: String
        var name: String
        var photo: String?
        var detail: String
    }

    static func personRow(_ profile: MarketProfile, reader: Reader) -> PersonRow {
        PersonRow(
            username: profile.username,
            name: profile.displayName,
            photo: profile.photo?.thumbnailUrl,
            detail: ([ratingLine(profile.rating, reader: reader)].compactMap { $0 } + [
                reader.count(profile.itemsSold, "count.item_sold")
            ])
            .joined(separator: " · ")
        )
    }

    struct Card: Sendable {
        var id: String
        var title: String
        var price: String
        var seller: String
        var thumbnail: String?
        var state: String?
        var when: String
    }

    struct Option: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    static func card(_ listing: Listing, reader: Reader, showState: Bool = false) -> Card {
        Card(
            id: listing.id.uuidString.lowercased(),
            title: listing.title,
            price: price(listing, reader: reader),
            seller: listing.seller.displayName,
            thumbnail: listing.photos.first?.thumbnailUrl,
            state: showState ? Self.stateName(listing.state) : nil,
            when: reader.when(listing.createdAt)
        )
    }

    /// "$12.50", "Free", or a biddable listing's price now: "$25.00 · 3 bids".
    static func price(_ listing: Listing, reader: Reader) -> String {
        if let bidding = listing.bidding, let currency = listing.price?.currency {
            return bidding.bidCount == 0
                ? say("{price} · bidding", ["price": reader.money(bidding.currentPrice, currency)])
                : "\(reader.money(bidding.currentPrice, currency)) · \(reader.count(bidding.bidCount, "count.bid"))"
        }
        return listing.price.map(reader.money) ?? say("Free")
    }

    // MARK: Buy

    struct FeedPage: Sendable {
        var shell: Shell
        var campus: String
        var q: String
        var categories: [Option]
        var conditions: [Option]
        var sorts: [Option]
        var minPrice: String
        var maxPrice: String
        var cards: [Card]
        /// Students whose name or username matches the words (first page only).
        var people: [PersonRow] = []
        var hasPeople = false
        var searched: Bool
        /// A filter besides the words is set: the filters stay open.
        var filtered: Bool
        var error: String?
        var next: String?
        var spots: [SafeSpot]
        /// The chosen filters, for "Save this search".
        var category: String
        var condition: String
    }

    /// The feed, for a student in; `membership` is theirs.
    func feedPage(
        _ request: Request,
        context: AuthenticatedContext,
        membership: CampusMembership
    ) async throws -> Response {
        let parameters = request.uri.queryParameters
        let value = { (name: String) in parameters.get(name).map { String($0) } ?? "" }
        let categories = try await market.categories()
        var page = FeedPage(
            shell: Shell(title: say("Campus marketplace"), context: context, notice: notice(request)),
            campus: membership.campus.name,
            q: value("q"),
            categories: [Option(value: "", label: say("Any category"), selected: value("category").isEmpty)]
                + categories.map { Option(value: $0.slug, label: $0.name, selected: $0.slug == value("category")) },
            conditions: [Option(value: "", label: say("Any condition"), selected: value("condition").isEmpty)]
                + ListingCondition.allCases.map {
                    Option(
                        value: $0.rawValue,
                        label: Self.conditionName($0),
                        selected: $0.rawValue == value("condition")
                    )
                },
            sorts: [
                ("newest", say("Newest")), ("price_asc", say("Price: low to high")),
                ("price_desc", say("Price: high to low")),
            ].map {
                Option(value: $0.0, label: $0.1, selected: $0.0 == (value("sort").isEmpty ? "newest" : value("sort")))
            },
            minPrice: value("minPrice"),
            maxPrice: value("maxPrice"),
            cards: [],
            searched: ["q", "category", "condition", "minPrice", "maxPrice"].contains { !value($0).isEmpty },
            filtered: ["category", "condition", "minPrice", "maxPrice"].contains { !value($0).isEmpty },
            error: nil,
            next: nil,
            spots: try await market.safeSpots(campus: membership.campus.id),
            category: value("category"),
            condition: value("condition")
        )
        do {
            var query = try ListingsAPI.query(request.uri, lenient: true)
            query.minPrice = try amount(value("minPrice"), field: "minPrice")
            query.maxPrice = try amount(value("maxPrice"), field: "maxPrice")
            let paging = try Paging(request.uri)
            let result = try await market.feed(context.identity, query, limit: paging.limit, cursor: paging.cursor)
            page.cards = result.items.map { Self.card($0, reader: context.reader) }
            let words = value("q").trimmingCharacters(in: .whitespaces)
            if words.replacingOccurrences(of: "@", with: "").count >= 2, words.count <= 60, paging.cursor == nil {
                page.people = try await market.searchStudents(context.identity, text: words).prefix(5).map {
                    Self.personRow($0, reader: context.reader)
                }
                page.hasPeople = !page.people.isEmpty
            }
            page.next = result.nextCursor.map { cursor in
                "/market?"
                    + FormData.encoded(
                        ["q", "category", "condition", "minPrice", "maxPrice", "sort"].map { ($0, value($0)) }.filter {
                            !$0.1.isEmpty
                        } + [
                            ("cursor", cursor)
                        ]
                    )
            }
        } catch let error as PlazaError where error.code == .validationFailed {
            page.error = error.errors?.map { say($0.message) }.joined(separator: " ") ?? say(error.title)
        }
        return renderer.render("market/feed", page)
    }

    /// "12.50" typed in a price box, as minor units; empty is none.
    func amount(_ text: String, field: String) throws -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard let amount = WalletRules.parseAmount(trimmed, currency: market.currency), amount >= 0 else {
            throw PlazaError.validation(field: field, phrase("Type a price such as 12.50, or leave it empty."))
        }
        return amount
    }

    // MARK: One listing

    struct ListingPage: Sendable {
        var shell: Shell
        var id: String
        var title: String
        var price: String
        var description: String
        var category: String
        var condition: String
        var seller: String
        var sellerUsername: String
        /// "★ 4.8 (12) · member since March 2025 · 7 sales".
        var sellerFacts: String
        var posted: String
        var photos: [ListingPhoto]
        var mine: Bool
        var open: Bool
        var state: String
        var soldTo: String?
        var saved: Bool
        var bidding: BiddingView?
        /// The seller's own price form (not while people bid).
        var priceForm: FormState?
    }

    @Sendable func listingPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard try await market.membership(context.identity) != nil else { return PageRenderer.seeOther("/market") }
        let listing = try await market.listing(context.identity, try Query.id(context.parameters, "id", "listing"))
        let categories = try await market.categories()
        let model = ListingPage(
            shell: Shell(title: listing.title, context: context, notice: notice(request)),
            id: listing.id.uuidString.lowercased(),
            title: listing.title,
            price: Self.price(listing, reader: context.reader),
            description: listing.description,
            category: categories.first { $0.slug == listing.category }?.name ?? listing.category,
            condition: Self.conditionName(listing.condition),
            seller: listing.seller.displayName,
            sellerUsername: listing.seller.username,
            sellerFacts: Self.sellerFacts(listing.seller, reader: context.reader),
            posted: context.reader.day(listing.createdAt),
            photos: listing.photos,
            mine: listing.seller.username == context.identity.user.username,
            open: [.active, .reserved].contains(listing.state),
            state: Self.stateName(listing.state),
            soldTo: listing.soldTo,
            saved: try await market.isSaved(context.identity, listing: listing.id),
            bidding: try await biddingView(context, listing: listing),
            priceForm: listing.seller.username == context.identity.user.username
                && (listing.bidding?.bidCount ?? 0) == 0
                ? context.page.form("price") ?? FormState(names: ["price"]).with("price", Reader.typed(listing.price))
                : nil
        )
        return renderer.render("market/listing", model)
    }

    @Sendable func sold(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "listing")
        let path = "/market/listings/\(id.uuidString.lowercased())"
        do {
            let buyer = form["buyer"].trimmingCharacters(in: .whitespaces)
            _ = try await market.markSold(context.identity, id, ListingSale(buyer: buyer.isEmpty ? nil : buyer))
            return PageRenderer.seeOther("\(path)?notice=sold")
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                alert: error.errors?.map { say($0.message) }.joined(separator: " ") ?? say(error.title),
                returnTo: path
            )
        }
    }

    @Sendable func remove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        try await market.removeListing(context.identity, try Query.id(context.parameters, "id", "listing"))
        return PageRenderer.seeOther("/market/sell?notice=removed")
    }
}
