/// What an account may do: customers buy, merchants sell, admins moderate.
public enum Role: String, Codable, Sendable, CaseIterable {
    case customer
    case merchant
    case admin
    /// Uploads card templates to the card shop (granted by an admin, never chosen at sign-up).
    case designer
}

/// Self-described gender, used only for offer targeting the user agreed to.
public enum Gender: String, Codable, Sendable, CaseIterable {
    case female
    case male
    case other
}
