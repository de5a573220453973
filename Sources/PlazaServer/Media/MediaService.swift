import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import PlazaMedia
import SQLKit

/// Uploaded pictures: checked by content, stripped of EXIF and location tags before anyone else can fetch them, kept in
/// the database (every process serves them), and readable by their uploader alone until something uses them.
package struct MediaService: Sendable {
    let database: PlazaDatabase
    let store = MediaStore()
    /// The largest upload (10 MB).
    static let maximumBytes = 10 * 1_024 * 1_024
    /// The longer side of a feed's tile, in pixels.
    static let thumbnailSide = 480

    /// How large a picture may be; where it is read.
    var pictures = PictureBudget()
    var decoding = DecodePool.shared

    package func upload(
        _ identity: Identity,
        _ data: Data,
        contentType: String,
        now: Date = Date()
    ) async throws -> MediaUpload {
        let pictures = pictures
        let (image, thumbnail) = try await decoding.run {
            try Self.checked(data, contentType: contentType, pictures: pictures)
        }
        let record = MediaStore.Record(
            id: UUID(),
            ownerId: identity.user.id,
            contentType: image.format.rawValue,
            width: image.width,
            height: image.height,
            digest: SHA256.hash(data: image.bytes).map { String(format: "%02x", $0) }.joined(),
            usedBy: nil,
            createdAt: now
        )
        try await store.insert(record, bytes: image.bytes, thumbnail: thumbnail, on: database.sql)
        return Self.dto(record)
    }

    /// The picture stripped of its metadata, and its feed tile: its size judged from its header first, then (PNG) its
    /// pixels read in full, so nothing damaged or too large is stored. Runs on the decode pool.
    static func checked(
        _ data: Data,
        contentType: String,
        pictures: PictureBudget
    ) throws -> (image: SanitizedImage, thumbnail: Data?) {
        let image: SanitizedImage
        switch ImageSanitizer.sanitize(data, declared: contentType) {
        case .success(let sanitized): image = sanitized
        case .failure(.unsupported(let name)): throw Self.unsupported(name)
        case .failure(.invalid(let message)):
            throw PlazaError(.unprocessableContent, .invalidImage, message, detail: Self.accepted)
        }
        try pictures.check(width: image.width, height: image.height)
        // A feed's tile for a large JPEG (a phone's photo: about a quarter of a second); others serve themselves.
        switch image.format {
        case .jpeg: return (image, JPEGThumbnailer.thumbnail(image.bytes, maxSide: Self.thumbnailSide))
        // A PNG's feed tile is a JPEG: a photo saved as PNG is many times larger, and tiles need no transparency.
        case .png:
            return (image, PNGThumbnailer.thumbnail(try pictures.checkedPNG(image.bytes), maxSide: Self.thumbnailSide))
        case .webp: return (image, nil)
        }
    }

    static let accepted = phrase("Upload a JPEG, PNG or WebP picture of at most 10 MB.")

    static func unsupported(_ name: String) -> PlazaError {
        // Said where thrown (the decode pool carries the reader's language): the detail is two sentences.
        let hint =
            name.uppercased().hasPrefix("HEI")
            ? " " + say("On an iPhone, share the photo as JPEG (Settings → Camera → Formats → Most Compatible).") : ""
        return PlazaError(
            .unsupportedMediaType,
            .unsupportedMediaType,
            say("{format} pictures are not accepted.", ["format": name]),
            detail: say(accepted) + hint
        )
    }

    static func dto(_ record: MediaStore.Record) -> MediaUpload {
        let path = "/media/\(record.id.uuidString.lowercased())"
        return MediaUpload(
            id: record.id,
            contentType: record.contentType,
            width: record.width,
            height: record.height,
            url: path,
            thumbnailUrl: "\(path)/thumbnail"
        )
    }

    /// A picture's bytes for `viewer`: anyone once something uses it, its uploader alone before (404 to others).
    func picture(_ id: UUID, viewer: UUID?, thumbnail: Bool) async throws -> (record: MediaStore.Record, bytes: Data) {
        guard let record = try await store.record(id, on: database.sql),
            record.usedBy != nil || record.ownerId == viewer,
            let bytes = try await store.bytes(id, thumbnail: thumbnail, on: database.sql)
        else { throw PlazaError.notFound("picture") }
        return (record, bytes)
    }
}

extension MediaService {
    /// Puts the owner's pictures `ids` on `subject` (`listing:<id>`), in the caller's transaction: from then on anyone
    /// with the address may fetch them. 422 naming `field` when one is not the owner's or shows something else.
    func attach(_ ids: [UUID], owner: UUID, to subject: String, field: String, on db: any SQLDatabase) async throws {
        let attached = try await store.use(ids, owner: owner, by: subject, on: db)
        if let missing = ids.first(where: { !attached.contains($0) }) {
            throw PlazaError.validation(
                field: field,
                say("No picture of yours has the id {id}; upload it first.", ["id": missing.uuidString.lowercased()])
            )
        }
    }

    /// Pictures `subject` no longer shows go back to their uploader alone.
    func detach(_ ids: [UUID], from subject: String, on db: any SQLDatabase) async throws {
        try await store.release(ids, from: subject, on: db)
    }

    static func photo(_ id: UUID) -> ListingPhoto {
        let path = "/media/\(id.uuidString.lowercased())"
        return ListingPhoto(id: id, url: path, thumbnailUrl: "\(path)/thumbnail")
    }
}

extension MediaService {
    /// The picture `id` when `owner` uploaded it (nil otherwise, or when it is gone): a card design's photos are the
    /// shopper's own uploads, read by the card shop for its previews and print files without making them public.
    func owned(_ id: UUID, by owner: UUID) async throws -> MediaStore.Record? {
        guard let record = try await store.record(id, on: database.sql), record.ownerId == owner else { return nil }
        return record
    }

    /// The picture's full bytes, whoever uploaded it (the caller checked who may see them).
    func original(_ id: UUID) async throws -> (record: MediaStore.Record, bytes: Data)? {
        guard let record = try await store.record(id, on: database.sql),
            let bytes = try await store.bytes(id, thumbnail: false, on: database.sql)
        else { return nil }
        return (record, bytes)
    }
}
