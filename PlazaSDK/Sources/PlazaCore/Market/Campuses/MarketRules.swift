import Foundation

/// The campus marketplace's rules that need no storage: who belongs to a campus, for how long, and what a campus,
/// a safe spot and the agreement must be.
public enum MarketRules {
    /// Days a verification lasts past the campus's next term end, so nobody is locked out the morning after exams.
    public static let graceDays = 14
    /// Students hear this long ahead that their verification runs out.
    public static let reminderAhead: TimeInterval = 7 * 86_400
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
                    && label.unicodeScalars.allSatisfy {
                        ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    }
            }
        return valid ? text : nil
    }

    /// Whether `email` is an address of one of `domains` (`*.uni.edu` takes `cs.uni.edu` and `uni.edu` itself).
    public static func belongs(_ email: String, to domains: [String]) -> Bool {
        guard let host = email.split(separator: "@").last.map({ $0.lowercased() }), email.contains("@") else {
            return false
        }
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
        validator.check(
            !request.domains.isEmpty && request.domains.count <= 20,
            "domains",
            "List 1 to 20 e-mail domains, such as uni.edu."
        )
        for (index, raw) in request.domains.enumerated() where domain(raw) == nil {
            validator.check(false, "domains.\(index)", "“\(raw)” is not a domain such as uni.edu or *.uni.edu.")
        }
        validator.check(request.center.isValid, "center", "Give the campus's centre as a latitude and a longitude.")
        if let boundary = request.boundary {
            validator.check(
                (3...500).contains(boundary.count) && boundary.allSatisfy(\.isValid),
                "boundary",
                "An outline needs 3 to 500 valid points."
            )
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
        validator.check(
            Coordinate(latitude: request.latitude, longitude: request.longitude).isValid,
            "latitude",
            "Give a valid position."
        )
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

/// What a listing must be: our brief asks for a photo, a price, a title, a category and a description.
extension MarketRules {
    public static let titleLength = 1...80
    public static let descriptionLength = 1...2_000
    public static let photos = 1...10

    /// Field problems of a listing as asked (the category's existence and the photos' ownership are the service's).
    public static func problems(_ request: ListingRequest, currency: String) -> [FieldError] {
        var validator = Validator()
        validator.check(
            titleLength.contains(request.title.trimmingCharacters(in: .whitespacesAndNewlines).count),
            "title",
            "Give it a title of at most \(titleLength.upperBound) characters."
        )
        validator.check(
            descriptionLength.contains(request.description.trimmingCharacters(in: .whitespacesAndNewlines).count),
            "description",
            "Describe it in at most \(descriptionLength.upperBound) characters."
        )
        switch (request.free == true, request.price) {
        case (true, .some):
            validator.check(false, "price", "A free item has no price: leave the price out, or untick free.")
        case (false, nil): validator.check(false, "price", "Give a price, or mark it free.")
        case (false, let price?):
            validator.check(price.currency == currency, "price.currency", "Prices here are in \(currency).")
            validator.add(WalletRules.amountError(price.amount, field: "price.amount"))
        case (true, nil): break
        }
        validator.check(photos.contains(request.photoIds.count), "photoIds", "Add 1 to 10 photos.")
        validator.check(Set(request.photoIds).count == request.photoIds.count, "photoIds", "Each photo once.")
        return validator.errors
    }

    /// The request a change makes of `current`.
    public static func applying(_ change: ListingChange, to current: ListingRequest) -> ListingRequest {
        var next = current
        if let title = change.title { next.title = title }
        if let description = change.description { next.description = description }
        if change.free == true {
            (next.free, next.price) = (true, nil)
        } else if let price = change.price {
            (next.free, next.price) = (nil, price)
        }
        if let category = change.category { next.category = category }
        if let condition = change.condition { next.condition = condition }
        if let photoIds = change.photoIds { next.photoIds = photoIds }
        return next
    }

    /// Words as the full-text index reads them: letters and digits, folded; a search takes at most 8.
    public static func searchWords(_ text: String, limit: Int = 8) -> [String] {
        let folded = text.folding(
            options: [.caseInsensitive, .diacriticInsensitive],
            locale: Locale(identifier: "en_US_POSIX")
        )
        return Array(folded.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init).prefix(limit))
    }
}
