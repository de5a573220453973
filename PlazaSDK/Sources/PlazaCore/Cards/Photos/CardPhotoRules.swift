import Foundation

/// Photo slots on templates and photos in designs: where a slot may sit, what a shopper may set, where the photo lands
/// (the one geometry the preview and the print file both draw), and how sharp it prints.
public enum CardPhotoRules {
    public static let maxSlots = 8
    public static let zoomRange = 1.0...8.0
    public static let panRange = -1.0...1.0
    /// Fewer pixels per inch than this at print size look soft (preflight `photo_low_resolution`).
    public static let minimumDPI = 250.0
    /// Each press of the editor's move buttons and zoom buttons.
    public static let panStep = 0.25
    public static let zoomStep = 0.25

    /// A template's slots: ids of their own (not a label's), on its pages, inside the trim.
    public static func problems(
        _ slots: [CardPhotoSlot],
        labels: [CardLabelSpec],
        pages: [CardPage],
        trim: CardTrim
    )
        -> [FieldError]
    {
        var validator = Validator()
        validator.check(slots.count <= maxSlots, "photoSlots", "At most \(maxSlots) photo slots.")
        let ids = slots.map(\.id)
        validator.check(Set(ids).count == ids.count, "photoSlots", "Give each photo slot its own id.")
        for (index, slot) in slots.enumerated() {
            let field = { (name: String) in "photoSlots[\(index)].\(name)" }
            validator.check(
                !slot.id.isEmpty && slot.id.count <= 40
                    && slot.id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" },
                field("id"),
                "Use letters, digits, - or _ for the slot's id."
            )
            validator.check(
                !labels.contains { $0.id == slot.id },
                field("id"),
                "A label has this id already: give the slot another."
            )
            validator.check(pages.contains(slot.page), field("page"), "Put the slot on one of the card's pages.")
            let inside =
                [slot.x, slot.y, slot.width, slot.height].allSatisfy(\.isFinite) && slot.x >= 0 && slot.y >= 0
                && slot.width >= 5 && slot.height >= 5 && slot.x + slot.width <= trim.widthMm + 1e-9
                && slot.y + slot.height <= trim.heightMm + 1e-9
            validator.check(inside, field("x"), "Keep the slot on the card, at least 5 mm a side.")
        }
        return validator.errors
    }

    /// The shopper's photos checked against the template's slots (every field at fault, `photos[1].zoom`), at most
    /// one a slot; sizes are the server's to fill in.
    public static func problems(_ photos: [CardPhotoPlacement], slots: [CardPhotoSlot]) -> [FieldError] {
        var validator = Validator()
        var seen = Set<String>()
        for (index, photo) in photos.enumerated() {
            let field = { (name: String) in "photos[\(index)].\(name)" }
            validator.check(
                slots.contains { $0.id == photo.slotId },
                field("slotId"),
                "This card has no photo slot “\(photo.slotId)”."
            )
            validator.check(seen.insert(photo.slotId).inserted, field("slotId"), "One photo a slot.")
            validator.check(
                photo.zoom.isFinite && zoomRange.contains(photo.zoom),
                field("zoom"),
                "Zoom from 1 (the photo just covers the slot) to \(Int(zoomRange.upperBound))."
            )
            validator.check(photo.panX.isFinite && panRange.contains(photo.panX), field("panX"), "From -1 to 1.")
            validator.check(photo.panY.isFinite && panRange.contains(photo.panY), field("panY"), "From -1 to 1.")
        }
        return validator.errors
    }

    /// Where the whole photo lands (millimetres, card coordinates) so that `photo` shows in `slot` as set: scaled to
    /// cover the slot times the zoom, the overflow split by the pan. Nil without a pixel size.
    public static func placement(_ photo: CardPhotoPlacement, in slot: CardRect) -> CardRect? {
        guard let width = photo.width, let height = photo.height, width > 0, height > 0 else { return nil }
        let scale = millimetresPerPixel(width: width, height: height, slot: slot, zoom: photo.zoom)
        let placed = (width: Double(width) * scale, height: Double(height) * scale)
        let pan = (x: min(max(photo.panX, -1), 1), y: min(max(photo.panY, -1), 1))
        return CardRect(
            x: slot.x - (placed.width - slot.width) * (1 + pan.x) / 2,
            y: slot.y - (placed.height - slot.height) * (1 + pan.y) / 2,
            width: placed.width,
            height: placed.height
        )
    }

    /// The photo's pixels per inch in print: the pixels of the part that shows, per inch of the slot. Nil without a
    /// pixel size.
    public static func dpi(_ photo: CardPhotoPlacement, in slot: CardRect) -> Double? {
        guard let width = photo.width, let height = photo.height, width > 0, height > 0 else { return nil }
        return 25.4 / millimetresPerPixel(width: width, height: height, slot: slot, zoom: photo.zoom)
    }

    static func millimetresPerPixel(width: Int, height: Int, slot: CardRect, zoom: Double) -> Double {
        max(slot.width / Double(width), slot.height / Double(height)) * max(zoom, 1)
    }
}
