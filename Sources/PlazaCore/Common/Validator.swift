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

    public var isValid: Bool { errors.isEmpty }
}
