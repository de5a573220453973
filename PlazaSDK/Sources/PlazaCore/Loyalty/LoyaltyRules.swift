import Foundation

/// What a punch token says: signed by the business's key `keyId` as exactly the UTF-8 JSON bytes the token carries.
public struct PunchTokenPayload: Codable, Sendable, Hashable {
    public var v: Int
    public var businessId: UUID
    public var programId: UUID
    public var locationId: UUID
    /// Unix time ÷ 30, rounded down: the token is valid in this window only (plus the sync grace for offline scans).
    public var window: Int64
    /// Grows with each token the business issues.
    public var counter: Int64
    public var keyId: String

    public init(businessId: UUID, programId: UUID, locationId: UUID, window: Int64, counter: Int64, keyId: String) {
        v = 1
        self.businessId = businessId
        self.programId = programId
        self.locationId = locationId
        self.window = window
        self.counter = counter
        self.keyId = keyId
    }
}

/// A token taken apart: the signed bytes, what they say, and the signature.
public struct SignedPunchToken: Sendable, Hashable {
    public var payloadBytes: Data
    public var payload: PunchTokenPayload
    public var signature: Data

    /// Reads `base64url(payload).base64url(signature)`; nil when it is not one.
    public init?(_ token: String) {
        let parts = token.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: ".",
            omittingEmptySubsequences: false
        )
        guard parts.count == 2, let bytes = Data(base64URL: String(parts[0])),
            let signature = Data(base64URL: String(parts[1])),
            signature.count == 64, let payload = try? JSONDecoder().decode(PunchTokenPayload.self, from: bytes),
            payload.v == 1
        else { return nil }
        payloadBytes = bytes
        self.payload = payload
        self.signature = signature
    }

    /// The token's text for a payload's bytes and their signature.
    public static func text(payloadBytes: Data, signature: Data) -> String {
        "\(payloadBytes.base64URLEncodedString()).\(signature.base64URLEncodedString())"
    }
}

/// The rules of loyalty programs, cards and punches, the same for the server and the SDK's offline check.
public enum LoyaltyRules {
    /// A token's window, in seconds.
    public static let windowSeconds: Int64 = 30
    /// How long after its window a token scanned offline may still be synced.
    public static let syncGrace: TimeInterval = 7 * 86_400
    /// How far ahead of the server's clock a window may begin (a counter's clock a little fast).
    public static let clockSkew: TimeInterval = 60
    public static let punchesRequired = 1...50
    public static let velocityWindowMinutes = 0...1_440
    public static let defaultVelocityWindowMinutes = 10
    public static let cardValidDays = 1...3_650
    public static let maximumLevels = 5
    /// How long after its window a token's six digits may still be typed.
    public static let codeTypingGrace: TimeInterval = 30
    /// Punches per sync.
    public static let batchSize = 1...100

    /// Level `n` (1-based) of a program whose first level is `first`: past the last, the last repeats.
    public static func level(_ n: Int, first: LoyaltyLevel, further: [LoyaltyLevel]) -> LoyaltyLevel {
        let all = [first] + further
        return all[min(max(n, 1), all.count) - 1]
    }

    public static func window(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(windowSeconds)).rounded(.down))
    }

    /// When a window's tokens stop being shown: `(window + 1) × 30`.
    public static func windowEnd(_ window: Int64) -> Date {
        Date(timeIntervalSince1970: Double((window + 1) * windowSeconds))
    }

    /// `.expired` when the token's window is past its sync grace or has not begun; nil when it may be counted now.
    public static func timeProblem(window: Int64, now: Date) -> PunchRefusal? {
        let start = Date(timeIntervalSince1970: Double(window * windowSeconds))
        if windowEnd(window).addingTimeInterval(syncGrace) < now || start > now.addingTimeInterval(clockSkew) {
            return .expired
        }
        return nil
    }

    /// What is wrong with a token for a card of `programId` at `businessId`, checked the same by the server and, offline,
    /// by the SDK: another program's or business's token, a signature no current (or recently retired) key of the
    /// business made, a window past its grace. `verify` checks an Ed25519 signature: (public key, signature, bytes).
    public static func tokenProblem(
        _ token: SignedPunchToken,
        programId: UUID,
        businessId: UUID,
        keys: [LoyaltySigningKey],
        now: Date,
        verify: (Data, Data, Data) -> Bool
    ) -> PunchRefusal? {
        let payload = token.payload
        guard payload.programId == programId, payload.businessId == businessId else { return .wrongProgram }
        guard let key = keys.first(where: { $0.keyId == payload.keyId }),
            let publicKey = Data(base64URL: key.publicKey),
            verify(publicKey, token.signature, token.payloadBytes)
        else { return .invalidSignature }
        if let retired = key.retiredAt {
            // Signed after the key was rotated out (it may have leaked), or synced past the grace that followed.
            let start = Date(timeIntervalSince1970: Double(payload.window * windowSeconds))
            if start > retired || now > retired.addingTimeInterval(syncGrace) { return .invalidSignature }
        }
        return timeProblem(window: payload.window, now: now)
    }

    /// Whether a punch in `window` comes within `minutes` of the customer's counted punch in `last` (either side:
    /// batches arrive out of order), judged by the tokens' windows, never the phone's clock.
    public static func tooSoon(window: Int64, last: Int64, minutes: Int) -> Bool {
        minutes > 0 && abs(window - last) * windowSeconds < Int64(minutes) * 60
    }

    /// Everything wrong with a program as asked for, by field.
    public static func programProblems(_ request: LoyaltyProgramRequest, now: Date) -> [FieldError] {
        var validator = Validator()
        validator.apply(textProblem(request.title, maximum: 80, what: "a title"), to: "title")
        validator.check((request.description ?? "").count <= 2_000, "description", "Use at most 2,000 characters.")
        validator.apply(textProblem(request.reward, maximum: 120, what: "the reward"), to: "reward")
        validator.check(
            punchesRequired.contains(request.punchesRequired),
            "punchesRequired",
            "Ask for 1 to 50 punches."
        )
        let levels = request.levels ?? []
        validator.check(levels.count <= maximumLevels, "levels", "Use at most \(maximumLevels) further levels.")
        for (index, level) in levels.enumerated() {
            validator.check(
                punchesRequired.contains(level.punchesRequired),
                "levels[\(index)].punchesRequired",
                "Ask for 1 to 50 punches."
            )
            validator.apply(textProblem(level.reward, maximum: 120, what: "the reward"), to: "levels[\(index)].reward")
        }
        if let expiresAt = request.expiresAt {
            validator.check(expiresAt > now, "expiresAt", "Pick a moment in the future.")
        }
        validator.end(request.expiresAt, "expiresAt", now: now)
        if let days = request.cardValidDays {
            validator.check(cardValidDays.contains(days), "cardValidDays", "Use 1 to 3,650 days.")
        }
        if let minutes = request.velocityWindowMinutes {
            validator.check(
                velocityWindowMinutes.contains(minutes),
                "velocityWindowMinutes",
                "Use 0 to 1,440 minutes (0 turns the rule off)."
            )
        }
        if let spend = request.minimumSpend {
            validator.check(
                spend.amount > 0 && Money.isCurrencyCode(spend.currency),
                "minimumSpend",
                "Give a positive amount and a currency."
            )
            validator.add(AmountBounds.problem(spend.amount, field: "minimumSpend.amount"))
        }
        if case .per(let per) = request.punchesPerPurchase {
            validator.check(
                per.amount > 0 && Money.isCurrencyCode(per.currency),
                "punchesPerPurchase.per",
                "Give a positive amount and a currency: a punch for each such amount spent."
            )
            validator.add(AmountBounds.problem(per.amount, field: "punchesPerPurchase.per.amount"))
            if let spend = request.minimumSpend {
                validator.check(
                    spend.currency == per.currency,
                    "punchesPerPurchase.per",
                    "Use the minimum spend's currency, \(spend.currency)."
                )
            }
        }
        return validator.errors
    }

    /// The punches a paid charge earns on a program that earns on payment: `spent` is the charge less its tip; nothing
    /// under `minimumSpend` or in another currency; one, or one for each whole `per`; at most `cap` (the card's size).
    public static func punchesEarned(spent: Money, minimumSpend: Money?, per: PunchesPerPurchase, cap: Int) -> Int {
        if let minimum = minimumSpend {
            guard minimum.currency == spent.currency, spent.amount >= minimum.amount else { return 0 }
        }
        guard spent.amount > 0 else { return 0 }
        switch per {
        case .one:
            return min(1, cap)
        case .per(let unit):
            guard unit.currency == spent.currency, unit.amount > 0 else { return 0 }
            return Int(min(spent.amount / unit.amount, Int64(max(cap, 0))))
        }
    }

    /// Punches staff may give at once at the counter, for one visit.
    public static let counterCount = 1...10

    /// Why staff cannot give `count` punches at once on a card of `punchesRequired`; nil when they can.
    public static func counterCountProblem(_ count: Int, punchesRequired: Int) -> String? {
        let most = min(counterCount.upperBound, punchesRequired)
        return (1...max(most, 1)).contains(count) ? nil : "Give 1 to \(max(most, 1)) punches at once."
    }

    static func textProblem(_ text: String, maximum: Int, what: String) -> String? {
        guard let trimmed = ShownText.trimmed(text) else { return "Give \(what)." }
        return ShownText.problem(trimmed, length: 1...maximum)
    }
}

extension LoyaltyRules {
    /// How long a redeem code may be shown.
    public static let redeemCodeLifetime: TimeInterval = 120
    /// The QR text of a redeem code: `plaza:redeem:` then the digits and the server's signature.
    public static let redeemPrefix = "plaza:redeem:"
    /// The QR text of a customer's punch code (staff scan it to punch the card): `plaza:punch:`, the digits, the signature.
    public static let punchPrefix = "plaza:punch:"
    /// The barcode of a card's wallet pass: `plaza:card:`, the card's id and the server's signature (staff scan it to punch).
    public static let cardPrefix = "plaza:card:"

    /// The eight digits inside what staff typed or scanned (a `plaza:redeem:` payload or the digits alone); nil when
    /// it is neither.
    public static func redeemDigits(_ text: String) -> (digits: String, signature: String?)? {
        customerDigits(text, prefix: redeemPrefix)
    }

    /// The eight digits inside a customer's code as staff typed or scanned it: the digits alone, or `prefix`, the digits,
    /// a dot and the server's signature. Nil when it is neither.
    public static func customerDigits(_ text: String, prefix: String) -> (digits: String, signature: String?)? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix(prefix) {
            let parts = trimmed.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 8, parts[0].allSatisfy(\.isNumber) else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
        let digits = trimmed.filter { !$0.isWhitespace && $0 != "-" }
        return digits.count == 8 && digits.allSatisfy(\.isNumber) ? (digits, nil) : nil
    }

    /// When a customer's punch code made at `now` stops counting: the end of its 30-second window, and a little more
    /// for staff still typing it.
    public static func customerCodeExpiry(_ now: Date) -> Date {
        windowEnd(window(now)).addingTimeInterval(codeTypingGrace)
    }
}
