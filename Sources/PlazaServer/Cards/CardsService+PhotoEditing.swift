import Foundation
import PlazaCore
import PlazaMedia

/// The editor's photo controls: a picture uploaded into a slot (through the media pipeline: checked off the event
/// loops within the picture budget), moved and zoomed a step at a time, or taken out.
extension CardsService {
    /// What a press of the controls did.
    package enum PhotoChange: Sendable {
        case added, moved, atEdge, removed
    }

    /// Uploads the shopper's picture and puts it in `slot`, whole and centred (zoom 1).
    package func uploadPhoto(
        _ identity: Identity,
        _ id: UUID,
        slot: String,
        _ data: Data,
        contentType: String,
        now: Date = Date()
    ) async throws -> CardDesign {
        let (record, _) = try await photoSlot(identity, id, slot)
        let upload = try await media.upload(identity, data, contentType: contentType, now: now)
        guard Self.photoTypes.contains(upload.contentType) else {
            throw PlazaError.validation(field: "photo", phrase("Print takes JPEG or PNG photos: upload one of those."))
        }
        let photos = record.photos.filter { $0.slotId != slot } + [CardPhotoPlacement(slotId: slot, mediaId: upload.id)]
        return try await updateDesign(identity, id, CardDesignRequest(photos: photos), now: now)
    }

    /// One press of the move or zoom controls (`atEdge`: the photo shows the same, already at its edge that way).
    package func adjustPhoto(
        _ identity: Identity,
        _ id: UUID,
        slot: String,
        _ adjustment: CardPhotoAdjustment?,
        now: Date = Date()
    ) async throws -> PhotoChange {
        let (record, spec) = try await photoSlot(identity, id, slot)
        guard let photo = record.photos.first(where: { $0.slotId == slot }),
            let box = spec.photoSlots.first(where: { $0.id == slot })?.box
        else { throw PlazaError.notFound("photo") }
        guard let adjustment else {
            let photos = record.photos.filter { $0.slotId != slot }
            _ = try await updateDesign(identity, id, CardDesignRequest(photos: photos), now: now)
            return .removed
        }
        let changed = CardPhotoRules.adjusted(photo, adjustment)
        guard CardPhotoRules.placement(changed, in: box) != CardPhotoRules.placement(photo, in: box) else {
            return .atEdge
        }
        let photos = record.photos.map { $0.slotId == slot ? changed : $0 }
        _ = try await updateDesign(identity, id, CardDesignRequest(photos: photos), now: now)
        return .moved
    }

    /// The owner's unlocked design and its spec, when its template has `slot` (404 otherwise).
    private func photoSlot(
        _ identity: Identity,
        _ id: UUID,
        _ slot: String
    ) async throws -> (CardsStore.DesignRecord, CardTemplateSpec) {
        let record = try await own(identity, id)
        guard !record.locked else { throw Self.lockedError }
        let spec = try await view(record).spec
        guard spec.photoSlots.contains(where: { $0.id == slot }) else { throw PlazaError.notFound("photo slot") }
        return (record, spec)
    }
}
