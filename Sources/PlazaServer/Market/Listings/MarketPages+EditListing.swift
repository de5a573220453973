import Foundation
import Hummingbird
import PlazaCore

/// A seller changes their listing from its page (issue 39): the price alone in place ("Change the price"), or
/// everything but the photos on the edit page. Both are `PATCH /v1/market/listings/{id}`'s change, so a lower price
/// reaches the students who saved the listing as a `market` alert.
extension MarketPages {
    func addEditListingRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("listings/:id/edit", use: editListing)
        signedIn.post("listings/:id/edit", use: saveEditedListing)
        signedIn.post("listings/:id/price", use: changePrice)
    }

    struct EditListingPage: Sendable {
        var shell: Shell
        var id: String
        var form: FormState
        var categories: [Option]
        var conditions: [Option]
        var currency: String
        var free: Bool
    }

    @Sendable func editListing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard try await market.membership(context.identity) != nil else { return PageRenderer.seeOther("/market") }
        let listing = try await market.listing(context.identity, try Query.id(context.parameters, "id", "listing"))
        let path = "/market/listings/\(listing.id.uuidString.lowercased())"
        guard listing.seller.username == context.identity.user.username, [.active, .reserved].contains(listing.state)
        else { return PageRenderer.seeOther(path) }
        let form =
            context.page.form("edit-listing")
            ?? FormState(names: Self.listingFields).with("title", listing.title)
            .with("description", listing.description).with("price", Reader.typed(listing.price))
            .with("free", listing.free ? "1" : "").with("category", listing.category)
            .with("condition", listing.condition.rawValue)
        let value = { (name: String) in form.fields[name]?.value ?? "" }
        let model = EditListingPage(
            shell: Shell(title: say("Edit {title}", ["title": listing.title]), context: context),
            id: listing.id.uuidString.lowercased(),
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
            free: value("free") == "1"
        )
        return renderer.render("market/edit-listing", model)
    }

    @Sendable func saveEditedListing(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "listing")
        let path = "/market/listings/\(id.uuidString.lowercased())"
        do {
            let free = form["free"] == "1"
            let amount = free ? nil : try amount(form["price"], field: "price")
            if !free, amount == nil {
                throw PlazaError.validation(field: "price", phrase("Give a price, or tick free."))
            }
            let change = ListingChange(
                title: form["title"],
                description: form["description"],
                price: amount.map { Money(amount: $0, currency: market.currency) },
                free: free ? true : nil,
                category: form["category"],
                condition: ListingCondition(rawValue: form["condition"])
            )
            _ = try await market.changeListing(context.identity, id, change)
            return PageRenderer.seeOther("\(path)?notice=changed")
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                "edit-listing",
                FormState(form, names: Self.listingFields, error: error),
                returnTo: "\(path)/edit"
            )
        }
    }

    /// The listing page's own price form: a new price, the refusal beside it.
    @Sendable func changePrice(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "listing")
        let path = "/market/listings/\(id.uuidString.lowercased())"
        do {
            guard let amount = try amount(form["price"], field: "price") else {
                throw PlazaError.validation(field: "price", phrase("Type the new price, such as 12.50."))
            }
            let change = ListingChange(price: Money(amount: amount, currency: market.currency))
            _ = try await market.changeListing(context.identity, id, change)
            return PageRenderer.seeOther("\(path)?notice=price")
        } catch var error as PlazaError where error.status.code < 500 && error.code != .notFound {
            // A refusal of the whole change (bids were placed) is said beside the price too.
            if error.errors?.isEmpty ?? true { error.errors = [FieldError(field: "price", message: error.title)] }
            return renderer.refused("price", FormState(form, names: ["price"], error: error), returnTo: path)
        }
    }
}
