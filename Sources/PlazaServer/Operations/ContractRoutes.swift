import Yams

/// The paths and methods `openapi.yaml` declares, so that a known path called with another method answers
/// 405 with `Allow` (the router alone only knows "no route": 404).
struct ContractRoutes: Sendable {
    private let routes: [(segments: [String], methods: [String])]

    init(specText: String) {
        let spec = (try? Yams.load(yaml: specText) as? [String: Any]) ?? [:]
        let paths = spec["paths"] as? [String: [String: Any]] ?? [:]
        routes = paths.map { path, item in
            let methods = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter { item[$0.lowercased()] != nil }
            return (path.split(separator: "/").map(String.init), methods)
        }
    }

    /// The methods declared for `path` (`{id}` matches any one segment, and a literal segment wins over it:
    /// `/v1/me/second-factors/totp` is not `/v1/me/second-factors/{id}`), or `nil` for a path the contract lacks.
    func methods(for path: String) -> [String]? {
        let segments = path.split(separator: "/")
        return routes.filter { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
        .max { $0.segments.filter { !$0.hasPrefix("{") }.count < $1.segments.filter { !$0.hasPrefix("{") }.count }?
        .methods
    }
}
