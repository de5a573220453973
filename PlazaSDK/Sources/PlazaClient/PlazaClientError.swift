import Foundation
import PlazaCore

/// Everything a Plaza call can fail with.
public enum PlazaClientError: Error, Sendable, Equatable {
    /// The server answered with a problem: branch on `problem.code`; `problem.errors` names the fields at fault.
    case problem(Problem)
    /// The call needs a signed-in user and the client has none (or its session ended).
    case notSignedIn
    /// No answer: offline, timed out, or the server is unreachable.
    case transport(String)
    /// An answer the client could not read (a proxy's HTML page, say).
    case unreadableResponse(status: Int)
    /// Money would leave: ask the user for a code from their authenticator app (or a recovery code) and call again with
    /// `secondFactor:`. The account's factors; `[]`: it has none yet, send the user to set one up (`startTOTP()`).
    case secondFactorRequired([SecondFactorRef])

    /// The stable problem code, when the server sent one.
    public var code: ErrorCode? {
        switch self {
        case .problem(let problem): problem.code
        case .notSignedIn: .unauthorized
        case .secondFactorRequired: .secondFactorRequired
        default: nil
        }
    }

    /// The fields at fault, for showing each message next to its field.
    public var fieldErrors: [FieldError] {
        if case .problem(let problem) = self { return problem.errors ?? [] }
        return []
    }

    /// The message for `field`, if the server named it.
    public func message(for field: String) -> String? {
        fieldErrors.first { $0.field == field }?.message
    }
}

extension PlazaClientError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .problem(let problem): [problem.title, problem.detail].compactMap { $0 }.joined(separator: " ")
        case .notSignedIn: "Log in to continue."
        case .transport(let message): "Plaza could not be reached: \(message)"
        case .unreadableResponse(let status): "Plaza answered something unexpected (HTTP \(status))."
        case .secondFactorRequired(let factors):
            factors.isEmpty
                ? "Set up an authenticator app first: money leaves only with a second factor."
                : "Enter the code from your authenticator app."
        }
    }
}
