import Foundation

/// Collects every field at fault in one pass, so a client learns all its mistakes at once.
public struct Validator: Sendable {
    public private(set) var errors: [FieldError] = []

    public init() {}

    /// Records `message` against `field` when `condition` is false.
    public mutating func check(_ condition: Bool, _ field: String, _ message: String) {
        if !condition { errors.append(FieldError(field: field, message: message)) }
    }

    /// Records a problem found by a rule that returns its message, or `nil` when the value is fine.
    public mutating func apply(_ message: String?, to field: String) {
        if let message { errors.append(FieldError(field: field, message: message)) }
    }

    /// Records a field error a rule built (nil: nothing wrong).
    public mutating func add(_ error: FieldError?) {
        if let error { errors.append(error) }
    }

    /// Records an amount of minor units outside `minimum...maximum`: below, a plain problem; above, one of Plaza's
    /// bounds (`amount_too_large`).
    public mutating func amount(
        _ value: Int64,
        _ field: String,
        minimum: Int64 = 1,
        maximum: Int64 = AmountBounds.maximum
    ) {
        if value < minimum {
            errors.append(
                FieldError(
                    field: field,
                    message: minimum == 0 ? "Use 0 or more." : "Use at least \(minimum) minor units (cents)."
                )
            )
        } else if let problem = AmountBounds.problem(value, field: field, maximum: maximum) {
            errors.append(problem)
        }
    }

    /// Records an end more than five years after `now`.
    public mutating func end(_ value: Date?, _ field: String, now: Date) {
        if let problem = AmountBounds.endProblem(value, field: field, now: now) { errors.append(problem) }
    }

    public var isValid: Bool { errors.isEmpty }
}
