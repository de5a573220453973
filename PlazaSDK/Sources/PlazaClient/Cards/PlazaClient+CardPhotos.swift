import Foundation
import PlazaCore

/// Photo cards: a photo of the shopper's own (`uploadPicture`, JPEG or PNG) in a template's photo slot.
extension PlazaClient {
    /// Puts `photo` in its slot, keeping the design's other photos (`photo_low_resolution` among the findings when it
    /// prints under 250 dpi). Someone else's upload is `validation_failed` naming `photos[i].mediaId`.
    public func placeCardPhoto(_ design: CardDesign, _ photo: CardPhotoPlacement) async throws -> CardDesign {
        let photos = design.photos.filter { $0.slotId != photo.slotId } + [photo]
        return try await updateCardDesign(design.id, CardDesignRequest(photos: photos))
    }

    /// Takes the photo out of `slotId`.
    public func removeCardPhoto(_ design: CardDesign, slotId: String) async throws -> CardDesign {
        try await updateCardDesign(design.id, CardDesignRequest(photos: design.photos.filter { $0.slotId != slotId }))
    }
}
