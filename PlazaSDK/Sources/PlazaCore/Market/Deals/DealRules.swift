import Foundation

/// How a sale between two students goes: a price offer and its answers, a meetup and its window, the handshake.
public enum DealRules {
    /// The handshake is possible from 30 minutes before the meetup until 2 hours after it.
    public static let windowBefore: TimeInterval = 30 * 60
    public static let windowAfter: TimeInterval = 2 * 3_600
    /// A meetup is proposed at most this far ahead.
    public static let furthestAhead: TimeInterval = 30 * 86_400
    /// A point the two agree on lies within this distance of the campus's centre.
    public static let campusRadius: Double = 10_000
    /// Wrong codes typed against one handshake before it is void (the seller shows a new one).
    public static let handshakeAttempts = 5

    public static func window(at: Date) -> (start: Date, end: Date) {
        (at.addingTimeInterval(-windowBefore), at.addingTimeInterval(windowAfter))
    }

    /// Which side must answer an open offer: the seller while it is `pending`, the buyer while `countered`.
    public enum Side: String, Sendable, Hashable {
        case buyer, seller
    }

    public static func awaiting(_ state: PriceOfferState) -> Side? {
        switch state {
        case .pending: .seller
        case .countered: .buyer
        default: nil
        }
    }

    /// What an answer does to an open offer.
    public enum Answer: String, Sendable, CaseIterable {
        case accept, decline, counter
    }

    /// The state after `side` answers, or nil when it is not theirs to answer (or the offer is no longer open).
    public static func next(_ state: PriceOfferState, answer: Answer, by side: Side) -> PriceOfferState? {
        guard awaiting(state) == side else { return nil }
        switch answer {
        case .accept: return .accepted
        case .decline: return .declined
        case .counter: return side == .seller ? .countered : .pending
        }
    }

    /// A problem with an offered price (in minor units of `currency`) as the field `amount`, or nil.
    public static func amountProblem(_ amount: Int64, asking: Money?) -> FieldError? {
        if let problem = WalletRules.amountError(amount, field: "amount") { return problem }
        if let asking, asking.amount <= AmountBounds.maximum, amount > asking.amount * 10 {
            return FieldError(
                field: "amount",
                message: "That is more than ten times the asking price; check the amount."
            )
        }
        return nil
    }

    /// Field problems of a proposed meetup, given the campus's centre and the time now.
    public static func problems(_ request: MeetupRequest, center: Coordinate, now: Date) -> [FieldError] {
        var validator = Validator()
        switch (request.spotId, request.latitude, request.longitude) {
        case (.some, nil, nil): break
        case (nil, let latitude?, let longitude?):
            let point = Coordinate(latitude: latitude, longitude: longitude)
            let valid = (-90...90).contains(latitude) && (-180...180).contains(longitude)
            validator.check(valid, "latitude", "Give a point on the map.")
            if valid {
                validator.check(
                    point.distance(to: center) <= campusRadius,
                    "latitude",
                    "Pick a point on or near campus, or one of the safe spots."
                )
            }
        default:
            validator.check(
                false,
                "spotId",
                "Pick a safe spot, or a point on the map (latitude and longitude), not both."
            )
        }
        validator.check(request.at > now, "at", "Pick a time in the future.")
        validator.check(
            request.at <= now.addingTimeInterval(furthestAhead),
            "at",
            "Pick a time within the next 30 days."
        )
        return validator.errors
    }

    /// A handshake code as typed: its six digits (spaces and dashes dropped), or nil when it cannot be one.
    public static func normalizedCode(_ raw: String) -> String? {
        let digits = raw.filter { !$0.isWhitespace && $0 != "-" }
        return digits.count == 6 && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) ? digits : nil
    }
}
