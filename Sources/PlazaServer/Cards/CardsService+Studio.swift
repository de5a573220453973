import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import PlazaMedia
import SQLKit

/// The designers' studio: art uploads, templates as drafts, versions, submission to the admins' review queue, and the
/// decision coming back.
extension CardsService {
    static let maximumArtBytes = CardArt.maximumBytes

    /// An uploaded piece of art: SVG is parsed and kept as the clean SVG Plaza writes from it (never the upload), PNG
    /// as sent, stripped of its metadata.
    package func uploadArt(
        _ identity: Identity,
        _ data: Data,
        contentType: String,
        now: Date = Date()
    ) async throws -> CardArtUpload {
        try requireDesigner(identity)
        let type =
            contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let pictures = pictures
        let (bytes, size) = try await decoding.run { try Self.checkedArt(data, type: type, pictures: pictures) }
        let record = CardsStore.ArtRecord(
            id: UUID(),
            ownerId: identity.user.id,
            contentType: type,
            width: size.width,
            height: size.height,
            digest: SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        )
        try await store.insertArt(record, bytes: bytes, now: now, on: database.sql)
        return CardArtUpload(
            id: record.id,
            contentType: type,
            width: size.width,
            height: size.height,
            url: "/v1/cards/art/\(record.id.uuidString.lowercased())"
        )
    }

    /// The art as Plaza keeps it, and its size: SVG parsed and written again, PNG stripped, its size judged from its
    /// header and its pixels read in full. Runs on the decode pool.
    static func checkedArt(
        _ data: Data,
        type: String,
        pictures: PictureBudget
    ) throws -> (bytes: Data, size: (width: Double, height: Double)) {
        switch type {
        case "image/svg+xml":
            do {
                let art = try CardArt(svg: data)
                return (Data(art.svgDocument.utf8), (art.viewBox.width, art.viewBox.height))
            } catch {
                throw PlazaError(
                    .unprocessableContent,
                    .invalidImage,
                    error.message,
                    errors: [FieldError(field: "body", message: error.message)]
                )
            }
        case "image/png":
            switch ImageSanitizer.sanitize(data, declared: type) {
            case .success(let image):
                try pictures.check(width: image.width, height: image.height)
                _ = try pictures.checkedPNG(image.bytes)
                return (image.bytes, (Double(image.width), Double(image.height)))
            case .failure(.invalid(let message)), .failure(.unsupported(let message)):
                throw PlazaError(.unprocessableContent, .invalidImage, message, detail: Self.artAccepted)
            }
        default:
            throw PlazaError(
                .unsupportedMediaType,
                .unsupportedMediaType,
                phrase("Send the art as SVG or PNG."),
                detail: Self.artAccepted
            )
        }
    }

    static let artAccepted =
        phrase(
            "Card art is SVG (flat colours and paths; text converted to outlines) or PNG at print resolution, at most 20 MB."
        )

    /// A new template, as a draft only its designer (and admins) see.
    package func createTemplate(
        _ identity: Identity,
        _ request: CardTemplateRequest,
        now: Date = Date()
    ) async throws -> CardTemplate {
        try requireDesigner(identity)
        let spec = try await checked(request, by: identity)
        let record = CardsStore.TemplateRecord(
            id: UUID(),
            designerId: identity.user.id,
            designer: CardDesigner(username: identity.user.username, displayName: identity.user.displayName),
            name: request.name.trimmingCharacters(in: .whitespacesAndNewlines),
            categoryId: request.categoryId,
            subcategoryId: request.subcategoryId,
            state: .draft,
            version: 1,
            publishedVersion: nil,
            rejectionReason: nil,
            createdAt: now,
            updatedAt: now
        )
        let store = store
        try await database.transaction { db in
            try await store.saveTemplate(record, spec: spec, papers: request.paperTypeIds, now: now, on: db)
        }
        return try await template(record.id, viewer: identity)
    }

    /// A new version of the designer's template: a draft again until submitted (the catalogue keeps the published one).
    func updateTemplate(
        _ identity: Identity,
        _ id: UUID,
        _ request: CardTemplateRequest,
        now: Date = Date()
    ) async throws -> CardTemplate {
        var record = try await ownTemplate(identity, id)
        // An admin reviewing it may correct it in place (it stays in the queue); its designer waits for the decision.
        let reviewing = identity.user.role == .admin && record.state == .submitted
        guard record.state != .submitted || reviewing else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("This template waits for review."),
                detail: phrase("Change it once an admin has decided.")
            )
        }
        let spec = try await checked(request, by: identity)
        record.name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        record.categoryId = request.categoryId
        record.subcategoryId = request.subcategoryId
        record.version += 1
        record.state = reviewing ? .submitted : .draft
        let store = store
        try await database.transaction { [record] db in
            try await store.saveTemplate(record, spec: spec, papers: request.paperTypeIds, now: now, on: db)
        }
        return try await template(id, viewer: identity)
    }

    /// Sends the newest version to the admins' queue, with what preflight finds in its own text.
    package func submitTemplate(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws -> CardTemplate {
        let record = try await ownTemplate(identity, id)
        guard let spec = try await store.spec(id, version: record.version, on: database.sql) else {
            throw PlazaError.notFound("template")
        }
        let defaults = CardDesignRules.defaults(spec)
        let findings = CardPreflight.findings(
            defaults,
            spec: spec,
            layouts: CardPreflight.layouts(defaults, spec: spec, fonts: fonts.fonts)
        )
        guard CardPreflight.orderable(findings) else {
            throw PlazaError(
                .unprocessableContent,
                .preflightFailed,
                phrase("The template's own text does not print well."),
                detail: findings.filter { $0.severity == .error }.map(\.message).joined(separator: " ")
            )
        }
        let trim = "\(CardPreviewSVG.number(spec.trim.widthMm)) × \(CardPreviewSVG.number(spec.trim.heightMm)) mm"
        let submission = ReviewSubmission(
            kind: .template,
            subjectId: id,
            subject: "“\(record.name)” by \(record.designer.displayName)",
            findings: [
                "Version \(record.version): \(trim), \(spec.pages.map(\.rawValue).joined(separator: ", ")); "
                    + "\(spec.colours.count) colour\(spec.colours.count == 1 ? "" : "s"), \(spec.labels.count) label\(spec.labels.count == 1 ? "" : "s")."
            ]
                + (findings.isEmpty
                    ? ["Preflight finds nothing in the template's own text."]
                    : findings.map { "Preflight: \($0.message)" }),
            notify: [record.designerId].compactMap { $0 }
        )
        let store = store
        try await events.transaction(publishing: { db in
            guard try await store.move(id, from: [.draft, .rejected], to: .submitted, now: now, on: db) else {
                throw PlazaError(
                    .conflict,
                    .stateConflict,
                    phrase("This template was submitted already."),
                    detail: phrase("It waits for an admin's decision.")
                )
            }
            return ((), [.review(submission)])
        })
        return try await template(id, viewer: identity)
    }

    /// The designer's templates, newest change first (every state).
    func studio(_ identity: Identity) async throws -> [CardTemplateSummary] {
        try await studioEntries(identity).map(\.summary)
    }

    /// The designer's templates with their newest specs, newest change first.
    func studioEntries(_ identity: Identity) async throws -> [(summary: CardTemplateSummary, spec: CardTemplateSpec)] {
        try requireDesigner(identity)
        let rows = try await store.templates(designer: identity.user.id, on: database.sql)
        let papers = try await store.papers(of: rows.map(\.0.id), on: database.sql)
        return rows.map { record, spec in
            (summary: Self.summary(record, spec: spec, papers: papers[record.id] ?? []), spec: spec)
        }
    }

    /// What the designer's templates sold: per template (a template without sales at zero, in the shop's currency)
    /// and in all.
    func sales(_ identity: Identity) async throws -> CardDesignerSales {
        try requireDesigner(identity)
        let templates = try await store.templateSales(designer: identity.user.id, on: database.sql).map { row in
            var row = row
            if row.currency.isEmpty { row.currency = currency }
            return row
        }
        return CardDesignerSales(
            templates: templates,
            totals: try await store.salesTotals(designer: identity.user.id, on: database.sql)
        )
    }

    /// The card shop's part of the bus's transactions: an admin's decision on a template puts it in the catalogue (its
    /// newest version) or sends it back with the reason.
    func reviewRecorder() -> EventBus.Recorder {
        let store = store
        return EventBus.Recorder(reacting: { messages, db in
            let now = Date()
            for case .reviewed(let decision) in messages where decision.kind == .template {
                guard let record = try await store.template(decision.subjectId, on: db) else { continue }
                if decision.approved {
                    let spec = try await store.spec(record.id, version: record.version, on: db)
                    _ = try await store.move(
                        record.id,
                        from: [.submitted],
                        to: .approved,
                        colourNames: spec?.colours.map(\.name),
                        now: now,
                        on: db
                    )
                } else {
                    _ = try await store.move(
                        record.id,
                        from: [.submitted],
                        to: .rejected,
                        reason: decision.reason,
                        now: now,
                        on: db
                    )
                }
            }
            return (false, [])
        })
    }

    // MARK: Helpers

    func requireDesigner(_ identity: Identity) throws {
        guard [.designer, .admin].contains(identity.user.role) else {
            throw PlazaError(
                .forbidden,
                .forbidden,
                phrase("Only designers upload card templates."),
                detail: phrase("An admin makes an account a designer.")
            )
        }
    }

    func ownTemplate(_ identity: Identity, _ id: UUID) async throws -> CardsStore.TemplateRecord {
        try requireDesigner(identity)
        guard let record = try await store.template(id, on: database.sql),
            record.designerId == identity.user.id || identity.user.role == .admin
        else { throw PlazaError.notFound("template") }
        return record
    }

    /// The request as a spec, or every field at fault: the shape (`CardTemplateRules`), then what it names exists and
    /// is theirs (categories, papers, art).
    private func checked(_ request: CardTemplateRequest, by identity: Identity) async throws -> CardTemplateSpec {
        var problems = CardTemplateRules.problems(request)
        let categories = try await store.categories(on: database.sql)
        if let category = categories.first(where: { $0.id == request.categoryId }) {
            if let sub = request.subcategoryId, !category.subcategories.contains(where: { $0.id == sub }) {
                problems.append(
                    FieldError(
                        field: "subcategoryId",
                        message: say("Pick a subcategory of {category}.", ["category": category.name])
                    )
                )
            }
        } else {
            problems.append(FieldError(field: "categoryId", message: phrase("Pick one of the catalogue's categories.")))
        }
        let papers = Set(try await store.papers(on: database.sql).map(\.id))
        if !request.paperTypeIds.allSatisfy(papers.contains) {
            problems.append(
                FieldError(field: "paperTypeIds", message: phrase("Pick papers from the card shop's list."))
            )
        }
        for (index, colour) in request.colours.enumerated() {
            for art in colour.art.values {
                let record = try await store.art(art, on: database.sql)
                if record == nil || (record?.ownerId != identity.user.id && identity.user.role != .admin) {
                    problems.append(
                        FieldError(
                            field: "colours[\(index)].art",
                            message: phrase("Upload the art first (POST /v1/cards/art), then name it here.")
                        )
                    )
                }
            }
        }
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        var used = Set<String>()
        let colours = request.colours.map { colour -> CardColour in
            let base = Self.slug(colour.id ?? colour.name)
            var id = base.isEmpty ? "colour" : base
            var suffix = 2
            while used.contains(id) {
                id = "\(base)-\(suffix)"
                suffix += 1
            }
            used.insert(id)
            return CardColour(id: id, name: colour.name.trimmingCharacters(in: .whitespaces), art: colour.art)
        }
        return CardTemplateSpec(
            trim: request.trim,
            pages: request.pages,
            colours: colours,
            labels: request.labels.map(\.normalized),
            photoSlots: request.photoSlots
        )
    }

    static func slug(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        return String(folded.map { $0.isLetter || $0.isNumber ? $0 : "-" }).split(separator: "-").joined(separator: "-")
    }
}
