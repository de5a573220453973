import Foundation
import Hummingbird
import Yams

/// `/docs/api`: a readable page of the contract, built from `openapi.yaml` itself so that it cannot drift.
struct APIReference: Sendable {
    let renderer: PageRenderer
    /// The spec's title, version, description and operations, read once: the contract does not change at run time.
    let title: String
    let version: String
    let description: String
    let groups: [Group]

    init(services: PlazaServices) {
        renderer = PageRenderer(templates: services.templates)
        let spec = (try? Yams.load(yaml: Self.specText) as? [String: Any]) ?? [:]
        let info = spec["info"] as? [String: Any] ?? [:]
        title = info["title"] as? String ?? "Plaza API"
        version = info["version"] as? String ?? ""
        description = info["description"] as? String ?? ""
        groups = Self.groups(from: spec)
    }

    /// The contract as shipped in the resources (a test checks it equals the repository's `openapi.yaml`).
    static let specText: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "Resources"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return "" }
        return text
    }()

    struct Page: Sendable {
        var shell: Shell
        var title: String
        var version: String
        var description: String
        var groups: [Group]
    }

    struct Group: Sendable {
        var name: String
        var operations: [Operation]
    }

    struct Operation: Sendable {
        var method: String
        var path: String
        var summary: String
        var description: String
        var access: String
        var request: String?
        var responses: [Reply]
        var anchor: String
    }

    struct Reply: Sendable {
        var status: String
        var description: String
    }

    /// The operations of the spec, grouped by their first tag, in the spec's order.
    static func groups(from spec: [String: Any]) -> [Group] {
        guard let paths = spec["paths"] as? [String: Any] else { return [] }
        var byTag: [String: [Operation]] = [:]
        var order: [String] = []
        for path in paths.keys.sorted() {
            guard let item = paths[path] as? [String: Any] else { continue }
            for method in ["get", "post", "put", "patch", "delete"] {
                guard let op = item[method] as? [String: Any] else { continue }
                let tag = (op["tags"] as? [String])?.first ?? "Other"
                if byTag[tag] == nil { order.append(tag) }
                let body = ((op["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any]
                let ref = (body?["schema"] as? [String: Any])?["$ref"] as? String
                let responses = (op["responses"] as? [String: Any] ?? [:]).keys.sorted().map { status in
                    Reply(
                        status: status, description: ((op["responses"] as? [String: Any])?[status] as? [String: Any])?["description"] as? String ?? ""
                    )
                }
                let secured = (op["security"] as? [Any]).map { !$0.isEmpty } ?? (spec["security"] != nil)
                byTag[tag, default: []].append(
                    Operation(
                        method: method.uppercased(), path: path, summary: op["summary"] as? String ?? "",
                        description: op["description"] as? String ?? "", access: secured ? "Signed in" : "Anyone",
                        request: ref.map { String($0.split(separator: "/").last ?? "") }, responses: responses,
                        anchor: (op["operationId"] as? String) ?? "\(method)-\(path)"))
            }
        }
        // The spec's own tag order (Accounts before Operations), then any tag it does not list.
        let declared = (spec["tags"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let ordered = declared.filter { byTag[$0] != nil } + order.filter { !declared.contains($0) }
        return ordered.map { Group(name: $0, operations: byTag[$0] ?? []) }
    }

    /// Anyone: the API reference.
    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = Page(
            shell: Shell(title: "API reference", context: context), title: title, version: version, description: description, groups: groups)
        return renderer.render("docs/api", page)
    }
}
