import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// `POST /v1/media` (raw bytes of a JPEG, PNG or WebP picture) and the pictures themselves at `/media/{id}` and
/// `/media/{id}/thumbnail`: served with their digest as the ETag and a year's private cache, to the uploader by a
/// session cookie or a bearer token until something uses them, then to anyone holding the address.
struct MediaAPI: Sendable {
    let media: MediaService
    let accounts: AccountService

    func addRoutes(authenticated: RouterGroup<AuthenticatedContext>, router: Router<AppRequestContext>) {
        authenticated.post("media", use: upload)
        router.get("media/:id", use: picture)
        router.get("media/:id/thumbnail", use: thumbnail)
    }

    @Sendable func upload(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.body(upTo: MediaService.maximumBytes)
        let type = request.headers[.contentType] ?? ""
        let upload = try await media.upload(context.identity, Data(body.readableBytesView), contentType: type)
        return try .json(upload, status: .created)
    }

    @Sendable func picture(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await serve(request, context: context, thumbnail: false)
    }

    @Sendable func thumbnail(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await serve(request, context: context, thumbnail: true)
    }

    private func serve(_ request: Request, context: AppRequestContext, thumbnail: Bool) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "picture")
        var viewer = context.identity
        if viewer == nil, let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            viewer = try await accounts.identity(bearer: String(header.dropFirst(7)))
        }
        let (record, bytes) = try await media.picture(id, viewer: viewer?.user.id, thumbnail: thumbnail)
        let etag = "\"\(record.digest.prefix(32))\(thumbnail ? "-t" : "")\""
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = "private, max-age=31536000, immutable"
        if let asked = request.headers[.ifNoneMatch],
            asked.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag })
        {
            return Response(status: .notModified, headers: headers)
        }
        // A PNG's thumbnail is a JPEG (MediaService.upload).
        headers[.contentType] = thumbnail && bytes.starts(with: [0xFF, 0xD8]) ? "image/jpeg" : record.contentType
        headers[.contentLength] = String(bytes.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
