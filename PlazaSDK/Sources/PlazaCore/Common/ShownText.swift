import Foundation

/// Rules for short text that other people see: names on a merchant's counter, receipts, activity and CSV exports.
public enum ShownText {
    /// Combining marks one character may carry: enough for Vietnamese or Devanagari, not for "Zalgo" text that
    /// spills over the lines around it.
    public static let maximumMarksPerCharacter = 4

    /// The text without surrounding white space; nil when nothing is left (an optional note or message left blank).
    public static func trimmed(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    /// Why `text` (already trimmed) is not fit to show, or nil. `length` counts characters as people see them.
    public static func problem(_ text: String, length: ClosedRange<Int>) -> String? {
        guard length.contains(text.count), text.utf8.count <= length.upperBound * 16 else {
            return "Use \(length.lowerBound) to \(length.upperBound) characters."
        }
        if text.unicodeScalars.contains(where: isInvisibleControl) {
            return "Remove control and direction-changing characters (such as U+202E) and line breaks."
        }
        let marks = text.lazy.map {
            $0.unicodeScalars.count {
                $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .enclosingMark
            }
        }
        if marks.contains(where: { $0 > maximumMarksPerCharacter }) {
            return "Remove the stacked accents: at most \(maximumMarksPerCharacter) on one letter."
        }
        return nil
    }

    /// Control characters, line and paragraph separators, and format characters: bidirectional overrides and
    /// isolates (which make "Bob" read "boB" or reorder an amount), invisible spaces and the like. The zero-width
    /// joiner and non-joiner stay: emoji sequences and Persian or Indic spelling need them.
    static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        case .format: return scalar.value != 0x200C && scalar.value != 0x200D
        default: return false
        }
    }
}
