import Foundation

/// `POST /v1/media`: an uploaded picture, stripped of EXIF and location tags, and where to fetch it.
public struct MediaUpload: Codable, Sendable, Hashable {
    public var id: UUID
    public var contentType: String
    public var width: Int
    public var height: Int
    /// Path on this Plaza (`/media/{id}`); only the uploader may fetch it until something uses it.
    public var url: String
    /// The feed's size (`/media/{id}/thumbnail`).
    public var thumbnailUrl: String

    public init(id: UUID, contentType: String, width: Int, height: Int, url: String, thumbnailUrl: String) {
        self.id = id
        self.contentType = contentType
        self.width = width
        self.height = height
        self.url = url
        self.thumbnailUrl = thumbnailUrl
    }
}
