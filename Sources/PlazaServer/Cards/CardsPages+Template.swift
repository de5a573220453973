import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// A template's page (and its Quick Look over the catalogue): its pages, colours, designer and papers; personalizing
/// it, or ordering a printed sample of it as it comes.
extension CardsPages {
    // MARK: A template

    struct Swatch: Sendable {
        var name: String
        var href: String
        /// The same colour in the catalogue's Quick Look (which stays over the grid).
        var quick: String
        var current: Bool
    }

    struct PaperRow: Sendable {
        var paperId: String
        var name: String
        var description: String?
        var sample: String
        var tiers: [String]
    }

    struct PageTab: Sendable {
        var label: String
        var svg: String
    }

    struct TemplatePage: Sendable {
        var shell: Shell
        var id: String
        var templateId: String
        var name: String
        var designer: String
        var category: String
        /// The catalogue's category and subcategory the template is filed under, as links back to them.
        var crumbs: [Chip]
        var trim: String
        var pages: [PageTab]
        var swatches: [Swatch]
        var colour: String
        var papers: [PaperRow]
        var signedIn: Bool
        var loginHref: String
        /// A slot waits for the shopper's photo: a sample is ordered from the editor, once the photo is in.
        var needsPhoto: Bool
    }

    @Sendable func templatePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        renderer.render("cards/template", try await templateModel(request, context: context))
    }

    /// The catalogue's Quick Look: the card's pages, colours, designer and papers in a dialog over the grid, with
    /// personalizing and ordering a sample one tap away (the page's script loads it; without one, the tile opens the
    /// template's page, which shows the same).
    /// Art the previews draw, with the visitor's session: a draft's art shows to its designer and the admins.
    @Sendable func art(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await CardsAPI.art(
            request,
            id: try Query.id(context.parameters, "id", "art"),
            viewer: context.identity,
            cards: cards
        )
    }

    @Sendable func quickLook(_ request: Request, context: AppRequestContext) async throws -> Response {
        renderer.render("cards/quick-look", try await templateModel(request, context: context))
    }

    func templateModel(_ request: Request, context: AppRequestContext) async throws -> TemplatePage {
        let id = try Query.id(context.parameters, "id", "template")
        let template = try await cards.template(id, viewer: context.identity)
        let reader = context.reader
        let asked = request.uri.queryParameters.get("colour").map { String($0) }
        let colour = template.colours.first { $0.id == asked } ?? template.colours.first
        let spec = CardTemplateSpec(
            trim: template.trim,
            pages: template.pages,
            colours: template.colours,
            labels: template.labels,
            photoSlots: template.photoSlots
        )
        var tabs: [PageTab] = []
        for page in template.pages {
            tabs.append(
                PageTab(
                    label: Self.pageName(page),
                    svg: try await cards.templatePreview(spec, colour: colour?.id, page: page, inline: true)
                )
            )
        }
        let categories = try await cards.categories()
        let category = categories.first { $0.id == template.categoryId }
        let path = "/cards/templates/\(id.uuidString.lowercased())"
        return TemplatePage(
            shell: Shell(title: template.name, context: context, notice: notice(request)),
            id: id.uuidString.lowercased(),
            templateId: id.uuidString.lowercased(),
            name: template.name,
            designer: template.designer.displayName,
            category: [category?.name, category?.subcategories.first { $0.id == template.subcategoryId }?.name]
                .compactMap { $0 }.joined(
                    separator: " › "
                ),
            crumbs: Self.crumbs(category, sub: template.subcategoryId),
            trim: Self.trimName(template.trim),
            pages: tabs,
            swatches: template.colours.map {
                Swatch(
                    name: $0.name,
                    href: "\(path)?colour=\($0.id)",
                    quick: "\(path)/quick-look?colour=\($0.id)",
                    current: $0.id == colour?.id
                )
            },
            colour: colour?.id ?? "",
            papers: template.paperTypes.map { paper in
                PaperRow(
                    paperId: paper.id.uuidString.lowercased(),
                    name: paper.name,
                    description: paper.description,
                    sample: reader.money(paper.sampleAmount, paper.currency),
                    tiers: paper.tiers.map {
                        say(
                            "{quantity}+ cards: {price} each",
                            [
                                "quantity": $0.minQuantity.formatted(.number.locale(reader.locale)),
                                "price": reader.money($0.unitAmount, paper.currency),
                            ]
                        )
                    }
                )
            },
            signedIn: context.identity != nil,
            loginHref: "/login?" + FormData.encoded([("next", path + (colour.map { "?colour=\($0.id)" } ?? ""))]),
            needsPhoto: template.photoSlots.contains(where: \.required)
        )
    }

    static func crumbs(_ category: CardCategory?, sub: UUID?) -> [Chip] {
        guard let category else { return [] }
        let key = category.id.uuidString.lowercased()
        let first = Chip(label: category.name, href: "/cards?category=\(key)", current: false)
        guard let sub = category.subcategories.first(where: { $0.id == sub }) else { return [first] }
        return [
            first,
            Chip(
                label: sub.name,
                href: "/cards?category=\(key)&subcategory=\(sub.id.uuidString.lowercased())",
                current: false
            ),
        ]
    }

    /// Starts a design from the template (in the colour chosen) and opens the editor.
    @Sendable func personalize(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "template")
        let design = try await cards.createDesign(
            context.identity,
            CardDesignRequest(templateId: id, colour: form.optional("colour"))
        )
        return PageRenderer.seeOther("/cards/designs/\(design.id.uuidString.lowercased())")
    }

    /// "Order a sample": a design of the template as it comes (in the colour shown) and one printed card of it on the
    /// paper picked, in the cart; the shopper may personalize that design later from Saved designs.
    @Sendable func sample(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "template")
        do {
            _ = try await cards.sampleOfTemplate(
                context.identity,
                id,
                colour: form.optional("colour"),
                paper: UUID(uuidString: form["paperId"]) ?? UUID()
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                alert:
                    "\(say(error.title)) \(error.errors?.map { say($0.message) }.joined(separator: " ") ?? error.detail.map { say($0) } ?? "")",
                returnTo: "/cards/templates/\(id.uuidString.lowercased())"
            )
        }
        return PageRenderer.seeOther("/cards/cart?notice=sample")
    }

    /// "5 × 7 in", "A6", "140 mm square", else the millimetres.
    static func trimName(_ trim: CardTrim) -> String {
        let near = { (a: Double, b: Double) in abs(a - b) < 0.5 }
        let (w, h) = (min(trim.widthMm, trim.heightMm), max(trim.widthMm, trim.heightMm))
        if near(w, 127), near(h, 177.8) { return "5 × 7 in" }
        if near(w, 105), near(h, 148) { return "A6" }
        if near(w, h) { return say("{size} mm square", ["size": CardPreviewSVG.number(w)]) }
        return "\(CardPreviewSVG.number(trim.widthMm)) × \(CardPreviewSVG.number(trim.heightMm)) mm"
    }
}
