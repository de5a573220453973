import Foundation

/// A `LIKE` pattern that finds `text` anywhere, its own `%`, `_` and `\` taken literally; use it with `ESCAPE '\'`
/// (the one escape both engines read the same way).
enum LikePattern {
    static func containing(_ text: String) -> String {
        "%"
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
            + "%"
    }
}
