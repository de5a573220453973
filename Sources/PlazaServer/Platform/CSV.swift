import Foundation

/// CSV exports (the wallet's history, the audit log): RFC 4180 quoting, CRLF lines, and no cell a spreadsheet would run.
enum CSV {
    /// `header`, then each row, each cell quoted where it must be. Cells of free text go through `guarded` first
    /// (amounts must not: "-5.00" is a number).
    static func text(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    /// A spreadsheet must not run text as a formula (`=HYPERLINK(...)` in a note). Spreadsheets in other locales split
    /// cells at `;` or tabs, and some take full-width signs (`＝`) for formulas, so every place a cell could start, after
    /// blanks, gets a `'` before a character that would start a formula there.
    static func guarded(_ text: String) -> String {
        var guarded = ""
        guarded.reserveCapacity(text.count + 1)
        var cellStart = true
        for character in text {
            if cellStart, !character.isWhitespace || character == "\t" || character == "\r" {
                if "=+-@\t\r＝＋－＠".contains(character) { guarded.append("'") }
                cellStart = false
            }
            guarded.append(character)
            if ",;|\t\n\r".contains(character) { cellStart = true }
        }
        return guarded
    }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

}
