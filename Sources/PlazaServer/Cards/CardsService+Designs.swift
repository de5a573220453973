import Foundation
import HTTPTypes
import PlazaCore
import PlazaMedia
import SQLKit

/// Saved designs: made from a template version (pinned), changed only as its labels allow, always the owner's alone.
extension CardsService {
    /// A design with its layout's findings, as its owner sees it.
    package struct DesignView: Sendable {
        package var record: CardsStore.DesignRecord
        var templateName: String
        package var spec: CardTemplateSpec
        var layouts: [String: CardTextLayout]
        var findings: [CardFinding]
    }

    package func createDesign(
        _ identity: Identity,
        _ request: CardDesignRequest,
        now: Date = Date()
    ) async throws -> CardDesign {
        guard let templateId = request.templateId else {
            throw PlazaError.validation(field: "templateId", phrase("Pick the template to personalize."))
        }
        let (template, spec, version) = try await visibleTemplate(templateId, viewer: identity)
        let colour = try colour(request.colour, in: spec)
        let labels = try Self.applying(request.labels ?? [], to: CardDesignRules.defaults(spec), spec: spec)
        let name = try name(request.name) ?? template.name
        let photos = try await checkedPhotos(request.photos ?? [], owner: identity.user.id, spec: spec)
        let record = CardsStore.DesignRecord(
            id: UUID(),
            ownerId: identity.user.id,
            templateId: templateId,
            templateVersion: version,
            name: name,
            colour: colour,
            labels: labels,
            photos: photos,
            locked: false,
            createdAt: now,
            updatedAt: now
        )
        try await store.insert(record, on: database.sql)
        return dto(view(record, templateName: template.name, spec: spec))
    }

    func designs(_ identity: Identity, limit: Int, cursor: String?) async throws -> Page<CardDesign> {
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let records = try await store.designs(
            owner: identity.user.id,
            limit: limit + 1,
            offset: offset,
            on: database.sql
        )
        var items: [CardDesign] = []
        for record in records.prefix(limit) { items.append(dto(try await view(record))) }
        return Page(items: items, nextCursor: records.count > limit ? PlaceCursor.encode(offset: offset + limit) : nil)
    }

    func design(_ identity: Identity, _ id: UUID) async throws -> CardDesign {
        dto(try await view(try await own(identity, id)))
    }

    /// Changes the name, colour or labels; a locked design (its order is in production) is 409.
    func updateDesign(
        _ identity: Identity,
        _ id: UUID,
        _ request: CardDesignRequest,
        now: Date = Date()
    ) async throws -> CardDesign {
        var record = try await own(identity, id)
        guard !record.locked else { throw Self.lockedError }
        let current = try await view(record)
        if request.colour != nil { record.colour = try colour(request.colour, in: current.spec) }
        if let edits = request.labels {
            record.labels = try Self.applying(edits, to: record.labels, spec: current.spec)
        }
        if let photos = request.photos {
            record.photos = try await checkedPhotos(
                photos,
                owner: identity.user.id,
                spec: current.spec,
                known: record.photos
            )
        }
        if let name = try name(request.name) { record.name = name }
        record.updatedAt = now
        guard try await store.update(record, on: database.sql) else { throw Self.lockedError }
        return dto(view(record, templateName: current.templateName, spec: current.spec))
    }

    func deleteDesign(_ identity: Identity, _ id: UUID) async throws {
        let record = try await own(identity, id)
        guard !record.locked else { throw Self.lockedError }
        guard try await !store.designIsOrdered(id, on: database.sql) else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("This design is part of an order."),
                detail: phrase("An order keeps the design it prints; duplicate it to start another.")
            )
        }
        guard try await store.deleteDesign(record.id, on: database.sql) else { throw Self.lockedError }
    }

    /// A copy to try something else with: the same template version, colour and labels, "… (copy)".
    func duplicateDesign(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws -> CardDesign {
        var record = try await own(identity, id)
        record.id = UUID()
        record.name = String((record.name + " (copy)").prefix(CardRules.nameLength.upperBound))
        record.locked = false
        record.createdAt = now
        record.updatedAt = now
        try await store.insert(record, on: database.sql)
        return dto(try await view(record))
    }

    // MARK: Helpers

    /// The owner's design; anyone else's is 404, as if it did not exist.
    func own(_ identity: Identity, _ id: UUID) async throws -> CardsStore.DesignRecord {
        guard let record = try await store.design(id, on: database.sql), record.ownerId == identity.user.id else {
            throw PlazaError.notFound("design")
        }
        return record
    }

    func view(_ record: CardsStore.DesignRecord) async throws -> DesignView {
        guard let template = try await store.template(record.templateId, on: database.sql),
            let spec = try await store.spec(record.templateId, version: record.templateVersion, on: database.sql)
        else { throw PlazaError.notFound("template") }
        return view(record, templateName: template.name, spec: spec)
    }

    func view(_ record: CardsStore.DesignRecord, templateName: String, spec: CardTemplateSpec) -> DesignView {
        let layouts = CardPreflight.layouts(record.labels, spec: spec, fonts: fonts.fonts)
        return DesignView(
            record: record,
            templateName: templateName,
            spec: spec,
            layouts: layouts,
            findings: CardPreflight.findings(record.labels, spec: spec, layouts: layouts)
                + CardPreflight.findings(record.photos, spec: spec)
        )
    }

    func dto(_ view: DesignView) -> CardDesign {
        let record = view.record
        return CardDesign(
            id: record.id,
            name: record.name,
            templateId: record.templateId,
            templateName: view.templateName,
            templateVersion: record.templateVersion,
            colour: record.colour,
            labels: record.labels,
            photos: record.photos,
            findings: view.findings,
            orderable: CardPreflight.orderable(view.findings),
            locked: record.locked,
            previewUrl: "/v1/cards/designs/\(record.id.uuidString.lowercased())/preview.svg",
            createdAt: record.createdAt,
            updatedAt: record.updatedAt
        )
    }

    static func applying(
        _ edits: [CardLabelEdit],
        to labels: [CardLabelValue],
        spec: CardTemplateSpec
    ) throws -> [CardLabelValue] {
        do {
            return try CardDesignRules.apply(edits, to: labels, spec: spec)
        } catch {
            throw PlazaError.validation(error.errors)
        }
    }

    private func colour(_ asked: String?, in spec: CardTemplateSpec) throws -> String {
        guard let asked else { return spec.colours.first?.id ?? "" }
        guard spec.colours.contains(where: { $0.id == asked }) else {
            throw PlazaError.validation(
                field: "colour",
                say("Pick one of: {colours}.", ["colours": spec.colours.map(\.name).joined(separator: ", ")])
            )
        }
        return asked
    }

    private func name(_ asked: String?) throws -> String? {
        guard let asked else { return nil }
        let name = asked.trimmingCharacters(in: .whitespacesAndNewlines)
        guard CardRules.nameLength.contains(name.count) else {
            throw PlazaError.validation(field: "name", phrase("Name it in at most 80 characters."))
        }
        return name
    }

    static let lockedError = PlazaError(
        .conflict,
        .stateConflict,
        phrase("This design is being printed."),
        detail: phrase("Its order went to production, so it can no longer change. Duplicate it to make another.")
    )
}
