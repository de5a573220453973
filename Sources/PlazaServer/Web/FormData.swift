import Foundation
import Hummingbird
import NIOCore
import PlazaCore

/// A submitted HTML form (`application/x-www-form-urlencoded`).
struct FormData: Sendable {
    private(set) var values: [String: String] = [:]

    init(_ body: String) {
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            // U+0000 means nothing in any form, and PostgreSQL cannot store it: dropped here, as browsers never type it.
            values[name] = (parts.count > 1 ? Self.decode(parts[1]) ?? "" : "").filter { $0 != "\u{0}" }
        }
    }

    subscript(_ name: String) -> String { values[name] ?? "" }

    /// The value, trimmed, or `nil` when empty.
    func optional(_ name: String) -> String? {
        let value = self[name].trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    /// `name=value&…` with both sides percent-encoded (only ASCII letters, digits and `-._~` stay), for a query string
    /// or a form body: what `init` reads back.
    static func encoded(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127))
        )
        allowed.insert(charactersIn: "-._~")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return pairs.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

extension Request {
    /// Reads a url-encoded form body, at most `limit` bytes.
    func decodeForm(limit: Int) async throws -> FormData {
        FormData(String(buffer: try await body(upTo: limit)))
    }
}
