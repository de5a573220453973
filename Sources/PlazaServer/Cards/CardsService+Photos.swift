import Foundation
import PlazaCore
import PlazaMedia
import PlazaPDF

/// Photo cards: the shopper's own uploads in a template's photo slots, checked when set, drawn in the preview as an
/// `<image>` clipped to the slot and in the print file as the upload's full pixels, with one geometry
/// (`CardPhotoRules.placement`).
extension CardsService {
    /// `asked` checked against the template's slots, each upload the owner's own JPEG or PNG (anything else is 422
    /// naming `photos[i].mediaId`, as if it did not exist); answered with each upload's pixel size as shown (an EXIF
    /// orientation of 5 to 8 turns it a quarter: width and height swap). Uploads `known` already sized keep theirs.
    func checkedPhotos(
        _ asked: [CardPhotoPlacement],
        owner: UUID,
        spec: CardTemplateSpec,
        known: [CardPhotoPlacement] = []
    ) async throws -> [CardPhotoPlacement] {
        var problems = CardPhotoRules.problems(asked, slots: spec.photoSlots)
        var photos = asked
        for (index, photo) in asked.enumerated() {
            let field = "photos[\(index)].mediaId"
            guard let record = try await media.owned(photo.mediaId, by: owner) else {
                let id = photo.mediaId.uuidString.lowercased()
                problems.append(
                    FieldError(
                        field: field,
                        message: say("No photo of yours has the id {id}; upload it first (POST /v1/media).", ["id": id])
                    )
                )
                continue
            }
            guard Self.photoTypes.contains(record.contentType) else {
                problems.append(
                    FieldError(field: field, message: phrase("Print takes JPEG or PNG photos: upload one of those."))
                )
                continue
            }
            if let sized = known.first(where: { $0.mediaId == photo.mediaId && $0.width != nil }) {
                (photos[index].width, photos[index].height) = (sized.width, sized.height)
                continue
            }
            let turned = try await photoOrientation(photo.mediaId) >= 5
            photos[index].width = turned ? record.height : record.width
            photos[index].height = turned ? record.width : record.height
        }
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        return photos
    }

    /// The upload's EXIF orientation (1 when it has none), read on the decode pool.
    func photoOrientation(_ id: UUID) async throws -> Int {
        guard let (record, bytes) = try await media.original(id) else { return 1 }
        return try await decoding.run { Self.orientation(bytes, type: record.contentType) }
    }

    static func orientation(_ bytes: Data, type: String) -> Int {
        guard case .success(let image) = ImageSanitizer.sanitize(bytes, declared: type) else { return 1 }
        return image.orientation
    }

    static let photoTypes: Set<String> = ["image/jpeg", "image/png"]

    /// The page's photos as SVG, each clipped to its slot (`emptySlots`: those without a photo shaded, as the editor
    /// and the catalogue show them; never in what is printed or approved).
    func photosSVG(_ photos: [CardPhotoPlacement], spec: CardTemplateSpec, page: CardPage, emptySlots: Bool) -> String {
        var svg = ""
        for slot in spec.photoSlots where slot.page == page {
            if let photo = photos.first(where: { $0.slotId == slot.id }),
                let placed = CardPhotoRules.placement(photo, in: slot.box)
            {
                svg += CardPreviewSVG.photo(
                    href: "/media/\(photo.mediaId.uuidString.lowercased())",
                    slotId: slot.id,
                    placed: placed,
                    slot: slot.box
                )
            } else if emptySlots {
                svg += CardPreviewSVG.emptySlot(slot.id, slot.box)
            }
        }
        return svg
    }

    /// Draws the page's photos on the print canvas at the upload's full resolution, turned as shown, clipped to their
    /// slots.
    static func drawPhotos(
        _ images: [String: (image: PDFImage, orientation: Int)],
        _ photos: [CardPhotoPlacement],
        spec: CardTemplateSpec,
        page: CardPage,
        on canvas: inout PDFCanvas
    ) {
        for slot in spec.photoSlots where slot.page == page {
            guard let photo = photos.first(where: { $0.slotId == slot.id }), let loaded = images[slot.id],
                let placed = CardPhotoRules.placement(photo, in: slot.box)
            else { continue }
            canvas.draw(loaded.image, in: placed, clippedTo: slot.box, orientation: loaded.orientation)
        }
    }

    /// The design's photos ready for the PDF, by slot: JPEGs as they are, PNGs as pixels over white (decoded on the
    /// decode pool within the picture budget, kept in the art cache), each with its EXIF orientation.
    func photoImages(_ photos: [CardPhotoPlacement]) async throws -> [String: (image: PDFImage, orientation: Int)] {
        var images: [String: (image: PDFImage, orientation: Int)] = [:]
        let media = media
        let pictures = pictures
        for photo in photos {
            let loaded = try await artCache.photo(photo.mediaId) {
                guard let (record, bytes) = try await media.original(photo.mediaId) else { return nil }
                return (record.contentType, bytes)
            } decode: { type, bytes in
                let orientation = Self.orientation(bytes, type: type)
                if type == "image/jpeg" { return (try PDFImage.jpeg(bytes), orientation) }
                let png = try pictures.checkedPNG(bytes)
                let pixels = CardArtCache.overWhite(png)
                return (try PDFImage.rgb(width: png.width, height: png.height, pixels: pixels), orientation)
            }
            images[photo.slotId] = loaded
        }
        return images
    }
}
