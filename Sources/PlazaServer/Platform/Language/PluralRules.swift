/// CLDR's cardinal plural categories for whole numbers, for the languages Plaza ships and a sensible rest
/// (https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html).
enum PluralRules {
    static func category(of count: Int, language tag: String) -> String {
        let n = count.magnitude
        switch tag.split(separator: "-")[0].lowercased() {
        case "ar":
            let hundreds = n % 100
            if n == 0 { return "zero" }
            if n == 1 { return "one" }
            if n == 2 { return "two" }
            if (3...10).contains(hundreds) { return "few" }
            if (11...99).contains(hundreds) { return "many" }
            return "other"
        case "es", "fr", "it", "pt":
            // One (French and Portuguese count zero as one); "many" for exact millions, as CLDR 42 has it.
            if n == 1 || (n == 0 && ["fr", "pt"].contains(tag.prefix(2).lowercased())) { return "one" }
            return n != 0 && n % 1_000_000 == 0 ? "many" : "other"
        case "ja", "ko", "zh", "th", "vi", "id":
            return "other"
        default:
            return n == 1 ? "one" : "other"
        }
    }
}
