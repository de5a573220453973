import Foundation
import Hummingbird
import PlazaCore

/// Text with U+0000 in it: PostgreSQL cannot store it in a text column (the statement fails, and the request with
/// it), and no field of Plaza means it. Found before decoding, so every route refuses it alike, naming the fields.
enum NulText {
    /// The dotted paths of strings (or keys) holding U+0000, or nil when the body has no `\u0000` escape at all (the
    /// usual case, found by one scan of the bytes) or is not JSON.
    static func fields(in data: Data) -> [String]? {
        guard data.range(of: Data(#"\u0000"#.utf8)) != nil else { return nil }
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        var found: [String] = []
        func walk(_ value: Any, _ path: [String]) {
            switch value {
            case let object as [String: Any]:
                for (key, child) in object {
                    if key.contains("\u{0}") { found.append((path + [key]).joined(separator: ".")) }
                    walk(child, path + [key])
                }
            case let array as [Any]:
                for (index, child) in array.enumerated() { walk(child, path + [String(index)]) }
            case let text as String where text.contains("\u{0}"):
                found.append(path.isEmpty ? "body" : path.joined(separator: "."))
            default:
                break
            }
        }
        walk(root, [])
        return found.sorted()
    }
}

/// Refuses a query string with U+0000 in a name or value (`?q=a%00b`), naming the parameters, before any route reads
/// it: the same rule as for bodies, for every route and page alike.
struct NulQueryMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let query = request.uri.query, query.contains("%00") || query.contains("\u{0}") else {
            return try await next(request, context)
        }
        let fields = Set(
            request.uri.queryParameters.compactMap { name, value in
                name.contains("\u{0}") || value.contains("\u{0}") ? String(name) : nil
            }
        )
        guard !fields.isEmpty else { return try await next(request, context) }
        throw PlazaError.validation(
            fields.sorted().map { FieldError(field: $0, message: phrase("Remove the NUL character (U+0000).")) }
        )
    }
}
