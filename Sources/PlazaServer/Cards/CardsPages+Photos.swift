import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore
import PlazaMedia

/// The editor's photo slots: "Add a photo" (a form with the file, no script needed), then buttons that move and zoom
/// it a step at a time or take it out, each a POST that comes back to the editor with what happened said.
extension CardsPages {
    func addPhotoRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.post("designs/:id/photos/:slot", use: uploadPhoto)
        signedIn.post("designs/:id/photos/:slot/adjust", use: adjustPhoto)
    }

    struct PhotoSlotField: Sendable {
        var designId: String
        var id: String
        var name: String
        var hasPhoto: Bool
        /// The photo's size in pixels ("1200 × 800"), for the words that stand for it in the preview.
        var pixels: String
        /// What the slot shows of the photo, drawn beside its buttons (on a phone the card's preview is above).
        var crop: String
        /// What the last press did, said beside the buttons too (the page's notice is at its top).
        var status: String?
        /// The photo's zoom in per cent (100: it just covers the slot).
        var zoom: String
        var canZoomOut: Bool
        var canZoomIn: Bool
        /// Preflight's word on the slot (an empty required slot: `blocking`), said beside its controls.
        var finding: String?
        var blocking: Bool
        var error: String?
        /// Pixels across for 250 dpi, the hint under the file field.
        var sharpWidth: String
        var locked: Bool
    }

    /// The current page's slots as the editor shows them.
    static func photoFields(
        _ template: CardTemplate,
        _ design: CardDesign,
        page: CardPage,
        request: Request,
        refused: (String) -> FormState?
    ) -> [PhotoSlotField] {
        let status = photoStatus(request)
        return template.photoSlots.filter { $0.page == page }.map { slot in
            let photo = design.photos.first { $0.slotId == slot.id }
            let findings = design.findings.filter { $0.labelId == slot.id }
            let worst = findings.first { $0.severity == .error } ?? findings.first
            let form = refused("photo-\(slot.id)")
            let zoom = photo?.zoom ?? 1
            return PhotoSlotField(
                designId: design.id.uuidString.lowercased(),
                id: slot.id,
                name: slot.title,
                hasPhoto: photo != nil,
                pixels: photo.map { "\($0.width ?? 0) × \($0.height ?? 0)" } ?? "",
                crop: photo.map { Self.crop($0, slot) } ?? "",
                status: status?.slot == slot.id ? status?.text : nil,
                zoom: String(Int((zoom * 100).rounded())),
                canZoomOut: zoom > CardPhotoRules.zoomRange.lowerBound,
                canZoomIn: zoom < CardPhotoRules.zoomRange.upperBound,
                finding: worst?.message,
                blocking: worst?.severity == .error,
                error: form.flatMap { $0.error ?? $0.fields.values.compactMap(\.error).first },
                sharpWidth: String(Int((slot.width / 25.4 * CardPhotoRules.minimumDPI).rounded(.up))),
                locked: design.locked
            )
        }
    }

    /// The slot alone with its photo, as the preview shows it.
    static func crop(_ photo: CardPhotoPlacement, _ slot: CardPhotoSlot) -> String {
        guard let placed = CardPhotoRules.placement(photo, in: slot.box) else { return "" }
        let n = CardPreviewSVG.number
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(n(slot.x)) \(n(slot.y)) \(n(slot.width)) \(n(slot.height))\" "
            + "class=\"photo-crop\" aria-hidden=\"true\">"
            + CardPreviewSVG.photo(
                href: "/media/\(photo.mediaId.uuidString.lowercased())",
                slotId: slot.id,
                placed: placed,
                slot: slot.box
            ) + "</svg>"
    }

    /// The photo notice of the request, with its slot (`?notice=photo-moved&slot=couple`).
    static func photoStatus(_ request: Request) -> (slot: String, text: String)? {
        guard let key = request.uri.queryParameters.get("notice"), key.hasPrefix("photo-"),
            let slot = request.uri.queryParameters.get("slot"), let text = notices[String(key)]
        else { return nil }
        return (String(slot), say(text))
    }

    static func photoBack(_ id: UUID, page: String, slot: String) -> String {
        let page = CardPage(rawValue: page)?.rawValue ?? "front"
        return "/cards/designs/\(id.uuidString.lowercased())?page=\(page)"
    }

    /// "Add a photo": the picked file uploaded and put in the slot; a refused picture is said beside the slot.
    @Sendable func uploadPhoto(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "design")
        let slot = context.parameters.get("slot") ?? ""
        let form = try await request.decodeMultipart()
        let back = Self.photoBack(id, page: form?["page"] ?? "", slot: slot)
        do {
            guard let file = form?.file("photo") else {
                throw PlazaError.validation(field: "photo", phrase("Pick a photo to upload (JPEG or PNG)."))
            }
            _ = try await cards.uploadPhoto(
                context.identity,
                id,
                slot: slot,
                file.data,
                contentType: file.contentType ?? ""
            )
        } catch let error as PlazaError where error.status.code < 500 && error.status != .notFound {
            return renderer.refused(
                "photo-\(slot)",
                FormState(nil, names: ["photo"], error: error),
                returnTo: back + "#photo-\(slot)"
            )
        }
        return PageRenderer.seeOther(back + "&notice=photo-added&slot=\(slot)#photo-\(slot)")
    }

    /// A press of the move, zoom or remove buttons.
    @Sendable func adjustPhoto(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "design")
        let slot = context.parameters.get("slot") ?? ""
        let back = Self.photoBack(id, page: form["page"], slot: slot)
        let action = form["action"]
        guard action == "remove" || CardPhotoAdjustment(rawValue: action) != nil else {
            throw PlazaError.validation(field: "action", phrase("Move, zoom or remove the photo."))
        }
        let change = try await cards.adjustPhoto(
            context.identity,
            id,
            slot: slot,
            CardPhotoAdjustment(rawValue: action)
        )
        let notice =
            switch change {
            case .added, .moved: "photo-moved"
            case .atEdge: "photo-edge"
            case .removed: "photo-removed"
            }
        return PageRenderer.seeOther(back + "&notice=\(notice)&slot=\(slot)#photo-\(slot)")
    }
}
