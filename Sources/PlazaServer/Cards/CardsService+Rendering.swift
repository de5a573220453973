import Foundation
import PlazaCore
import PlazaMedia
import PlazaPDF

/// Previews (SVG) and print files (PDF), both drawn from one layout per label: the numbers `CardPreflight.layouts`
/// answers are the numbers both files are written with.
extension CardsService {
    /// A template's page with its own text, for the catalogue (`colour` nil: its first).
    func templatePreview(
        _ id: UUID,
        viewer: Identity?,
        colour: String?,
        page: CardPage,
        inline: Bool = false
    ) async throws -> String {
        let (_, spec, _) = try await visibleTemplate(id, viewer: viewer)
        return try await templatePreview(spec, colour: colour, page: page, inline: inline)
    }

    func templatePreview(_ spec: CardTemplateSpec, colour: String?, page: CardPage, inline: Bool) async throws -> String
    {
        let values = CardDesignRules.defaults(spec)
        let colour = spec.colours.first { $0.id == colour } ?? spec.colours.first
        return try await previewSVG(
            spec: spec,
            colour: colour,
            values: values,
            layouts: layouts(values, spec),
            page: page,
            guides: false,
            inline: inline,
            emptySlots: true
        )
    }

    /// A template's pages as its review shows them to an admin (the version waiting), each colour's, with a text twin:
    /// the colour and page, the art's presence and every text as the template sets it.
    func reviewArt(_ id: UUID, viewer: Identity) async throws -> [ReviewArt] {
        let (_, spec, _) = try await visibleTemplate(id, viewer: viewer)
        var art: [ReviewArt] = []
        for colour in spec.colours.isEmpty ? [nil] : spec.colours.map(Optional.some) {
            for page in spec.pages {
                let texts = spec.labels.filter { $0.page == page }.map { "“\($0.text)” (\($0.title))" }
                let drawn = colour?.art[page.rawValue] != nil
                let words =
                    (drawn ? "the designer’s art" : "no art, a blank page")
                    + (texts.isEmpty ? "; no text." : ", with " + texts.joined(separator: ", ") + ".")
                art.append(
                    ReviewArt(
                        title: [page.rawValue.capitalized, colour?.name].compactMap { $0 }.joined(separator: ", "),
                        svg: try await templatePreview(spec, colour: colour?.id, page: page, inline: true),
                        text: words.prefix(1).uppercased() + words.dropFirst()
                    )
                )
            }
        }
        return art
    }

    /// A design's page; `guides` adds the trim, bleed and safe-area lines of the editor.
    func designPreview(
        _ identity: Identity,
        _ id: UUID,
        page: CardPage,
        guides: Bool,
        inline: Bool = false
    ) async throws -> String {
        try await preview(try await view(try await own(identity, id)), page: page, guides: guides, inline: inline)
    }

    package func preview(_ view: DesignView, page: CardPage, guides: Bool, inline: Bool) async throws -> String {
        let colour = view.spec.colours.first { $0.id == view.record.colour } ?? view.spec.colours.first
        return try await previewSVG(
            spec: view.spec,
            colour: colour,
            values: view.record.labels,
            layouts: view.layouts,
            page: page,
            guides: guides,
            inline: inline,
            photos: view.record.photos
        )
    }

    /// The design with unsaved changes, as the editor shows it while the shopper types: nothing is stored.
    package func tryOut(_ identity: Identity, _ id: UUID, _ request: CardDesignRequest) async throws -> DesignView {
        var record = try await own(identity, id)
        let current = try await view(record)
        if let colour = request.colour, current.spec.colours.contains(where: { $0.id == colour }) {
            record.colour = colour
        }
        if let edits = request.labels {
            record.labels = try Self.applying(edits, to: record.labels, spec: current.spec)
        }
        return view(record, templateName: current.templateName, spec: current.spec)
    }

    /// Like `tryOut`, change by change: a change its label refuses (a size past the largest) is left out and named
    /// `size-<label>` with why, the rest apply. The live preview shows them and says each refusal beside its field
    /// (issue 39: one refused size froze the preview with a stale "is empty"); `kept` is what may be saved.
    package func tryOutEach(
        _ identity: Identity,
        _ id: UUID,
        _ request: CardDesignRequest
    ) async throws -> (view: DesignView, kept: CardDesignRequest, refused: [FieldError]) {
        var record = try await own(identity, id)
        let current = try await view(record)
        if let colour = request.colour, current.spec.colours.contains(where: { $0.id == colour }) {
            record.colour = colour
        }
        var kept: [CardLabelEdit] = []
        var refused: [FieldError] = []
        for edit in request.labels ?? [] {
            let parts: [(field: String, edit: CardLabelEdit)] = [
                ("text", CardLabelEdit(id: edit.id, text: edit.text)),
                ("font", CardLabelEdit(id: edit.id, font: edit.font)),
                ("size", CardLabelEdit(id: edit.id, size: edit.size)),
                ("colour", CardLabelEdit(id: edit.id, colour: edit.colour)),
                ("x", CardLabelEdit(id: edit.id, x: edit.x, y: edit.y)),
            ]
            var keep = CardLabelEdit(id: edit.id)
            for part in parts {
                do {
                    record.labels = try CardDesignRules.apply([part.edit], to: record.labels, spec: current.spec)
                    keep.text = part.edit.text ?? keep.text
                    keep.font = part.edit.font ?? keep.font
                    keep.size = part.edit.size ?? keep.size
                    keep.colour = part.edit.colour ?? keep.colour
                    keep.x = part.edit.x ?? keep.x
                    keep.y = part.edit.y ?? keep.y
                } catch {
                    refused += error.errors.map { FieldError(field: "\(part.field)-\(edit.id)", message: $0.message) }
                }
            }
            kept.append(keep)
        }
        var keptRequest = request
        keptRequest.labels = request.labels == nil ? nil : kept
        return (view(record, templateName: current.templateName, spec: current.spec), keptRequest, refused)
    }

    /// Every line of every label where the print puts it, and the findings.
    func designLayout(_ identity: Identity, _ id: UUID) async throws -> CardDesignLayout {
        let view = try await view(try await own(identity, id))
        let pages = view.spec.pages.map { page in
            CardDesignLayout.PageLayout(
                page: page,
                labels: view.record.labels.filter { $0.page == page }.compactMap { value in
                    view.layouts[value.id].map { layout in
                        CardDesignLayout.LabelLayout(
                            id: value.id,
                            lines: layout.lines.map {
                                CardDesignLayout.Line(text: $0.text, x: $0.x, y: $0.baseline, width: $0.width)
                            },
                            overflow: layout.overflow
                        )
                    }
                }
            )
        }
        return CardDesignLayout(
            pages: pages,
            findings: view.findings,
            orderable: CardPreflight.orderable(view.findings)
        )
    }

    /// The print file: every page at trim plus 3 mm bleed, fonts embedded; the same bytes while the design is unchanged.
    func designPrint(_ identity: Identity, _ id: UUID) async throws -> Data {
        let view = try await view(try await own(identity, id))
        return try await printPDF(view)
    }

    package func printPDF(_ view: DesignView) async throws -> Data {
        let colour = view.spec.colours.first { $0.id == view.record.colour } ?? view.spec.colours.first
        var arts: [CardPage: CardArtCache.Art] = [:]
        for page in view.spec.pages {
            if let artID = colour?.art[page.rawValue], let art = try await art(artID) { arts[page] = art }
        }
        let photos = try await photoImages(view.record.photos)
        // Drawing, font subsetting and compressing the streams: on the decode pool, as every costly byte format is.
        let fonts = fonts.fonts
        return try await decoding.run { [arts] in
            var writer = PDFWriter(info: .init(title: view.record.name, author: nil, producer: "Plaza card shop"))
            for page in view.spec.pages {
                var canvas = PDFCanvas(
                    trimWidth: view.spec.trim.widthMm,
                    trimHeight: view.spec.trim.heightMm,
                    bleed: CardRules.bleedMm
                )
                switch arts[page] {
                case .svg(let art): canvas.draw(art, in: canvas.bleedRect)
                case .png(let image): canvas.draw(image, in: canvas.bleedRect)
                case .photo, nil: break
                }
                Self.drawPhotos(photos, view.record.photos, spec: view.spec, page: page, on: &canvas)
                for value in view.record.labels where value.page == page {
                    guard let layout = view.layouts[value.id], let font = fonts[layout.fontID] else { continue }
                    try canvas.draw(layout, font: font, color: Self.pdfColour(value.colour))
                }
                writer.add(canvas)
            }
            return try writer.render()
        }
    }

    func previewSVG(
        spec: CardTemplateSpec,
        colour: CardColour?,
        values: [CardLabelValue],
        layouts: [String: CardTextLayout],
        page: CardPage,
        guides: Bool,
        inline: Bool = false,
        photos: [CardPhotoPlacement] = [],
        emptySlots: Bool = false
    ) async throws -> String {
        guard spec.pages.contains(page) else { throw PlazaError.notFound("page") }
        let bleed = CardRect(
            x: -CardRules.bleedMm,
            y: -CardRules.bleedMm,
            width: spec.trim.widthMm + 2 * CardRules.bleedMm,
            height: spec.trim.heightMm + 2 * CardRules.bleedMm
        )
        var artSVG: String?
        if let artID = colour?.art[page.rawValue], let art = try await art(artID) {
            switch art {
            case .svg(let art): artSVG = art.svgFragment(in: bleed)
            case .photo: break
            case .png:
                let n = CardPreviewSVG.number
                artSVG =
                    "<image href=\"/cards/art/\(artID.uuidString.lowercased())\" x=\"\(n(bleed.x))\" y=\"\(n(bleed.y))\" "
                    + "width=\"\(n(bleed.width))\" height=\"\(n(bleed.height))\" preserveAspectRatio=\"none\"/>"
            }
        }
        let labels = values.filter { $0.page == page }.compactMap { value in
            layouts[value.id].map { (id: value.id, layout: $0, colour: value.colour) }
        }
        // Photos over the art, under the text, as the print draws them.
        let photoSVG = photosSVG(photos, spec: spec, page: page, emptySlots: guides || emptySlots)
        return CardPreviewSVG.document(
            CardPreviewSVG.Page(
                trim: spec.trim,
                art: (artSVG ?? "") + photoSVG,
                labels: labels,
                guides: guides,
                fonts: fonts.fonts.mapValues(\.font)
            ),
            fontURL: { "/v1/cards/fonts/\($0)" },
            inline: inline,
            naming: CardPreviewSVG.Naming(
                reading: say("A card reading: {words}"),
                wordless: say("A card without words")
            )
        )
    }

    func layouts(_ values: [CardLabelValue], _ spec: CardTemplateSpec) -> [String: CardTextLayout] {
        CardPreflight.layouts(values, spec: spec, fonts: fonts.fonts)
    }

    func art(_ id: UUID) async throws -> CardArtCache.Art? {
        let store = store
        let db = database.sql
        return try await artCache.art(id) {
            guard let record = try await store.art(id, on: db), let bytes = try await store.artBytes(id, on: db) else {
                return nil
            }
            return (record.contentType, bytes)
        }
    }

    /// A stored piece of art as served: its type, bytes and digest (the ETag), and whether anyone may see it. Art an
    /// approved template uses is public; other art is 404 to all but its designer and the admins.
    func artFile(
        _ id: UUID,
        viewer: Identity?
    ) async throws -> (contentType: String, bytes: Data, digest: String, isPublic: Bool) {
        guard let record = try await store.art(id, on: database.sql) else { throw PlazaError.notFound("art") }
        let isPublic = try await store.artIsPublic(id, on: database.sql)
        let mayView = isPublic || viewer?.user.role == .admin || (viewer != nil && record.ownerId == viewer?.user.id)
        guard mayView, let bytes = try await store.artBytes(id, on: database.sql) else {
            throw PlazaError.notFound("art")
        }
        return (record.contentType, bytes, record.digest, isPublic)
    }

    static func pdfColour(_ hex: String) -> PDFColor {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        return PDFColor(red255: (value >> 16) & 0xFF, green: (value >> 8) & 0xFF, blue: value & 0xFF)
    }
}
