/// A setting Plaza cannot start with; the message names the variable and what it must be.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var key: String
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "\(key) \(message)" }
}

/// Every bad setting at once, so an operator fixes them in one go.
public struct ConfigurationErrors: Error, CustomStringConvertible {
    public var errors: [ConfigurationError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
