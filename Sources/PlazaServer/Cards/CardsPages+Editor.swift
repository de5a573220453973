import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore
import PlazaMedia

/// Personalizing: the editor (the live preview beside the labels' fields, drag or nudge, zoom, colour, pages), saved
/// designs (putting one in the cart: `CardsPages+AddToCart.swift`).
extension CardsPages {
    func addEditorRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("designs", use: designsPage)
        signedIn.get("designs/:id", use: editor)
        signedIn.post("designs/:id", use: save)
        signedIn.post("designs/:id/live", use: live)
        signedIn.post("designs/:id/duplicate", use: duplicate)
        signedIn.post("designs/:id/delete", use: delete)
        signedIn.post("designs/:id/cart", use: addToCart)
    }

    // MARK: Saved designs

    struct DesignRow: Sendable {
        var id: String
        var name: String
        var template: String
        var changed: String
        var svg: String
        var locked: Bool
        var orderable: Bool
    }

    struct DesignsPage: Sendable {
        var shell: Shell
        var designs: [DesignRow]
        var next: String?
    }

    @Sendable func designsPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let page = try await cards.designs(context.identity, limit: 20, cursor: paging.cursor)
        var rows: [DesignRow] = []
        for design in page.items {
            rows.append(
                DesignRow(
                    id: design.id.uuidString.lowercased(),
                    name: design.name,
                    template: design.templateName,
                    changed: context.reader.when(design.updatedAt),
                    svg: try await cards.designPreview(
                        context.identity,
                        design.id,
                        page: .front,
                        guides: false,
                        inline: true
                    ),
                    locked: design.locked,
                    orderable: design.orderable
                )
            )
        }
        return renderer.render(
            "cards/designs",
            DesignsPage(
                shell: Shell(title: say("Saved designs"), context: context, notice: notice(request)),
                designs: rows,
                next: page.nextCursor.map { "/cards/designs?cursor=\($0)" }
            )
        )
    }

    // MARK: The editor

    struct Choice: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    struct LabelField: Sendable {
        var id: String
        var name: String
        var text: String
        var multiline: Bool
        var editsText: Bool
        var fonts: [Choice]
        var editsFont: Bool
        var size: String
        var minSize: String
        var maxSize: String
        var editsSize: Bool
        var colours: [Choice]
        var editsColour: Bool
        var x: String
        var y: String
        var editsPosition: Bool
        var error: String?
        /// Preflight's word on this label (a text that does not fit: `blocking`), shown in its fields.
        var finding: String?
        var blocking: Bool
    }

    struct PageGroup: Sendable {
        var page: String
        var title: String
        var labels: [LabelField]
        var current: Bool
    }

    struct FindingRow: Sendable {
        var error: Bool
        var message: String
    }

    struct EditorPage: Sendable {
        var shell: Shell
        var id: String
        var name: String
        var template: String
        var templateId: String
        var svg: String
        var page: String
        var pages: [PageGroup]
        var hasPages: Bool
        var colours: [Choice]
        var hasColours: Bool
        var findings: [FindingRow]
        var orderable: Bool
        var locked: Bool
        var papers: [Choice]
        var formError: String?
        var movable: String
        var hasMovable: Bool
        var photos: [PhotoSlotField]
        /// The add-to-cart form, refused (a quantity out of range) or fresh.
        var cart: FormState
    }

    @Sendable func editor(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "design")
        let design = try await cards.design(context.identity, id)
        let template = try await cards.template(design.templateId, viewer: context.identity)
        let pageName = request.uri.queryParameters.get("page").flatMap { CardPage(rawValue: String($0)) } ?? .front
        let page = template.pages.contains(pageName) ? pageName : .front
        let refused = context.page.form("design")
        let model = EditorPage(
            shell: Shell(title: design.name, context: context, notice: notice(request)),
            id: id.uuidString.lowercased(),
            name: design.name,
            template: template.name,
            templateId: template.id.uuidString.lowercased(),
            svg: try await cards.designPreview(context.identity, id, page: page, guides: true, inline: true),
            page: page.rawValue,
            pages: template.pages.map { page in
                PageGroup(
                    page: page.rawValue,
                    title: Self.pageName(page),
                    labels: design.labels.filter { $0.page == page }.compactMap { value in
                        template.labels.first { $0.id == value.id }.map {
                            Self.field(
                                $0,
                                value,
                                refused: refused,
                                findings: design.findings.filter { $0.labelId == value.id }
                            )
                        }
                    },
                    current: page == pageName
                )
            },
            hasPages: template.pages.count > 1,
            colours: template.colours.map { Choice(value: $0.id, label: $0.name, selected: $0.id == design.colour) },
            hasColours: template.colours.count > 1,
            findings: design.findings.map { FindingRow(error: $0.severity == .error, message: $0.message) },
            orderable: design.orderable,
            locked: design.locked,
            papers: template.paperTypes.map { paper in
                let from = paper.tiers.last.map { context.reader.money($0.unitAmount, paper.currency) } ?? ""
                let first = paper.tiers.first.map { context.reader.money($0.unitAmount, paper.currency) } ?? ""
                let price =
                    first == from
                    ? say("{price} a card", ["price": first])
                    : say("{first} down to {last}", ["first": first, "last": from])
                return Choice(
                    value: paper.id.uuidString.lowercased(),
                    label: "\(paper.name) · \(price)",
                    selected: false
                )
            },
            formError: refused?.error,
            movable: template.labels.filter { $0.editable.contains(.position) }.map(\.id).joined(separator: " "),
            hasMovable: template.labels.contains { $0.editable.contains(.position) && $0.page == page },
            photos: Self.photoFields(template, design, page: page, request: request, refused: context.page.form),
            cart: context.page.form("cart") ?? FormState(names: ["paperId", "quantity"]).with("quantity", "50")
        )
        return renderer.render("cards/editor", model)
    }

    static func field(
        _ label: CardLabelSpec,
        _ value: CardLabelValue,
        refused: FormState?,
        findings: [CardFinding]
    ) -> LabelField {
        let worst = findings.first { $0.severity == .error } ?? findings.first
        let typed = { (name: String, fallback: String) in refused?.fields["\(name)-\(label.id)"]?.value ?? fallback }
        let errors = ["text", "font", "size", "colour", "x"].compactMap { refused?.fields["\($0)-\(label.id)"]?.error }
        let may = { (what: CardLabelEditable) in label.editable.contains(what) }
        return LabelField(
            id: label.id,
            name: label.title,
            text: typed("text", value.text),
            multiline: label.maxLines != 1,
            editsText: may(.text),
            fonts: label.fonts.map {
                Choice(value: $0, label: CardRules.fontNames[$0] ?? $0, selected: $0 == value.font)
            },
            editsFont: may(.font) && label.fonts.count > 1,
            size: typed("size", CardPreviewSVG.number(value.size)),
            minSize: CardPreviewSVG.number(label.minSize),
            maxSize: CardPreviewSVG.number(label.maxSize),
            editsSize: may(.size) && label.minSize < label.maxSize,
            colours: label.colours.map { Choice(value: $0, label: $0, selected: $0 == value.colour) },
            editsColour: may(.colour) && label.colours.count > 1,
            x: CardPreviewSVG.number(value.x),
            y: CardPreviewSVG.number(value.y),
            editsPosition: may(.position),
            error: errors.first,
            finding: worst?.message,
            blocking: worst?.severity == .error
        )
    }

    /// The form's changes as the API takes them: only the fields the page showed.
    static func request(_ form: FormData, design: CardDesign) -> CardDesignRequest {
        let number = { (name: String) in
            form.optional(name).flatMap { Double($0.replacingOccurrences(of: ",", with: ".")) }
        }
        let edits = design.labels.map { label in
            CardLabelEdit(
                id: label.id,
                text: form.optional("text-\(label.id)").map { $0.replacingOccurrences(of: "\r\n", with: "\n") }
                    ?? form.values["text-\(label.id)"],
                font: form.optional("font-\(label.id)"),
                size: number("size-\(label.id)"),
                colour: form.optional("colour-\(label.id)"),
                x: number("x-\(label.id)"),
                y: number("y-\(label.id)")
            )
        }
        return CardDesignRequest(colour: form.optional("colour"), name: form.optional("name"), labels: edits)
    }

    static func fieldNames(_ design: CardDesign) -> [String] {
        design.labels.flatMap { label in ["text", "font", "size", "colour", "x", "y"].map { "\($0)-\(label.id)" } } + [
            "name", "colour",
        ]
    }

    @Sendable func save(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "design")
        let design = try await cards.design(context.identity, id)
        let back = "/cards/designs/\(id.uuidString.lowercased())?page=\(form["page"].isEmpty ? "front" : form["page"])"
        do {
            _ = try await cards.updateDesign(context.identity, id, Self.request(form, design: design))
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "design",
                FormState(form, names: Self.fieldNames(design), error: Self.named(error)),
                returnTo: back
            )
        }
        return PageRenderer.seeOther(back + "&notice=saved")
    }

    /// `labels[2].font` of the API is the page's `font-<id>` field.
    static func named(_ error: PlazaError) -> PlazaError {
        var error = error
        error.errors = error.errors?.map { fieldError in
            var fieldError = fieldError
            fieldError.field = fieldError.field.replacingOccurrences(of: "labels[", with: "label-")
            return fieldError
        }
        return error
    }

    struct LiveAnswer: Encodable {
        var svg: String
        var findings: [FindingAnswer]
        var orderable: Bool
        /// The change was kept (the editor saves as the shopper types).
        var saved: Bool
        /// Changes the labels refuse, by the page's field (`size-names`): said beside it, left out of the rest.
        var refused: [RefusedAnswer]
    }

    struct RefusedAnswer: Encodable {
        var field: String
        var message: String
    }

    struct FindingAnswer: Encodable {
        var severity: String
        var message: String
        var labelId: String
    }

    /// The preview with what is typed now, without saving: the editor's script asks as the shopper types.
    @Sendable func live(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "design")
        let design = try await cards.design(context.identity, id)
        let page = CardPage(rawValue: form["page"]) ?? .front
        let tried = try await cards.tryOutEach(context.identity, id, Self.request(form, design: design))
        let view = tried.view
        // What is typed is kept as it is typed, so nothing is lost by leaving the page; a printed design only previews.
        // A refused change is not kept (the field says why) while the rest is.
        var saved = false
        if form["autosave"] == "1", !design.locked {
            saved = (try? await cards.updateDesign(context.identity, id, tried.kept)) != nil
        }
        let answer = LiveAnswer(
            svg: try await cards.preview(view, page: page, guides: true, inline: true),
            findings: view.findings.map {
                FindingAnswer(severity: $0.severity.rawValue, message: $0.message, labelId: $0.labelId)
            },
            orderable: CardPreflight.orderable(view.findings),
            saved: saved,
            refused: tried.refused.map { RefusedAnswer(field: $0.field, message: $0.message) }
        )
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try PlazaJSON.encoder().encode(answer)))
        )
    }

    @Sendable func duplicate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let copy = try await cards.duplicateDesign(context.identity, try Query.id(context.parameters, "id", "design"))
        return PageRenderer.seeOther("/cards/designs/\(copy.id.uuidString.lowercased())?notice=duplicated")
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "design")
        do {
            try await cards.deleteDesign(context.identity, id)
        } catch let error as PlazaError where error.status == .conflict {
            return renderer.refused(
                alert: error.summary,
                returnTo: "/cards/designs/\(id.uuidString.lowercased())"
            )
        }
        return PageRenderer.seeOther("/cards/designs?notice=deleted")
    }
}
