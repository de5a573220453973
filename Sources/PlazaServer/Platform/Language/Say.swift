import Foundation
import PlazaCore

/// English sentences written in Swift (a page's title, a notice, a status, an option) in the page's language.
///
/// The sentence is its own key: `say("Your account")` looks up `"=Your account"` in the reader's catalogue, and
/// `say("You sent {amount} to {name}.", ["amount": …, "name": …])` puts the values in after the lookup, so a
/// translator moves `{amount}` where their language wants it. Every literal given to `say` or `phrase` has its entry
/// in `en.json` (a test reads the sources), so the pseudo-locale and the other catalogues see each one.
///
/// Call `say` when the page is answered (inside `PageLanguage.words`' scope), never in a `static let`: a table of
/// sentences keeps them as `phrase("…")` and says them when shown, `say(table[code])`.
func say(_ english: String, _ values: [String: String] = [:]) -> String {
    Catalogue.fill(PageLanguage.say(english), values)
}

/// The same English in another sense: "Withdraw" an offer is not "Withdraw" money. Its entry is
/// `=<sentence> [<meaning>]`, English the sentence.
func say(_ english: String, _ values: [String: String] = [:], meaning: String) -> String {
    let key = "\(english) [\(meaning)]"
    let said = PageLanguage.say(key)
    return Catalogue.fill(said == key ? english : said, values)
}

/// The reader's locale for the numbers, money and dates put in a said sentence (`en_US` outside a request).
var sayLocale: Locale { (PageLanguage.words ?? Catalogue.englishWords).locale }

/// Money in a said sentence, written the reader's way: "$4.20", "4,20 €" (a problem's amount, issue 41).
func sayMoney(_ money: Money) -> String { money.formatted(locale: sayLocale) }

/// An amount as the API writes it ("12.34 USD") for English readers, whose problems clients and tests read as
/// before; written the reader's way in any other language ("12,34 $").
func sayAmount(_ money: Money) -> String {
    (PageLanguage.words?.tag ?? Catalogue.english).hasPrefix(Catalogue.english) ? money.description : sayMoney(money)
}

/// The plural text of `key` for `count` in the reader's language and digits ("in 3 Minuten").
func sayCount(_ count: Int, _ key: String, _ values: [String: String] = [:]) -> String {
    (PageLanguage.words ?? Catalogue.englishWords).count(count, key, values)
}

/// A sentence kept in English until it is shown with `say` (a table's entry, a default): marks it for the catalogue.
func phrase(_ english: String) -> String { english }

extension Catalogue.Words {
    /// `say` in these words rather than the page's: a mail or a file written for someone else (issue 41).
    func say(_ english: String, _ values: [String: String]) -> String { Catalogue.fill(say(english), values) }

    /// The plural text of `key` for `count`, in these words' digits (a mail's "50 cards").
    func count(_ count: Int, _ key: String, _ values: [String: String] = [:]) -> String {
        plural(key, count: count, shown: count.formatted(.number.locale(locale)), values)
    }
}
