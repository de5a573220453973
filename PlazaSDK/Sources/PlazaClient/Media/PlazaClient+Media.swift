import Foundation
import PlazaCore

extension PlazaClient {
    /// Uploads a picture (JPEG, PNG or WebP, at most 10 MB): Plaza removes its EXIF and location tags before anyone
    /// else can fetch it. A HEIC photo is refused (`unsupported_media_type`): convert it to JPEG first.
    public func uploadPicture(_ data: Data, contentType: String) async throws -> MediaUpload {
        try await upload("v1/media", data, contentType: contentType)
    }

    /// A picture's bytes (`upload.url` or `upload.thumbnailUrl`), as the server stored them.
    public func picture(_ path: String) async throws -> Data {
        try await sendData("GET", path.hasPrefix("/") ? String(path.dropFirst()) : path, auth: .required)
    }
}
