import Foundation
import PlazaCore

/// Photo slots in preflight: a required slot left empty stops the order; a photo with too few pixels for its slot's
/// print size is said, with what to do.
extension CardPreflight {
    /// Slot by slot in the template's order.
    public static func findings(_ photos: [CardPhotoPlacement], spec: CardTemplateSpec) -> [CardFinding] {
        var findings: [CardFinding] = []
        for slot in spec.photoSlots {
            let name = "“\(slot.title)”"
            guard let photo = photos.first(where: { $0.slotId == slot.id }) else {
                if slot.required {
                    findings.append(
                        CardFinding(
                            code: .photoMissing,
                            severity: .error,
                            page: slot.page,
                            labelId: slot.id,
                            message: "The photo slot \(name) is empty: add a photo to order the card."
                        )
                    )
                }
                continue
            }
            if let dpi = CardPhotoRules.dpi(photo, in: slot.box), dpi < CardPhotoRules.minimumDPI {
                findings.append(
                    CardFinding(
                        code: .photoLowResolution,
                        severity: .warning,
                        page: slot.page,
                        labelId: slot.id,
                        message:
                            "The photo in \(name) prints at \(Int(dpi.rounded(.down))) dpi, below \(Int(CardPhotoRules.minimumDPI)): "
                            + "it may look blurry. Zoom out, or use a larger photo."
                    )
                )
            }
        }
        return findings
    }
}
