import Foundation

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
