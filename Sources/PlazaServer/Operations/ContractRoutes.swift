/// The paths and methods `openapi.yaml` declares, so that a known path called with another method answers
/// 405 with `Allow` (the router alone only knows "no route": 404).
///
/// Read by a line scanner, not a YAML parser: parsing the 9,000-line contract with Yams at every start was a quarter
/// to a third of a first start's CPU (issue 42), and this needs only the keys of the `paths:` section, whose shape the
/// contract keeps (a test checks the scanner reads what Yams reads).
struct ContractRoutes: Sendable {
    /// The methods a 405 may name, in the order `Allow` lists them.
    static let methodOrder = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    private let routes: [(segments: [String], methods: [String])]

    init(specText: String) {
        routes = Self.scan(specText).map { path, methods in
            (path.split(separator: "/").map(String.init), methods)
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

    /// Every path of the top-level `paths:` section with its methods (of `methodOrder`, in that order), in the
    /// contract's order. Paths are the keys indented by two spaces, their operations the keys indented by four; deeper
    /// lines, other keys (`parameters`), comments and blank lines are passed over.
    static func scan(_ text: String) -> [(path: String, methods: [String])] {
        var found: [(path: String, methods: [String])] = []
        var inPaths = false
        for line in text.split(whereSeparator: \.isNewline) {
            guard let first = line.first else { continue }
            if first != " " {
                // A top-level key (or a comment, or `---`): the paths section is the one named so.
                if first != "#" { inPaths = line.hasPrefix("paths:") }
                continue
            }
            guard inPaths else { continue }
            let body = line.drop(while: { $0 == " " })
            let indent = line.utf8.count - body.utf8.count
            guard indent == 2 || indent == 4, let key = mappingKey(of: body) else { continue }
            if indent == 2 {
                found.append((key, []))
            } else if !found.isEmpty, methodOrder.contains(key.uppercased()) {
                found[found.count - 1].methods.append(key.uppercased())
            }
        }
        return found.map { path, methods in
            (path, methodOrder.filter { methods.contains($0) })
        }
    }

    /// The key of a mapping line that opens a nested block (`/v1/me:`, `get:`), unquoted; `nil` for anything else.
    private static func mappingKey(of body: Substring) -> String? {
        var text = body
        while text.last == " " { text = text.dropLast() }
        guard text.last == ":", !text.hasPrefix("#"), !text.hasPrefix("-") else { return nil }
        text = text.dropLast()
        if text.count >= 2, let quote = text.first, quote == "'" || quote == "\"", text.last == quote {
            text = text.dropFirst().dropLast()
        }
        return text.isEmpty ? nil : String(text)
    }
}
