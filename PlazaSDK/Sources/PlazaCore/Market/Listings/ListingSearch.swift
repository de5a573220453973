import Foundation

/// How the feed's words find listings, the same on both engines (issue 39: "beanbags" and "bean bag" missed
/// "beanbag"). A listing is indexed by its words, their stems and every two adjacent words joined; a query asks, for
/// each of its words, that the word, its stem or its join with a neighbour starts one of those terms. The engines only
/// match prefixes of terms, so every rule of language lives here, at index and at query time alike.
public enum ListingSearch {
    /// The terms a listing is indexed by: each word of `text` (folded), its stem, and each adjacent pair joined
    /// ("bean bag" adds "beanbag"), with the join's stem; each term once, at most `limit` words read.
    public static func terms(_ text: String, limit: Int = 400) -> [String] {
        let words = MarketRules.searchWords(text, limit: limit)
        var seen: Set<String> = []
        var terms: [String] = []
        func add(_ word: String) {
            for term in [word, stem(word)] where seen.insert(term).inserted { terms.append(term) }
        }
        for (index, word) in words.enumerated() {
            add(word)
            if index + 1 < words.count { add(word + words[index + 1]) }
        }
        return terms
    }

    /// A query's clauses, one per word (at most 8): the prefixes any of which satisfies it (the word, its stem, and
    /// its joins with the words before and after it). A listing matches when every clause does. An option that
    /// another one starts is left out ("beanbag" where "bean" is): every term it starts, the shorter one starts too,
    /// and each option costs the engines an index lookup.
    public static func clauses(_ query: String) -> [[String]] {
        let words = MarketRules.searchWords(query)
        return words.indices.map { index in
            var options: [String] = []
            func add(_ word: String) {
                for term in [word, stem(word)] where !options.contains(term) { options.append(term) }
            }
            add(words[index])
            if index > 0 { add(words[index - 1] + words[index]) }
            if index + 1 < words.count { add(words[index] + words[index + 1]) }
            return options.filter { option in !options.contains { $0 != option && option.hasPrefix($0) } }
        }
    }

    /// Whether indexed `terms` satisfy every clause (some option of each starts some term): what the engines answer.
    public static func matches(_ clauses: [[String]], terms: [String]) -> Bool {
        clauses.allSatisfy { options in options.contains { option in terms.contains { $0.hasPrefix(option) } } }
    }

    /// A plain English stem of a folded word: plurals (s, es, ies) and -ing or -ed come off, a doubled last consonant
    /// is undoubled ("running" → "run"); words with digits, and stems shorter than three letters (four before -ing or
    /// -ed: "speed", "string"), stay as they are.
    public static func stem(_ word: String) -> String {
        guard word.count > 3, word.allSatisfy({ $0.isLetter }) else { return word }
        func cut(_ suffix: String, adding ending: String = "", keeping least: Int = 3) -> String? {
            guard word.hasSuffix(suffix), word.count - suffix.count >= least else { return nil }
            return String(word.dropLast(suffix.count)) + ending
        }
        if let base = cut("ies", adding: "y") { return base }
        if word.hasSuffix("sses") { return String(word.dropLast(2)) }
        for suffix in ["ches", "shes", "xes", "zes"] where word.hasSuffix(suffix) {
            if let base = cut("es") { return base }
        }
        if word.hasSuffix("ss") || word.hasSuffix("us") || word.hasSuffix("is") { return word }
        if let base = cut("s") { return base }
        for suffix in ["ing", "ed"] {
            if let base = cut(suffix, keeping: 4) { return undoubled(base) }
        }
        return word
    }

    /// "runn" → "run", "stopp" → "stop"; "sell", "pass" and "buzz" keep theirs.
    private static func undoubled(_ base: String) -> String {
        let letters = Array(base)
        guard letters.count >= 4, let last = letters.last, letters[letters.count - 2] == last,
            !"aeiouylsz".contains(last)
        else { return base }
        return String(letters.dropLast())
    }
}
