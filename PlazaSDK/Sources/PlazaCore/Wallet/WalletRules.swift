import Foundation

/// The rules of wallets, transfers, top-ups and charges, shared by the server, the pages and the SDK.
/// Each rule returns a message for the user, or `nil` when the value is acceptable.
public enum WalletRules {
    /// The largest single movement, in minor units (a million of the major unit): keeps every sum far from overflow.
    public static let maximumAmount: Int64 = AmountBounds.maximum
    public static let noteMaximumLength = 200
    public static let itemsMaximumCount = 50
    public static let itemQuantity = 1...999
    /// How long a pay code is valid.
    public static let payCodeLifetime: TimeInterval = 120
    /// At most this many charges wait for one customer at once.
    public static let maximumPendingCharges = 3

    public static func amountProblem(_ amount: Int64) -> String? {
        (1...maximumAmount).contains(amount)
            ? nil : "Use a whole number of minor units (cents) from 1 to \(maximumAmount)."
    }

    /// `amountProblem` as the field error a request gets: above the maximum it is `amount_too_large`.
    public static func amountError(_ amount: Int64, field: String) -> FieldError? {
        AmountBounds.problem(amount, field: field)
            ?? amountProblem(amount).map { FieldError(field: field, message: $0) }
    }

    /// `currencies` are the operator's (`PLAZA_CURRENCIES`).
    public static func currencyProblem(_ currency: String, accepted currencies: [String]) -> String? {
        guard Money.isCurrencyCode(currency) else { return "Use a three-letter ISO 4217 code such as USD." }
        return currencies.contains(currency) ? nil : "This Plaza accepts \(currencies.joined(separator: ", "))."
    }

    public static func textProblem(_ text: String?, maximum: Int = noteMaximumLength) -> String? {
        guard let text else { return nil }
        // Counted as JSON Schema's maxLength counts: in code points.
        guard text.unicodeScalars.count <= maximum else { return "Use at most \(maximum) characters." }
        return text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }
            ? "Remove control characters." : nil
    }

    /// Problems of an amount with its currency, as `{amount, currency}` fields.
    public static func moneyProblems(amount: Int64, currency: String, accepted: [String]) -> [FieldError] {
        var validator = Validator()
        validator.amount(amount, "amount")
        validator.apply(currencyProblem(currency, accepted: accepted), to: "currency")
        return validator.errors
    }

    /// The shape of each line of a charge request: one of the business's items (`itemId`, nothing else but the
    /// quantity) or a line typed in full (`description` and `unitAmount`), keyed `items.3.description` and so on.
    public static func lineProblems(_ lines: [ChargeLine]) -> [FieldError] {
        var validator = Validator()
        validator.check(lines.count <= itemsMaximumCount, "items", "Use at most \(itemsMaximumCount) items.")
        for (index, line) in lines.enumerated() where index < itemsMaximumCount {
            let field = "items.\(index)"
            validator.check(
                itemQuantity.contains(line.quantity),
                "\(field).quantity",
                "Use 1 to \(itemQuantity.upperBound)."
            )
            if line.itemId != nil {
                validator.check(
                    line.description == nil && line.unitAmount == nil,
                    "\(field).itemId",
                    "Send an item, or a description with a price, not both."
                )
                continue
            }
            let description = (line.description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            validator.check(
                (1...100).contains(description.unicodeScalars.count),
                "\(field).description",
                "Use 1 to 100 characters."
            )
            if let unitAmount = line.unitAmount {
                validator.amount(unitAmount, "\(field).unitAmount", minimum: 0)
            } else {
                validator.add(FieldError(field: "\(field).unitAmount", message: "Give the price of one."))
            }
        }
        return validator.errors
    }

    /// What a charge of `items` (resolved) and `tip` comes to: `goods` (what a coupon may lower and loyalty counts)
    /// and `amount` (goods plus tip), or the problems. `amount` sent must be the lines' sum plus the tip; without
    /// lines it is required and the tip is part of it.
    public static func chargeTotals(
        items: [ChargeItem],
        amount: Int64?,
        tip: Int64
    ) -> (goods: Int64, amount: Int64, problems: [FieldError]) {
        var validator = Validator()
        validator.amount(tip, "tip", minimum: 0)
        guard validator.isValid else { return (0, 0, validator.errors) }
        guard !items.isEmpty else {
            guard let amount else {
                return (0, 0, [FieldError(field: "amount", message: "Enter an amount, or add items.")])
            }
            validator.amount(amount, "amount")
            if validator.isValid {
                validator.check(tip <= amount, "tip", "The tip is part of the amount: at most \(amount).")
            }
            return (amount - tip, amount, validator.errors)
        }
        var total: Int64 = 0
        var overflow = false
        for item in items {
            let (line, lineOverflow) = item.unitAmount.multipliedReportingOverflow(by: Int64(max(0, item.quantity)))
            let (sum, sumOverflow) = total.addingReportingOverflow(line)
            overflow = overflow || lineOverflow || sumOverflow
            total = sum
        }
        let (withTip, tipOverflow) = total.addingReportingOverflow(tip)
        guard !overflow, !tipOverflow, withTip <= maximumAmount else {
            return (0, 0, [AmountBounds.tooLarge(field: "items")])
        }
        if let amount, amount != withTip {
            let message =
                tip > 0
                ? "The items and the tip add up to \(withTip), not \(amount)."
                : "The items add up to \(withTip), not \(amount)."
            return (0, 0, [FieldError(field: "amount", message: message)])
        }
        validator.check(withTip >= 1, "amount", "A charge is for at least 1 minor unit.")
        return (total, withTip, validator.errors)
    }

    /// `12.5`, `12.50` or `12` in major units → minor units (`1250`); `nil` for anything else (signs, three decimals, letters).
    public static func parseAmount(_ text: String, currency: String) -> Int64? {
        let digits = Money.minorUnitDigits(currency)
        // "$1,234.56", "1.234,56 €", "7,25": symbols and spaces go; with both marks, the last one is the decimal mark.
        var cleaned = text.filter { $0.isASCIIDigit || $0 == "." || $0 == "," }
        if let last = cleaned.lastIndex(where: { $0 == "." || $0 == "," }), cleaned.contains("."), cleaned.contains(",")
        {
            let grouping: Character = cleaned[last] == "." ? "," : "."
            cleaned = cleaned.filter { $0 != grouping }
        }
        guard text.allSatisfy({ $0.isASCIIDigit || ".,$€£ \u{a0}".contains($0) }) else { return nil }
        let trimmed = cleaned.replacingOccurrences(of: ",", with: ".")
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 9,
            whole.allSatisfy(\.isASCIIDigit),
            let major = Int64(whole)
        else { return nil }
        var minor: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard digits > 0, (1...digits).contains(fraction.count), fraction.allSatisfy(\.isASCIIDigit),
                let value = Int64(fraction)
            else {
                return nil
            }
            minor = fraction.count == 1 ? value * 10 : value
        }
        return digits == 0 ? major : major * 100 + minor
    }

    /// A card's expiry as people type it: `1229`, `12/29`, `12 / 2029`, `1/29`, `122029`. Month 0 when unreadable
    /// (the card check then says what to fix).
    public static func parseExpiry(_ text: String) -> (month: Int, year: Int) {
        let groups = text.split(whereSeparator: { !$0.isASCIIDigit }).map(String.init)
        let (month, year): (String, String)
        switch groups.count {
        case 1 where groups[0].count == 4 || groups[0].count == 6:
            (month, year) = (String(groups[0].prefix(2)), String(groups[0].dropFirst(2)))
        case 2: (month, year) = (groups[0], groups[1])
        default: return (0, 0)
        }
        guard let m = Int(month), let y = Int(year), month.count <= 2, year.count == 2 || year.count == 4 else {
            return (0, 0)
        }
        return (m, year.count == 2 ? 2000 + y : y)
    }

    /// Card number (Luhn), expiry (not past) and CVC, keyed `card.number` and so on.
    public static func cardProblems(_ card: CardDetails, now: Date = Date()) -> [FieldError] {
        var validator = Validator()
        let digits = card.number.filter { $0 != " " && $0 != "-" }
        validator.check(
            (12...19).contains(digits.count) && digits.allSatisfy(\.isASCIIDigit) && luhn(digits),
            "card.number",
            "This is not a valid card number."
        )
        validator.check((1...12).contains(card.expMonth), "card.expMonth", "Use 1 to 12.")
        let calendar = Calendar(identifier: .gregorian)
        let today = calendar.dateComponents(in: TimeZone(identifier: "UTC")!, from: now)
        let (year, month) = (today.year ?? 2026, today.month ?? 1)
        validator.check(
            (year...(year + 20)).contains(card.expYear) && (card.expYear > year || card.expMonth >= month),
            "card.expYear",
            "The card has expired."
        )
        validator.check(
            (3...4).contains(card.cvc.count) && card.cvc.allSatisfy(\.isASCIIDigit),
            "card.cvc",
            "Use the 3 or 4 digits on the card."
        )
        return validator.errors
    }

    /// The Luhn check digit test every card number passes.
    public static func luhn(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard let digit = character.wholeNumberValue else { return false }
            sum += index % 2 == 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit
        }
        return sum % 10 == 0
    }

    /// `visa`, `mastercard`, `amex` or `card`, from the number's prefix.
    public static func cardBrand(_ digits: String) -> String {
        if digits.hasPrefix("4") { return "visa" }
        if let two = Int(digits.prefix(2)), (51...55).contains(two) { return "mastercard" }
        if let four = Int(digits.prefix(4)), (2221...2720).contains(four) { return "mastercard" }
        if digits.hasPrefix("34") || digits.hasPrefix("37") { return "amex" }
        return "card"
    }

    /// A processor's failure code as the person it happened to reads it.
    public static func failureReason(_ code: String?) -> String {
        switch code {
        case "card_declined": "Your card was declined."
        case "insufficient_funds": "Your card has insufficient funds."
        case "expired_card": "Your card has expired."
        case "incorrect_cvc": "The card's security code was wrong."
        case "processing_error": "The card processor did not confirm it; nothing was charged."
        case "cancelled": "You cancelled on the payment page."
        case "expired": "The payment page was left before paying; nothing was charged."
        case "generic_decline", "do_not_honor": "Your card was declined."
        case "balance_insufficient": "The card processor could not pay it out yet; the money is back in your wallet."
        case .some(let code): "The card processor refused it (\(code.replacingOccurrences(of: "_", with: " ")))."
        case nil: "The card processor refused it."
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }

}
