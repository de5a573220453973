import Foundation

/// `openapi.yaml` as the reference page reads it: operations in order, `$ref`s resolved, types named, examples made.
struct APISpec {
    struct Operation {
        var path: String
        var method: String
        var tag: String
        var body: [String: Any]
    }

    let info: [String: Any]
    let tagOrder: [String]
    let tagDescriptions: [String: String]
    let operations: [Operation]
    let schemas: [String: [String: Any]]
    let components: [String: Any]
    /// Where the examples send their requests: the demo's address.
    let server = "http://127.0.0.1:8080"

    init(_ spec: [String: Any]) {
        info = spec["info"] as? [String: Any] ?? [:]
        components = spec["components"] as? [String: Any] ?? [:]
        schemas = (components["schemas"] as? [String: Any] ?? [:]).compactMapValues { $0 as? [String: Any] }
        let tags = spec["tags"] as? [[String: Any]] ?? []
        var operations: [Operation] = []
        let paths = spec["paths"] as? [String: Any] ?? [:]
        for path in paths.keys.sorted() {
            guard let item = paths[path] as? [String: Any] else { continue }
            for method in ["get", "post", "put", "patch", "delete"] {
                guard let body = item[method] as? [String: Any] else { continue }
                operations.append(
                    Operation(
                        path: path,
                        method: method,
                        tag: (body["tags"] as? [String])?.first ?? "Other",
                        body: body
                    )
                )
            }
        }
        self.operations = operations
        // The spec's own tag order (Accounts before Operations), then any tag it does not list.
        let declared = tags.compactMap { $0["name"] as? String }
        tagOrder =
            declared
            + operations.map(\.tag).reduce(into: [String]()) {
                if !declared.contains($1) && !$0.contains($1) { $0.append($1) }
            }
        tagDescriptions = Dictionary(
            tags.compactMap { tag in (tag["name"] as? String).map { ($0, tag["description"] as? String ?? "") } },
            uniquingKeysWith: { a, _ in a }
        )
    }

    var schemaNames: [String] { schemas.keys.sorted() }

    static func refName(_ ref: String) -> String { String(ref.split(separator: "/").last ?? "") }

    /// A parameter or response, with a `$ref` to the components followed.
    func resolve(_ object: [String: Any]) -> [String: Any]? {
        guard let ref = object["$ref"] as? String else { return object }
        let parts = ref.split(separator: "/").map(String.init)
        guard parts.count == 4 else { return nil }
        return (components[parts[2]] as? [String: Any])?[parts[3]] as? [String: Any]
    }

    func referencedSchema(_ schema: [String: Any]) -> String? {
        if let ref = schema["$ref"] as? String { return Self.refName(ref) }
        if let items = schema["items"] as? [String: Any] { return referencedSchema(items) }
        return nil
    }

    /// "string (uuid)", "integer", "array of Charge", "Money", "string: one of pending, approved".
    func typeName(_ schema: [String: Any]) -> String {
        if let ref = schema["$ref"] as? String { return Self.refName(ref) }
        if let items = schema["items"] as? [String: Any] { return "array of \(typeName(items))" }
        var type: String
        switch schema["type"] {
        case let name as String: type = name
        case let names as [Any]:
            type = names.map { "\($0)" }.filter { $0 != "null" }.joined(separator: " or ") + " or null"
        default: type = (schema["oneOf"] ?? schema["anyOf"]) != nil ? "one of several shapes" : "any"
        }
        if let format = schema["format"] as? String { type += " (\(format))" }
        if let values = schema["enum"] as? [Any] {
            type += ": one of " + values.map { "\($0)" }.joined(separator: ", ")
        }
        return type
    }

    /// A field's example as the spec gives it (`examples`, `example`), as JSON text.
    func example(_ schema: [String: Any]) -> String? {
        let value = (schema["examples"] as? [Any])?.first ?? schema["example"]
        return value.map(Self.json)
    }

    /// A plausible body for the schema `name`: examples where the spec has them, else a value of each field's type.
    func exampleJSON(for name: String) -> String {
        Self.json(exampleValue(["$ref": "#/components/schemas/\(name)"], depth: 0))
    }

    private func exampleValue(_ schema: [String: Any], depth: Int) -> Any {
        if let value = (schema["examples"] as? [Any])?.first ?? schema["example"] { return value }
        if let ref = schema["$ref"] as? String {
            guard depth < 3, let target = schemas[Self.refName(ref)] else { return [String: Any]() }
            return exampleValue(target, depth: depth + 1)
        }
        if let values = schema["enum"] as? [Any], let first = values.first { return first }
        if let properties = schema["properties"] as? [String: Any] {
            let required = Set(schema["required"] as? [String] ?? [])
            var object: [String: Any] = [:]
            for (key, property) in properties where required.contains(key) || required.isEmpty {
                object[key] = exampleValue(property as? [String: Any] ?? [:], depth: depth + 1)
            }
            return object
        }
        if let items = schema["items"] as? [String: Any] { return [exampleValue(items, depth: depth + 1)] }
        let type = (schema["type"] as? String) ?? ((schema["type"] as? [Any])?.first as? String) ?? "string"
        switch (type, schema["format"] as? String) {
        case ("integer", _): return (schema["minimum"] as? Int) ?? 1
        case ("number", _): return 1.5
        case ("boolean", _): return true
        case (_, "uuid"): return "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        case (_, "date-time"): return "2026-11-24T17:48:00Z"
        case (_, "email"): return "anna@example.com"
        default: return "string"
        }
    }

    static func json(_ value: Any) -> String {
        if let string = value as? String {
            return String(
                data: (try? JSONSerialization.data(withJSONObject: [string], options: [.withoutEscapingSlashes]))
                    ?? Data(),
                encoding: .utf8
            )
            .map { String($0.dropFirst().dropLast()) } ?? "\"\""
        }
        if JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(
                withJSONObject: value,
                options: [.sortedKeys, .withoutEscapingSlashes]
            ),
            let text = String(data: data, encoding: .utf8)
        {
            return text
        }
        return "\(value)"
    }
}
