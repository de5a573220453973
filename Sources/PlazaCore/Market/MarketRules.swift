import Foundation

/// The campus marketplace's rules that need no storage: who belongs to a campus, for how long, and what a campus,
/// a safe spot and the agreement must be.
public enum MarketRules {
    /// Days a verification lasts past the campus's next term end, so nobody is locked out the morning after exams.
    public static let graceDays = 14
    /// When a campus lists no term end still to come, a verification lasts this many days.
    public static let defaultVerificationDays = 180

    /// The user agreement in force; raising the version asks everyone to sign again.
    public static let agreementVersion = 1
    public static let agreementText = """
        1. Only verified students of your campus see what you post, and you see only theirs. Be the person your listings say you are.
        2. Sell only what is yours to sell and lawful on campus: no weapons, drugs, alcohol, counterfeit goods, stolen property or \
        exam papers.
        3. Describe items honestly, with your own photos, and keep the price you agreed.
        4. Talk and pay through Plaza. Nobody from Plaza will ask you for a gift card, a code or a payment elsewhere.
        5. Meet at a safe spot, in daylight when you can, and finish with the handshake code so both of you are covered.
        6. Be kind. Harassment, spam and scams are removed, and their authors warned or suspended with the reasons stated; you may \
        appeal once.
        7. Report what looks wrong and block whom you want: one tap from a listing, a profile or a conversation.
        """

    /// `uni.edu` or `*.uni.edu`, lower-cased; nil when it is neither.
    public static func domain(_ raw: String) -> String? {
        let text = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let base = text.hasPrefix("*.") ? String(text.dropFirst(2)) : text
        let labels = base.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            labels.count >= 2
            && labels.allSatisfy { label in
                (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                    && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            }
        return valid ? text : nil
    }

    /// Whether `email` is an address of one of `domains` (`*.uni.edu` takes `cs.uni.edu` and `uni.edu` itself).
    public static func belongs(_ email: String, to domains: [String]) -> Bool {
        guard let host = email.split(separator: "@").last.map({ $0.lowercased() }), email.contains("@") else { return false }
        return domains.contains { domain in
            guard domain.hasPrefix("*.") else { return host == domain }
            let base = String(domain.dropFirst(2))
            return host == base || host.hasSuffix("." + base)
        }
    }

    /// A `YYYY-MM-DD` day, read as that day in UTC.
    public static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, text.count == 10 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2])
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date
    }

    /// Until when a verification made `now` holds: the end of the next term end's day plus the grace period, or
    /// `defaultVerificationDays` when the campus lists no term end to come.
    public static func verifiedUntil(termEnds: [String], now: Date) -> Date {
        let ends = termEnds.compactMap(day).map { $0.addingTimeInterval(86_400) }.filter { $0 > now }.sorted()
        guard let next = ends.first else { return now.addingTimeInterval(Double(defaultVerificationDays) * 86_400) }
        return next.addingTimeInterval(Double(graceDays) * 86_400)
    }

    /// What is wrong with a campus as an admin describes it.
    public static func problems(_ request: CampusRequest) -> [FieldError] {
        var validator = Validator()
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        validator.check((1...100).contains(name.count), "name", "Give the campus a name of at most 100 characters.")
        validator.check(!request.domains.isEmpty && request.domains.count <= 20, "domains", "List 1 to 20 e-mail domains, such as uni.edu.")
        for (index, raw) in request.domains.enumerated() where domain(raw) == nil {
            validator.check(false, "domains.\(index)", "“\(raw)” is not a domain such as uni.edu or *.uni.edu.")
        }
        validator.check(request.center.isValid, "center", "Give the campus's centre as a latitude and a longitude.")
        if let boundary = request.boundary {
            validator.check(
                (3...500).contains(boundary.count) && boundary.allSatisfy(\.isValid), "boundary", "An outline needs 3 to 500 valid points.")
        }
        validator.check(request.termEnds.count <= 40, "termEnds", "List at most 40 term ends.")
        for (index, text) in request.termEnds.enumerated() where day(text) == nil {
            validator.check(false, "termEnds.\(index)", "“\(text)” is not a day such as 2027-05-15.")
        }
        return validator.errors
    }

    /// What is wrong with a safe spot as an admin describes it.
    public static func problems(_ request: SafeSpotRequest) -> [FieldError] {
        var validator = Validator()
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        validator.check((1...100).contains(name.count), "name", "Give the spot a name of at most 100 characters.")
        validator.check(Coordinate(latitude: request.latitude, longitude: request.longitude).isValid, "latitude", "Give a valid position.")
        validator.check(request.description.count <= 500, "description", "Describe it in at most 500 characters.")
        validator.check(request.hours.count <= 200, "hours", "Give the hours in at most 200 characters.")
        return validator.errors
    }

    /// A category slug: lower-case letters, digits and underscores.
    public static func categorySlugProblem(_ slug: String) -> String? {
        let valid =
            (2...40).contains(slug.count)
            && slug.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        return valid ? nil : "Use 2 to 40 lower-case letters, digits or underscores, such as dorm_supplies."
    }
}
