import Foundation
import Hummingbird
import PlazaCore

/// The Sell pages: my listings, the new-listing form and its post, and the page script's photo upload.
extension MarketPages {
    struct SellPage: Sendable {
        var shell: Shell
        var cards: [Card]
    }

    @Sendable func sell(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard try await market.membership(context.identity) != nil else { return PageRenderer.seeOther("/market") }
        let mine = try await market.myListings(
            context.identity,
            states: [.active, .reserved, .sold],
            limit: 100,
            cursor: nil
        )
        let model = SellPage(
            shell: Shell(title: say("Sell"), context: context, notice: notice(request)),
            cards: mine.items.map { Self.card($0, reader: context.reader, showState: true) }
        )
        return renderer.render("market/sell", model)
    }

    struct NewListingPage: Sendable {
        var shell: Shell
        var form: FormState
        var categories: [Option]
        var conditions: [Option]
        var currency: String
        var photos: [String]
        var free: Bool
        var bidding: Bool
    }

    static let biddingFields = ["bidding", "endsAt", "reserve"]

    @Sendable func newListing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard try await market.membership(context.identity) != nil else { return PageRenderer.seeOther("/market") }
        let form =
            context.page.form("listing")
            ?? FormState(names: Self.listingFields + Self.biddingFields + ["photoIds"]).with("condition", "good")
            .with("endsAt", context.reader.input(Date().addingTimeInterval(3 * 86_400)))
        let value = { (name: String) in form.fields[name]?.value ?? "" }
        let model = NewListingPage(
            shell: Shell(title: say("New listing"), context: context),
            form: form,
            categories: try await market.categories().map {
                Option(value: $0.slug, label: $0.name, selected: $0.slug == value("category"))
            },
            conditions: ListingCondition.allCases.map {
                Option(
                    value: $0.rawValue,
                    label: Self.conditionName($0),
                    selected: $0.rawValue == value("condition")
                )
            },
            currency: market.currency,
            photos: value("photoIds").split(separator: ",").map(String.init),
            free: value("free") == "1",
            bidding: value("bidding") == "1"
        )
        return renderer.render("market/new-listing", model)
    }

    @Sendable func post(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let names = Self.listingFields + Self.biddingFields + ["photoIds"]
        do {
            let free = form["free"] == "1"
            let amount = free ? nil : try amount(form["price"], field: "price")
            if !free, amount == nil {
                throw PlazaError.validation(field: "price", phrase("Give a price, or tick free."))
            }
            var terms: BiddingTerms? = nil
            if form["bidding"] == "1" {
                guard let endsAt = context.reader.moment(fromInput: form["endsAt"]) else {
                    throw PlazaError.validation(field: "endsAt", phrase("Pick when the bidding ends."))
                }
                terms = BiddingTerms(reservePrice: try self.amount(form["reserve"], field: "reserve"), endsAt: endsAt)
            }
            let photoIds = form["photoIds"].split(separator: ",").compactMap { UUID(uuidString: String($0)) }
            let listing = try await market.createListing(
                context.identity,
                ListingRequest(
                    title: form["title"],
                    description: form["description"],
                    price: amount.map { Money(amount: $0, currency: market.currency) },
                    free: free ? true : nil,
                    category: form["category"],
                    condition: ListingCondition(rawValue: form["condition"]) ?? .good,
                    photoIds: photoIds,
                    biddable: terms
                )
            )
            return PageRenderer.seeOther("/market/listings/\(listing.id.uuidString.lowercased())?notice=posted")
        } catch var error as PlazaError where error.status.code < 500 {
            let fields = ["biddable.endsAt": "endsAt", "biddable.reservePrice": "reserve"]
            error.errors = error.errors?.map {
                FieldError(field: fields[$0.field] ?? String($0.field.prefix { $0 != "." }), message: $0.message)
            }
            return renderer.refused(
                "listing",
                FormState(form, names: names, error: error),
                returnTo: "/market/sell/new"
            )
        }
    }

    /// The page script's upload of one photo (raw bytes, `X-CSRF-Token`): `{id, thumbnailUrl}` or a problem.
    @Sendable func photo(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.body(upTo: MediaService.maximumBytes)
        let upload = try await market.media.upload(
            context.identity,
            Data(body.readableBytesView),
            contentType: request.headers[.contentType] ?? ""
        )
        return try .json(upload, status: .created)
    }
}
