import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The files under `Resources/Public`, read once and served from memory with an ETag.
/// Plaza serves every byte a page needs: no CDN, no remote fonts.
struct StaticAssets: Sendable {
    struct Asset: Sendable {
        var body: ByteBuffer
        var contentType: String
        var etag: String
    }

    let assets: [String: Asset]

    init() throws {
        guard let root = Bundle.module.url(forResource: "Public", withExtension: nil, subdirectory: "Resources") else {
            throw Templates.MissingTemplate(name: "Public/")
        }
        var assets: [String: Asset] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let data = try Data(contentsOf: url)
            let path = String(url.path.dropFirst(root.path.count))
            assets[path] = Asset(
                body: ByteBuffer(bytes: data),
                contentType: Self.contentType(url.pathExtension),
                etag: "\"\(SHA256.hash(data: data).prefix(8).hexString)\""
            )
        }
        // The service worker's cache is named after every other file, so that a changed file reaches its browsers.
        let version = SHA256.hash(
            data: Data(assets.keys.sorted().map { "\($0) \(assets[$0]?.etag ?? "")\n" }.joined().utf8)
        ).prefix(8).hexString
        if let worker = assets["/sw.js"] {
            let text = String(buffer: worker.body).replacingOccurrences(of: "ASSETS_VERSION", with: version)
            assets["/sw.js"] = Asset(
                body: ByteBuffer(string: text),
                contentType: worker.contentType,
                etag: "\"\(SHA256.hash(data: Data(text.utf8)).prefix(8).hexString)\""
            )
        }
        self.assets = assets
    }

    static func contentType(_ ext: String) -> String {
        switch ext {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "webmanifest": "application/manifest+json"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "ico": "image/x-icon"
        case "yaml": "application/yaml"
        case "geojson": "application/geo+json"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// Serves `/static/...` and the two files that must sit at the root: the manifest and the service worker
    /// (a worker's scope is its own folder).
    func addRoutes(to router: Router<AppRequestContext>) {
        for (path, asset) in assets {
            let route = path.hasPrefix("/static/") ? path : "/static\(path)"
            let servedAt = ["/sw.js", "/manifest.webmanifest"].contains(path) ? path : route
            router.get(RouterPath(servedAt)) { request, _ in
                var headers = HTTPFields()
                headers[.contentType] = asset.contentType
                headers[.eTag] = asset.etag
                headers[.cacheControl] = servedAt == "/sw.js" ? "no-cache" : "public, max-age=3600"
                if request.headers[.ifNoneMatch] == asset.etag {
                    return Response(status: .notModified, headers: headers)
                }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
            }
        }
    }
}
