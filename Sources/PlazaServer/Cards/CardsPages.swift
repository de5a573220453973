import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore

/// The card shop's pages: the catalogue and a template's page for anyone (signed out too), then personalizing, saved
/// designs, the cart, checkout with the proofs and orders for the signed in. Every action is the API's, through
/// `CardsService`.
struct CardsPages: Sendable {
    let cards: CardsService
    let renderer: PageRenderer
    let maxBody: Int

    static let notices = [
        "saved": phrase("Saved. Find it any time under Card shop → Saved designs."),
        "duplicated": phrase("Copied: this is the copy, change it as you like."),
        "deleted": phrase("The design was deleted."),
        "added": phrase("Added to your cart."),
        "sample":
            phrase(
                "A sample is in your cart: one printed card to see and feel the paper. Its price comes off a later order of this card."
            ),
        "removed": phrase("Taken out of your cart."),
        "ordered": phrase("Order placed. One step left: pay for it."),
        "paid": phrase("Thank you! Your order is paid and goes to the printer soon. We sent you a receipt."),
        "card-paying": phrase("Your card is being charged: this page updates when it is done."),
        "card-paid":
            phrase(
                "Thank you! Your card payment is on its way: this page shows the order paid as soon as the processor confirms it."
            ),
        "card-cancelled": phrase("You left the card page: nothing was charged. Pay when you are ready."),
        "cancelled": phrase("The order is cancelled. Anything you paid is back in your Plaza wallet."),
        "reapproved": phrase("The new proof is approved: the order prints it."),
        "photo-added": phrase("Your photo is in the card. Move or zoom it with the buttons beside it."),
        "photo-moved": phrase("The photo moved: the preview shows it as it prints."),
        "photo-edge": phrase("The photo already reaches the slot's edge that way: zoom in to move it further."),
        "photo-removed": phrase("The photo was taken out of the card."),
        "template-saved": phrase("Saved. Look at its preview, then send it to the admins when it is ready."),
        "template-submitted":
            phrase(
                "Sent for review: an admin looks at it and you hear the decision. It enters the shop once approved."
            ),
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        pages.get("cards", use: catalogue)
        pages.get("cards/templates/:id", use: templatePage)
        pages.get("cards/templates/:id/quick-look", use: quickLook)
        pages.get("cards/art/:id", use: art)
        let signedIn = pages.group("cards", context: AuthenticatedContext.self)
        signedIn.post("templates/:id/personalize", use: personalize)
        signedIn.post("templates/:id/sample", use: sample)
        addEditorRoutes(to: signedIn)
        addPhotoRoutes(to: signedIn)
        addOrderRoutes(to: signedIn)
        addStudioRoutes(to: signedIn)
        addSalesRoutes(to: signedIn)
        signedIn.get("designs/:id/print.pdf", use: printFile)
    }

    /// The print file of one of my designs, for the editor's and checkout's links (the API's, by the page's session).
    @Sendable func printFile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let pdf = try await cards.designPrint(context.identity, try Query.id(context.parameters, "id", "design"))
        var headers = HTTPFields()
        headers[.contentType] = "application/pdf"
        headers[.cacheControl] = "private, no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: pdf)))
    }

    func notice(_ request: Request) -> String? {
        request.uri.queryParameters.get("notice").flatMap { Self.notices[String($0)].map { say($0) } }
    }

    // MARK: The catalogue

    struct Chip: Sendable {
        var label: String
        var href: String
        var current: Bool
    }

    struct Tile: Sendable {
        var id: String
        var name: String
        var designer: String
        var price: String?
        var colours: String
        var href: String
        var quickLook: String
        var svg: String
    }

    struct CataloguePage: Sendable {
        var shell: Shell
        var chips: [Chip]
        var subchips: [Chip]
        var hasSubchips: Bool
        var colourChips: [Chip]
        var hasColourChips: Bool
        /// The chosen colour's name, or "any"; the chips stay folded away on small screens until asked for.
        var colourLabel: String
        var colourOpen: Bool
        var q: String
        var category: String
        var subcategory: String
        var colour: String
        var heading: String
        var tiles: [Tile]
        var next: String?
        var error: String?
    }

    @Sendable func catalogue(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let value = { (name: String) in query.get(name).map { String($0) } ?? "" }
        let categories = try await cards.categories()
        let category = categories.first { $0.id.uuidString.lowercased() == value("category").lowercased() }
        let sub = category?.subcategories.first { $0.id.uuidString.lowercased() == value("subcategory").lowercased() }
        let colour = value("colour").trimmingCharacters(in: .whitespaces).lowercased()
        let ids = [
            ("category", category?.id.uuidString.lowercased() ?? ""),
            ("subcategory", sub?.id.uuidString.lowercased() ?? ""),
        ]
        let href = { (pairs: [(String, String)]) in
            let kept = pairs.filter { !$0.1.isEmpty }
            return kept.isEmpty ? "/cards" : "/cards?" + FormData.encoded(kept)
        }
        let colours = try await cards.catalogueColours(
            CardsStore.CatalogueQuery(category: category?.id, subcategory: sub?.id)
        )
        let colourChips =
            [Chip(label: say("Any colour"), href: href(ids + [("q", value("q"))]), current: colour.isEmpty)]
            + colours.map { name in
                Chip(
                    label: Self.capitalized(name),
                    href: href(ids + [("q", value("q")), ("colour", name)]),
                    current: name == colour
                )
            }
        var page = CataloguePage(
            shell: Shell(title: say("Card shop"), context: context, notice: notice(request)),
            chips: [Chip(label: say("All cards"), href: "/cards", current: category == nil)]
                + categories.map {
                    Chip(
                        label: $0.name,
                        href: href([("category", $0.id.uuidString.lowercased())]),
                        current: $0.id == category?.id
                    )
                },
            subchips: category.map { category in
                [
                    Chip(
                        label: say("All {category}", ["category": category.name]),
                        href: href([("category", category.id.uuidString.lowercased())]),
                        current: sub == nil
                    )
                ]
                    + category.subcategories.map {
                        Chip(
                            label: $0.name,
                            href: href([
                                ("category", category.id.uuidString.lowercased()),
                                ("subcategory", $0.id.uuidString.lowercased()),
                            ]),
                            current: $0.id == sub?.id
                        )
                    }
            } ?? [],
            hasSubchips: category != nil,
            colourChips: colourChips,
            hasColourChips: colours.count > 1 || !colour.isEmpty,
            colourLabel: colour.isEmpty ? say("any") : Self.capitalized(colour),
            colourOpen: colours.count <= 6,
            q: value("q"),
            category: ids[0].1,
            subcategory: ids[1].1,
            colour: colour,
            heading: Self.heading(category: category?.name, sub: sub?.name, words: value("q"), colour: colour),
            tiles: [],
            next: nil,
            error: nil
        )
        do {
            let paging = try Paging(request.uri)
            let result = try await cards.catalogueEntries(
                try CardsAPI.query(request.uri, lenient: true),
                limit: 24,
                cursor: paging.cursor
            )
            for entry in result.items {
                page.tiles.append(
                    try await tile(entry.summary, spec: entry.spec, colour: colour, reader: context.reader)
                )
            }
            page.next = result.nextCursor.map { href(ids + [("q", value("q")), ("colour", colour), ("cursor", $0)]) }
        } catch let error as PlazaError where error.code == .validationFailed {
            page.error = error.errors?.map { say($0.message) }.joined(separator: " ") ?? say(error.title)
        }
        return renderer.render("cards/catalogue", page)
    }

    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    static func heading(category: String?, sub: String?, words: String, colour: String) -> String {
        let place = sub ?? category
        let base =
            words.isEmpty
            ? (place ?? say("Cards for every occasion"))
            : place.map { say("Cards matching “{words}” in {place}", ["words": words, "place": $0]) }
                ?? say("Cards matching “{words}”", ["words": words])
        return colour.isEmpty ? base : "\(base) · \(capitalized(colour))"
    }

    /// A catalogue tile, drawn in `colour` when the template comes in it (by name), else in its first colour.
    func tile(
        _ summary: CardTemplateSummary,
        spec: CardTemplateSpec,
        colour: String,
        reader: Reader
    ) async throws -> Tile {
        let shown = spec.colours.first { $0.name.lowercased() == colour }
        return Tile(
            id: summary.id.uuidString.lowercased(),
            name: summary.name,
            designer: summary.designer.displayName,
            price: summary.fromAmount.map {
                say("from {price} a card", ["price": reader.money($0, summary.currency ?? cards.currency)])
            },
            colours: reader.count(summary.colours.count, "count.colour"),
            href: "/cards/templates/\(summary.id.uuidString.lowercased())" + (shown.map { "?colour=\($0.id)" } ?? ""),
            quickLook: "/cards/templates/\(summary.id.uuidString.lowercased())/quick-look"
                + (shown.map { "?colour=\($0.id)" } ?? ""),
            svg: try await cards.templatePreview(spec, colour: shown?.id, page: .front, inline: true)
        )
    }
}
