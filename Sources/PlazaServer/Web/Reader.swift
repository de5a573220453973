import Foundation
import Hummingbird
import PlazaCore

/// How one reader wants money, counts and times written: the conventions of their language (`Accept-Language`) and
/// their time zone (their account's setting, else their browser's, which the page script keeps in the `plaza_tz`
/// cookie, else UTC). Every page writes money, dates and counts through one of these.
struct Reader: Sendable {
    var locale: Locale
    var timeZone: TimeZone
    /// The words of the reader's language (see `Catalogue`).
    var words: Catalogue.Words

    static let standard = Reader(locale: Locale(identifier: "en_US"), timeZone: .gmt)
    static let timeZoneCookie = "plaza_tz"

    init(locale: Locale, timeZone: TimeZone, words: Catalogue.Words = Catalogue.englishWords) {
        self.locale = locale
        self.timeZone = timeZone
        self.words = words
    }

    /// The reader of a page request: `chosenTimeZone` and `chosenLanguage` are the signed-in user's settings.
    init(request: Request, chosenTimeZone: String?, chosenLanguage: String? = nil, catalogue: Catalogue) {
        let acceptLanguage = request.headers[.acceptLanguage]
        let chosen = chosenLanguage ?? request.cookies[WebCookies.language]?.value
        words = catalogue.words(catalogue.choose(account: chosen, acceptLanguage: acceptLanguage))
        locale = Self.locale(language: words.tag, acceptLanguage: acceptLanguage)
        let browser = request.cookies[Self.timeZoneCookie]?.value.removingPercentEncoding
        timeZone = [chosenTimeZone, browser].lazy.compactMap { $0.flatMap(TimeZone.init(identifier:)) }.first ?? .gmt
    }

    /// The conventions for numbers and dates of a page in `language`: the browser's own when it asks for that
    /// language (`de-AT` keeps Austria's), else the language's usual region (`de` → Germany).
    static func locale(language: String, acceptLanguage: String?) -> Locale {
        let browser = locale(acceptLanguage: acceptLanguage)
        let primary = language.split(separator: "-")[0]
        if language == Catalogue.pseudo || browser.language.languageCode?.identifier == String(primary) {
            return language == Catalogue.pseudo && browser.language.languageCode?.identifier != "en"
                ? Locale(identifier: "en_US") : browser
        }
        return Locale(identifier: Locale.Language(identifier: String(primary)).maximalIdentifier)
    }

    /// The ISO 639 languages Foundation knows, read once (every page request asks).
    static let languages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))

    /// The first language of `Accept-Language` that names a region or a language Foundation knows; US English else.
    static func locale(acceptLanguage: String?) -> Locale {
        let tags = (acceptLanguage ?? "").split(separator: ",").map {
            $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
        }
        for tag in tags where !tag.isEmpty && tag != "*" && tag.count <= 35 {
            let identifier = tag.replacingOccurrences(of: "-", with: "_")
            guard let language = Locale(identifier: identifier).language.languageCode?.identifier,
                Self.languages.contains(language)
            else { continue }
            // A bare language ("de") takes its usual region, so that numbers group the way its readers expect.
            return Locale(
                identifier: identifier.contains("_")
                    ? identifier : Locale.Language(identifier: identifier).maximalIdentifier
            )
        }
        return Locale(identifier: "en_US")
    }

    // MARK: Money and counts

    func money(_ amount: Int64, _ currency: String, signed: Bool = false) -> String {
        Money(amount: amount, currency: currency).formatted(locale: locale, signed: signed)
    }

    func money(_ money: Money) -> String { money.formatted(locale: locale) }

    /// "1 report", "7 weeks", "1,204 people": the count in the reader's digits and the right word for it.
    /// (English words typed in Swift: being replaced by `count(_:_:)` with a catalogue key.)
    func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number.formatted(.number.locale(locale))) \(number == 1 ? one : many)"
    }

    /// The plural text of `key` for `number`, the number in the reader's digits: "1 Stempel", "7 semanas".
    func count(_ number: Int, _ key: String, _ values: [String: String] = [:]) -> String {
        words.plural(key, count: number, shown: number.formatted(.number.locale(locale)), values)
    }

    /// "80 m", "1.2 km": how far a place is, to the nearest 10 m.
    func distance(_ meters: Double) -> String {
        meters < 1_000
            ? "\(Int((meters / 10).rounded() * 10)) m"
            : "\((meters / 1_000).formatted(.number.precision(.fractionLength(1)).locale(locale))) km"
    }

    // MARK: Dates and times (no seconds: people do not need them)

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = locale
        return calendar
    }

    private func style() -> Date.FormatStyle { Date.FormatStyle(locale: locale, timeZone: timeZone) }

    /// "5:48 PM".
    func time(_ date: Date) -> String { date.formatted(style().hour().minute()) }

    /// "Today", "Yesterday", "24 Nov" this year, "24 Nov 2025" before.
    func day(_ date: Date, now: Date = Date()) -> String {
        let calendar = calendar
        if calendar.isDate(date, inSameDayAs: now) { return words("when.today") }
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: now),
            calendar.isDate(date, inSameDayAs: yesterday)
        {
            return words("when.yesterday")
        }
        if calendar.component(.year, from: date) == calendar.component(.year, from: now) {
            return date.formatted(style().day().month(.abbreviated))
        }
        return date.formatted(style().day().month(.abbreviated).year())
    }

    /// "Today 5:48 PM", "Yesterday 9:02 AM", "24 Nov, 5:48 PM", "24 Nov 2025, 5:48 PM": a moment in a list.
    func when(_ date: Date, now: Date = Date()) -> String {
        let day = day(date, now: now)
        let near = day == words("when.today") || day == words("when.yesterday")
        return words(near ? "when.near_day_time" : "when.day_time", ["day": day, "time": time(date)])
    }

    /// "March 2025": since when someone has been here.
    func monthYear(_ date: Date) -> String { date.formatted(style().month(.wide).year()) }

    /// "today at 2:30 PM", "tomorrow at 9:00 AM", "on 3 December at 2:30 PM" ("on 3 December 2027 …" another year):
    /// a coming moment inside a sentence ("The handshake opens today at 2:30 PM.").
    func upcoming(_ date: Date, now: Date = Date()) -> String {
        let calendar = calendar
        let at = ["time": time(date)]
        if calendar.isDate(date, inSameDayAs: now) { return words("when.upcoming.today", at) }
        if let tomorrow = calendar.date(byAdding: .day, value: 1, to: now),
            calendar.isDate(date, inSameDayAs: tomorrow)
        {
            return words("when.upcoming.tomorrow", at)
        }
        let day =
            calendar.component(.year, from: date) == calendar.component(.year, from: now)
            ? date.formatted(style().day().month(.wide)) : date.formatted(style().day().month(.wide).year())
        return words("when.upcoming.on", ["day": day, "time": time(date)])
    }

    /// The next whole hour at least an hour from `now` in the reader's time zone (14:20 → 16:00, 14:00 → 15:00): a
    /// time to suggest for meeting.
    func nextWholeHour(after now: Date = Date()) -> Date {
        let calendar = calendar
        let earliest = now.addingTimeInterval(3_600)
        let hour = calendar.dateInterval(of: .hour, for: earliest)?.start ?? earliest
        return hour < earliest ? calendar.date(byAdding: .hour, value: 1, to: hour) ?? earliest : hour
    }

    /// "24 Nov 2026, 5:50 PM": a moment on a receipt or a detail page.
    func full(_ date: Date) -> String {
        words("when.day_time", ["day": date.formatted(style().day().month(.abbreviated).year()), "time": time(date)])
    }

    /// A `<time datetime>` value: the moment itself, for machines and the page script.
    func machine(_ date: Date) -> String { RFC3339.format(date) }

    /// "1.50" for 150 cents: an amount as it is typed into a form.
    static func typed(_ money: Money?) -> String {
        guard let money else { return "" }
        let digits = Money.minorUnitDigits(money.currency)
        guard digits > 0 else { return String(money.amount) }
        let scale = Int64(pow(10, Double(digits)))
        let fraction = String(money.amount % scale)
        return "\(money.amount / scale).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }

    /// A `datetime-local` value (`2026-11-26T09:30`, seconds optional) in the reader's time zone.
    func moment(fromInput text: String) -> Date? {
        let formatter = momentFormatter()
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// The `datetime-local` value of `date` in the reader's time zone.
    func input(_ date: Date) -> String {
        let formatter = momentFormatter()
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: date)
    }

    private func momentFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        return formatter
    }
}
