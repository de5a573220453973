import Foundation

/// The card shop's fixed numbers and its price arithmetic.
public enum CardRules {
    /// What the printer trims off each side; art must reach this far past the trim, text must not.
    public static let bleedMm = 3.0
    /// Text nearer the trim than this may be grazed by the cut.
    public static let safeMarginMm = 4.0
    /// Smaller type is hard to read in print.
    public static let smallestReadablePt = 6.0
    /// The fonts Plaza ships (`Resources/Public/fonts/<id>.ttf`), in the order pickers show them.
    public static let fontIDs = ["serif", "sans", "script", "display"]
    public static let fontNames = ["serif": "Garamond", "sans": "Sans", "script": "Script", "display": "Rounded"]
    public static let quantities = 1...1_000
    public static let labelTextLength = 0...500
    public static let nameLength = 1...80

    /// The price of one card at `quantity`: the `unitAmount` of the last tier whose `minQuantity` is at most `quantity`.
    public static func unitAmount(_ tiers: [CardPriceTier], quantity: Int) -> Int64? {
        tiers.sorted { $0.minQuantity < $1.minQuantity }.last { $0.minQuantity <= quantity }?.unitAmount
    }

    /// `quantity` cards at `unit` each, saturating at `Int64.max` (a price stored before its bound never traps; the
    /// sums refuse it, `CardOrderRules.totals`).
    public static func lineAmount(_ unit: Int64, quantity: Int) -> Int64 {
        let (amount, overflow) = unit.multipliedReportingOverflow(by: Int64(quantity))
        return overflow ? .max : amount
    }

    /// Tax on `amount` at `basisPoints` (825 is 8.25 %), rounded half up to the minor unit; split so that no amount
    /// a total may reach can overflow it.
    public static func tax(on amount: Int64, basisPoints: Int) -> Int64 {
        guard amount > 0, basisPoints > 0 else { return 0 }
        let rate = Int64(basisPoints)
        return (amount / 10_000) * rate + ((amount % 10_000) * rate + 5_000) / 10_000
    }

    /// `#rrggbb` in lower case, or nil.
    public static func colour(_ text: String) -> String? {
        let hex = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard hex.count == 7, hex.first == "#", hex.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        return hex
    }

    /// What is wrong with a paper's prices: tiers from 1, ascending, positive amounts.
    public static func problems(_ request: CardPaperRequest) -> [FieldError] {
        var validator = Validator()
        validator.check(
            nameLength.contains(request.name.trimmingCharacters(in: .whitespaces).count),
            "name",
            "Name the paper (at most 80 characters)."
        )
        if request.sampleAmount > 0 {
            validator.amount(request.sampleAmount, "sampleAmount", maximum: AmountBounds.perCard)
        } else {
            validator.check(false, "sampleAmount", "A sample costs something: type its price.")
        }
        let tiers = request.tiers.sorted { $0.minQuantity < $1.minQuantity }
        validator.check(tiers.first?.minQuantity == 1, "tiers", "Start the price tiers at 1 card.")
        validator.check(Set(tiers.map(\.minQuantity)).count == tiers.count, "tiers", "Give each quantity one price.")
        for (index, tier) in request.tiers.enumerated() {
            validator.check(
                quantities.contains(tier.minQuantity),
                "tiers.\(index).minQuantity",
                "From 1 to \(quantities.upperBound) cards."
            )
            if tier.unitAmount > 0 {
                validator.amount(tier.unitAmount, "tiers.\(index).unitAmount", maximum: AmountBounds.perCard)
            } else {
                validator.check(false, "tiers.\(index).unitAmount", "Each tier needs a price above zero.")
            }
        }
        return validator.errors
    }
}
