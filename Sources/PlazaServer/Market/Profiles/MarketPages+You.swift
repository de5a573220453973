import Foundation
import Hummingbird
import PlazaCore

/// The marketplace's fourth tab, "You": my profile and rating, what I sold and bought, my wish list, the sellers I
/// follow, my saved searches, whom I blocked, decisions about me and the agreement. The buttons that fill these
/// lists sit where people look: Save on a listing, Follow on a profile, Save this search on the feed.
extension MarketPages {
    func addYouRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("you", use: youPage)
        signedIn.post("listings/:id/save", use: saveListing)
        signedIn.post("listings/:id/unsave", use: unsaveListing)
        signedIn.post("users/:username/follow", use: followPage)
        signedIn.post("users/:username/unfollow", use: unfollowPage)
        signedIn.post("saved-searches", use: saveSearchPage)
        signedIn.post("saved-searches/:id/delete", use: deleteSearchPage)
        signedIn.post("you/profile", use: profileForm)
    }

    static let youNotices = [
        "saved": phrase("Saved to your wish list: you hear if its price drops or it is sold."),
        "unsaved": phrase("Taken off your wish list."),
        "followed": phrase("Following: you hear when they list something new (at most once an hour)."),
        "unfollowed": phrase("You no longer follow them."),
        "search-saved": phrase("Search saved: you hear of new listings that match it."),
        "search-deleted": phrase("Saved search deleted."),
        "profile": phrase("Profile saved: students of your campus see it beside your listings."),
    ]

    struct HistoryRow: Sendable {
        var id: String
        var title: String
        var line: String
        var thumbnail: String?
    }

    struct SearchRow: Sendable {
        var id: String
        var words: String
        var alert: String
        var link: String
    }

    struct YouPage: Sendable {
        var shell: Shell
        var username: String
        var rating: String
        var sales: [HistoryRow]
        var purchases: [HistoryRow]
        var wishList: [Card]
        var follows: [MarketFollow]
        var searches: [SearchRow]
        var blocks: [MarketBlock]
        var hasDecisions: Bool
        var bio: String
        var photo: String?
        var photoId: String
        var profileForm: FormState
    }

    @Sendable func youPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard try await market.membership(context.identity) != nil else { return PageRenderer.seeOther("/market") }
        let identity = context.identity
        let reader = context.reader
        let profile = try await market.profile(identity, username: identity.user.username)
        let row = { (sale: MarketSale, selling: Bool) -> HistoryRow in
            let price = sale.price.map(reader.money) ?? say("free")
            let who =
                sale.counterpart.map {
                    say(
                        selling ? phrase("{price} to {name}") : phrase("{price} from {name}"),
                        [
                            "price": price, "name": $0.displayName,
                        ]
                    )
                } ?? say("{price} elsewhere", ["price": price])
            return HistoryRow(
                id: sale.listing.id.uuidString.lowercased(),
                title: sale.listing.title,
                line:
                    "\(who) · \(reader.day(sale.soldAt))\(sale.paidThroughPlaza ? " · " + say("paid through Plaza") : "")",
                thumbnail: sale.listing.photos.first?.thumbnailUrl
            )
        }
        let notice = request.uri.queryParameters.get("notice").flatMap { Self.youNotices[String($0)].map { say($0) } }
        let model = YouPage(
            shell: Shell(title: say("You"), context: context, notice: notice),
            username: identity.user.username,
            rating: Self.ratingLine(profile.rating, reader: reader) ?? say("No ratings yet"),
            sales: try await market.history(identity, selling: true, limit: 20, cursor: nil).items.map {
                row($0, true)
            },
            purchases: try await market.history(identity, selling: false, limit: 20, cursor: nil).items.map {
                row($0, false)
            },
            wishList: try await market.wishList(identity).map { Self.card($0.listing, reader: reader) },
            follows: try await market.following(identity),
            searches: try await market.savedSearches(identity).map { Self.searchRow($0, currency: market.currency) },
            blocks: try await market.blocks(identity),
            hasDecisions: !(try await market.decisions(identity).isEmpty),
            bio: profile.bio ?? "",
            photo: profile.photo?.thumbnailUrl,
            photoId: profile.photo?.id.uuidString.lowercased() ?? "",
            profileForm: context.page.form("profile") ?? FormState(names: ["bio"]).with("bio", profile.bio ?? "")
        )
        return renderer.render("market/you", model)
    }

    /// A saved search in words, with the feed link that runs it.
    static func searchRow(_ search: SavedSearch, currency: String) -> SearchRow {
        var parts: [String] = []
        if let q = search.q { parts.append("“\(q)”") }
        if let category = search.category { parts.append(category.replacingOccurrences(of: "_", with: " ")) }
        if let condition = search.condition { parts.append(Self.conditionName(condition)) }
        if let low = search.minPrice {
            parts.append(say("from {price}", ["price": Reader.typed(Money(amount: low, currency: currency))]))
        }
        if let high = search.maxPrice {
            parts.append(say("up to {price}", ["price": Reader.typed(Money(amount: high, currency: currency))]))
        }
        let query: [(String, String)] = [
            ("q", search.q ?? ""), ("category", search.category ?? ""), ("condition", search.condition?.rawValue ?? ""),
            ("minPrice", search.minPrice.map { Reader.typed(Money(amount: $0, currency: currency)) } ?? ""),
            ("maxPrice", search.maxPrice.map { Reader.typed(Money(amount: $0, currency: currency)) } ?? ""),
        ].filter { !$0.1.isEmpty }
        return SearchRow(
            id: search.id.uuidString.lowercased(),
            words: parts.joined(separator: " · "),
            alert: search.alert == .instant ? say("told at once") : say("a daily digest"),
            link: "/market?" + FormData.encoded(query)
        )
    }

    /// The bio and the photo (uploaded by the page script, its id in `photoIds`).
    @Sendable func profileForm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let photo = form["photoIds"].split(separator: ",").last.flatMap { UUID(uuidString: String($0)) }
        do {
            _ = try await market.updateProfile(context.identity, MarketProfileChange(bio: form["bio"], photoId: photo))
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "profile",
                FormState(form, names: ["bio"], error: error),
                returnTo: "/market/you#you-profile"
            )
        }
        return PageRenderer.seeOther("/market/you?notice=profile")
    }

    // MARK: Buttons

    @Sendable func saveListing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "listing")
        do {
            _ = try await market.save(context.identity, listing: id)
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                alert: Self.sentence(error),
                returnTo: "/market/listings/\(id.uuidString.lowercased())"
            )
        }
        return PageRenderer.seeOther("/market/listings/\(id.uuidString.lowercased())?notice=saved")
    }

    @Sendable func unsaveListing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "listing")
        try await market.unsave(context.identity, listing: id)
        let back = form["back"] == "you" ? "/market/you" : "/market/listings/\(id.uuidString.lowercased())"
        return PageRenderer.seeOther(back + "?notice=unsaved")
    }

    @Sendable func followPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let username = context.parameters.get("username") ?? ""
        _ = try await market.follow(context.identity, username: username)
        return PageRenderer.seeOther("/market/users/\(username)?notice=followed")
    }

    @Sendable func unfollowPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let username = context.parameters.get("username") ?? ""
        try await market.unfollow(context.identity, username: username)
        return PageRenderer.seeOther(
            (form["back"] == "you" ? "/market/you" : "/market/users/\(username)") + "?notice=unfollowed"
        )
    }

    /// "Save this search" under the feed: the filters it shows, told at once or daily.
    @Sendable func saveSearchPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        do {
            let condition = ListingCondition(rawValue: form["condition"])
            _ = try await market.saveSearch(
                context.identity,
                SavedSearchRequest(
                    q: form.optional("q"),
                    category: form.optional("category"),
                    condition: condition,
                    minPrice: try amount(form["minPrice"], field: "minPrice"),
                    maxPrice: try amount(form["maxPrice"], field: "maxPrice"),
                    alert: SavedSearchAlert(rawValue: form["alert"]) ?? .instant
                )
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(alert: Self.sentence(error), returnTo: "/market")
        }
        return PageRenderer.seeOther("/market/you?notice=search-saved")
    }

    @Sendable func deleteSearchPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        try await market.deleteSearch(context.identity, try Query.id(context.parameters, "id", "saved search"))
        return PageRenderer.seeOther("/market/you?notice=search-deleted")
    }
}
