import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// The designers' studio: their templates with where each stands, a template's form (art uploaded while it is filled
/// in, labels as JSON), its preview as shoppers will see it, and sending it to the admins.
extension CardsPages {
    func addStudioRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("studio", use: studio)
        signedIn.get("studio/new", use: templateForm)
        signedIn.post("studio", use: saveTemplate)
        signedIn.get("studio/:id", use: templateForm)
        signedIn.post("studio/:id", use: saveTemplate)
        signedIn.post("studio/:id/submit", use: submitTemplate)
        signedIn.post("studio/art", use: uploadArt)
    }

    struct StudioRow: Sendable {
        var id: String
        var name: String
        var state: String
        var svg: String
    }

    struct StudioPage: Sendable {
        var shell: Shell
        var designer: Bool
        var templates: [StudioRow]
    }

    static func stateName(_ state: CardTemplateState) -> String {
        switch state {
        case .draft: say("Draft")
        case .submitted: say("Waiting for review")
        case .approved: say("In the shop")
        case .rejected: say("Sent back")
        }
    }

    @Sendable func studio(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let designer = [.designer, .admin].contains(context.identity.user.role)
        var rows: [StudioRow] = []
        if designer {
            for (summary, spec) in try await cards.studioEntries(context.identity) {
                rows.append(
                    StudioRow(
                        id: summary.id.uuidString.lowercased(),
                        name: summary.name,
                        state: Self.stateName(summary.state),
                        svg: (try? await cards.templatePreview(spec, colour: nil, page: .front, inline: true)) ?? ""
                    )
                )
            }
        }
        return renderer.render(
            "cards/studio",
            StudioPage(
                shell: Shell(title: say("Studio"), context: context, notice: notice(request)),
                designer: designer,
                templates: rows
            )
        )
    }

    struct Preset: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    struct ColourRow: Sendable {
        var index: Int
        var name: String
        var front: String
        var inside: String
        var back: String
        var hasFront: Bool
        var hasInside: Bool
        var hasBack: Bool

        init(index: Int, name: String, front: String, inside: String, back: String) {
            (self.index, self.name, self.front, self.inside, self.back) = (index, name, front, inside, back)
            (hasFront, hasInside, hasBack) = (!front.isEmpty, !inside.isEmpty, !back.isEmpty)
        }
    }

    struct TemplateFormPage: Sendable {
        var shell: Shell
        var action: String
        var id: String?
        var form: FormState
        var categories: [Preset]
        var trims: [Preset]
        var inside: Bool
        var back: Bool
        var colours: [ColourRow]
        var papers: [Preset]
        var state: String?
        var rejection: String?
        var canSubmit: Bool
        /// Sent for review: its designer waits for the decision before changing it again (an admin may correct it).
        var waiting: Bool
        var svg: String?
        /// The fonts a label can be set in, for the label editor's pickers.
        var fonts: [Preset] = CardRules.fontIDs.map {
            Preset(value: $0, label: CardRules.fontNames[$0] ?? $0, selected: false)
        }
    }

    static let trims: [(String, String, CardTrim)] = [
        ("127x177.8", phrase("5 × 7 in (portrait)"), CardTrim(widthMm: 127, heightMm: 177.8)),
        ("105x148", phrase("A6 portrait"), CardTrim(widthMm: 105, heightMm: 148)),
        ("148x105", phrase("A6 landscape"), CardTrim(widthMm: 148, heightMm: 105)),
        ("140x140", phrase("140 mm square"), CardTrim(widthMm: 140, heightMm: 140)),
    ]

    static let exampleLabels = """
        [{"id": "names", "page": "front", "text": "Ana & Ben", "font": "script", "size": 28, "colour": "#333333",
          "x": 13.5, "y": 70, "width": 100, "height": 25, "maxLines": 2, "required": true,
          "editable": ["text", "font", "size", "colour", "position"], "fonts": ["script", "serif"],
          "colours": ["#333333", "#7a1f3d"], "minSize": 18, "maxSize": 36}]
        """

    @Sendable func templateForm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try cards.requireDesigner(context.identity)
        let id = context.parameters.get("id").flatMap(UUID.init(uuidString:))
        let template = try await id.asyncMap { try await cards.template($0, viewer: context.identity) }
        let refused = context.page.form("template")
        let typed = { (name: String, fallback: String) in refused?.fields[name]?.value ?? fallback }
        let categories = try await cards.categories()
        let chosenCategory = typed(
            "category",
            template.map {
                "\($0.categoryId.uuidString.lowercased())|\($0.subcategoryId?.uuidString.lowercased() ?? "")"
            } ?? ""
        )
        let trim = typed(
            "trim",
            template.map { "\(CardPreviewSVG.number($0.trim.widthMm))x\(CardPreviewSVG.number($0.trim.heightMm))" }
                ?? "127x177.8"
        )
        let offered = Set(template?.paperTypes.map(\.id) ?? [])
        let json = (try? String(decoding: PlazaJSON.encoder().encode(template?.labels ?? []), as: UTF8.self)) ?? "[]"
        var colours = (template?.colours ?? []).enumerated().map { index, colour in
            ColourRow(
                index: index,
                name: colour.name,
                front: colour.art["front"]?.uuidString.lowercased() ?? "",
                inside: colour.art["inside"]?.uuidString.lowercased() ?? "",
                back: colour.art["back"]?.uuidString.lowercased() ?? ""
            )
        }
        // A refused save comes back with the colours and art as they were typed and uploaded, not as last saved.
        if let refused {
            colours = (0..<3).map { index in
                let typed = { (name: String) in refused.fields["\(name)-\(index)"]?.value ?? "" }
                return ColourRow(
                    index: index,
                    name: typed("colourName"),
                    front: typed("art-front"),
                    inside: typed("art-inside"),
                    back: typed("art-back")
                )
            }
        }
        while colours.count < 3 {
            colours.append(ColourRow(index: colours.count, name: "", front: "", inside: "", back: ""))
        }
        let model = TemplateFormPage(
            shell: Shell(title: template?.name ?? say("New template"), context: context, notice: notice(request)),
            action: id.map { "/cards/studio/\($0.uuidString.lowercased())" } ?? "/cards/studio",
            id: id?.uuidString.lowercased(),
            form: refused
                ?? FormState(names: ["name", "labels"]).with("name", template?.name ?? "").with(
                    "labels",
                    template == nil ? Self.exampleLabels : json
                ),
            categories: categories.flatMap { category in
                [
                    Preset(
                        value: "\(category.id.uuidString.lowercased())|",
                        label: category.name,
                        selected: chosenCategory == "\(category.id.uuidString.lowercased())|"
                    )
                ]
                    + category.subcategories.map { sub in
                        let value = "\(category.id.uuidString.lowercased())|\(sub.id.uuidString.lowercased())"
                        return Preset(
                            value: value,
                            label: "\(category.name) › \(sub.name)",
                            selected: chosenCategory == value
                        )
                    }
            },
            trims: Self.trims.map { Preset(value: $0.0, label: say($0.1), selected: $0.0 == trim) },
            inside: template?.pages.contains(.inside) ?? true,
            back: template?.pages.contains(.back) ?? false,
            colours: colours,
            papers: try await cards.papers().map {
                Preset(
                    value: $0.id.uuidString.lowercased(),
                    label: $0.name,
                    selected: template == nil || offered.contains($0.id)
                )
            },
            state: template.map { Self.stateName($0.state) },
            rejection: template?.rejectionReason,
            canSubmit: template.map { [.draft, .rejected].contains($0.state) } ?? false,
            waiting: template?.state == .submitted && context.identity.user.role != .admin,
            svg: try await id.asyncMap {
                try await cards.templatePreview($0, viewer: context.identity, colour: nil, page: .front, inline: true)
            }
        )
        return renderer.render("cards/studio-template", model)
    }

    @Sendable func saveTemplate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = context.parameters.get("id").flatMap(UUID.init(uuidString:))
        let back = id.map { "/cards/studio/\($0.uuidString.lowercased())" } ?? "/cards/studio/new"
        let names =
            ["name", "category", "trim", "labels", "inside", "back", "paperTypeIds"]
            + (0..<3).flatMap { ["colourName-\($0)", "art-front-\($0)", "art-inside-\($0)", "art-back-\($0)"] }
        do {
            let parts = form["category"].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard let category = parts.first.flatMap(UUID.init(uuidString:)) else {
                throw PlazaError.validation(field: "category", phrase("Pick the category it belongs in."))
            }
            let trim = Self.trims.first { $0.0 == form["trim"] }?.2 ?? Self.trims[0].2
            let pages: [CardPage] =
                [.front] + (form["inside"] == "on" ? [.inside] : []) + (form["back"] == "on" ? [.back] : [])
            let colours = (0..<3).compactMap { index -> CardColourRequest? in
                let name = form["colourName-\(index)"].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { return nil }
                var art: [String: UUID] = [:]
                for page in pages {
                    if let id = UUID(uuidString: form["art-\(page.rawValue)-\(index)"]) { art[page.rawValue] = id }
                }
                return CardColourRequest(name: name, art: art)
            }
            let labels: [CardLabelSpec]
            do {
                labels = try PlazaJSON.decoder().decode([CardLabelSpec].self, from: Data(form["labels"].utf8))
            } catch let error as DecodingError {
                let problem = PlazaError(decoding: error)
                let detail =
                    problem.errors?.first.map { "\($0.field.isEmpty ? "" : "at \($0.field): ")\($0.message)" }
                    ?? problem.title
                throw PlazaError.validation(
                    field: "labels",
                    say("The labels are not JSON in the shape of the example ({detail}).", ["detail": detail])
                )
            }
            let papers = form.values.filter { $0.key.hasPrefix("paper-") && $0.value == "on" }.compactMap {
                UUID(uuidString: String($0.key.dropFirst(6)))
            }
            var body = CardTemplateRequest(
                name: form["name"],
                categoryId: category,
                subcategoryId: parts.count > 1 ? UUID(uuidString: parts[1]) : nil,
                trim: trim,
                pages: pages,
                colours: colours,
                labels: labels,
                paperTypeIds: papers.sorted { $0.uuidString < $1.uuidString }
            )
            // The studio's form has no photo slots (the API sets them): an edit keeps the template's.
            if let id { body.photoSlots = try await cards.template(id, viewer: context.identity).photoSlots }
            let saved =
                if let id { try await cards.updateTemplate(context.identity, id, body) } else {
                    try await cards.createTemplate(context.identity, body)
                }
            return PageRenderer.seeOther("/cards/studio/\(saved.id.uuidString.lowercased())?notice=template-saved")
        } catch var error as PlazaError where error.status.code < 500 {
            error.errors = error.errors?.map {
                FieldError(
                    field: $0.field.hasPrefix("labels")
                        ? "labels" : $0.field.hasPrefix("colours") ? "colourName-0" : $0.field,
                    message: "\($0.field): \($0.message)"
                )
            }
            return renderer.refused("template", FormState(form, names: names, error: error), returnTo: back)
        }
    }

    @Sendable func submitTemplate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "template")
        do {
            _ = try await cards.submitTemplate(context.identity, id)
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                alert: error.summary,
                returnTo: "/cards/studio/\(id.uuidString.lowercased())"
            )
        }
        return PageRenderer.seeOther("/cards/studio?notice=template-submitted")
    }

    /// The page script's upload of one piece of art (raw bytes, `X-CSRF-Token`): `{id, url}` or a problem.
    @Sendable func uploadArt(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.body(upTo: CardsService.maximumArtBytes)
        let upload = try await cards.uploadArt(
            context.identity,
            Data(body.readableBytesView),
            contentType: request.headers[.contentType] ?? ""
        )
        return try .json(upload, status: .created)
    }
}
