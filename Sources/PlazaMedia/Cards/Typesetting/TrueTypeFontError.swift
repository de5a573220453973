import PlazaCore

/// Why bytes could not be read as a TrueType font: every malformed input ends here, never in a crash.
public enum TrueTypeFontError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is not a TrueType (`glyf`) font; `signature` is what it starts with (e.g. "OTTO" for CFF OpenType).
    case notTrueType(signature: String)
    /// A table every TrueType font needs is absent.
    case missingTable(String)
    /// A read ran past the end of a table (or of the file, for the table directory).
    case truncated(table: String)
    /// A value makes no sense (e.g. unitsPerEm 0, loca offsets going backwards).
    case malformed(table: String, reason: String)
    /// No Unicode `cmap` subtable in format 4 or 12.
    case noUnicodeCharacterMap

    public var description: String {
        switch self {
        case .notTrueType(let signature):
            return signature == "OTTO"
                ? "not a TrueType font: \"OTTO\" is CFF-flavoured OpenType; only glyf-outline TrueType fonts are supported"
                : "not a TrueType font (signature \(signature))"
        case .missingTable(let tag): return "TrueType font has no '\(tag)' table"
        case .truncated(let table): return "TrueType font is truncated in '\(table)'"
        case .malformed(let table, let reason): return "TrueType font is malformed in '\(table)': \(reason)"
        case .noUnicodeCharacterMap: return "TrueType font has no Unicode cmap subtable in format 4 or 12"
        }
    }
}
