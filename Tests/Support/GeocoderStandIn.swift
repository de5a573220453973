import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A Nominatim-compatible geocoder on loopback for the tests: `GET /search?q=&format=jsonv2` answers from a small
/// gazetteer of made-up addresses in the demo town, and remembers what it was asked (and by whom).
public final class GeocoderStandIn: Sendable {
    public struct Asked: Sendable {
        public var query: String
        public var userAgent: String
    }

    /// Address → (label, latitude, longitude); a query matches every entry containing it, case-insensitively.
    public static let gazetteer: [(String, Double, Double)] = [
        ("Marienplatz 1, 80331 München", 48.1374, 11.5755),
        ("Sendlinger Straße 12, 80331 München", 48.1352, 11.5712),
        ("Tal 20, 80331 München", 48.1362, 11.5800),
    ]

    public let port: Int
    private let server: LoopbackServer
    private let asked = Mutex<[Asked]>([])
    public var requests: [Asked] { asked.withLock { $0 } }
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public static func start() async throws -> GeocoderStandIn {
        let box = Mutex<GeocoderStandIn?>(nil)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            guard let standIn = box.withLock({ $0 }), request.uri.path == "/search" else {
                return Response(status: .notFound)
            }
            let query = request.uri.queryParameters.get("q") ?? ""
            standIn.asked.withLock { $0.append(Asked(query: query, userAgent: request.headers[.userAgent] ?? "")) }
            let hits = Self.gazetteer.filter { $0.0.lowercased().contains(query.lowercased()) }.map {
                #"{"lat":"\#($0.1)","lon":"\#($0.2)","display_name":"\#($0.0)"}"#
            }
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(
                status: .ok,
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: "[" + hits.joined(separator: ",") + "]"))
            )
        }
        let server = try await LoopbackServer.start(name: "geocoder-stand-in", responder: responder)
        let standIn = GeocoderStandIn(server: server)
        box.withLock { $0 = standIn }
        return standIn
    }

    init(server: LoopbackServer) {
        self.server = server
        port = server.port
    }

    public func stop() async { await server.stop() }
}
