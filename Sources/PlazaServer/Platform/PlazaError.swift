import Foundation
import HTTPTypes
import PlazaCore

/// The one error type routes throw; `ErrorMiddleware` turns it into `application/problem+json`
/// (or an HTML page for browser routes).
public struct PlazaError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var code: ErrorCode
    public var title: String
    public var detail: String?
    public var errors: [FieldError]?
    /// See `Problem.currentState`.
    public var currentState: String?
    /// See `Problem.limit` and `Problem.resetsAt`.
    public var limit: String?
    public var resetsAt: Date?
    /// See `Problem.findings`.
    public var findings: [CampaignFinding]?
    /// See `Problem.factors`.
    public var factors: [SecondFactorRef]?
    /// Extra response headers, such as `Retry-After` or `WWW-Authenticate`.
    public var headers: HTTPFields = [:]

    public init(
        _ status: HTTPResponse.Status,
        _ code: ErrorCode,
        _ title: String,
        detail: String? = nil,
        errors: [FieldError]? = nil
    ) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.errors = errors
    }

    /// The title and the detail as one sentence for a page ("Not enough money. Top up or ..."), in its language.
    var summary: String {
        let title = PageLanguage.say(title)
        return detail.map { "\(title) \(PageLanguage.say($0))" } ?? title
    }

    /// What a page says about a refused action: the first field's problem, else the summary.
    var sentence: String { errors?.first.map { PageLanguage.say($0.message) } ?? summary }

    /// The problem in `words`' language: its title, detail and fields' messages (its code and fields never change).
    func localized(_ words: Catalogue.Words) -> PlazaError {
        var copy = self
        copy.title = words.say(title)
        copy.detail = detail.map(words.say)
        copy.errors = errors?.map {
            FieldError(field: $0.field, message: words.say($0.message), aboveBound: $0.aboveBound)
        }
        copy.headers[.contentLanguage] = words.tag
        return copy
    }

    public var problem: Problem {
        Problem(
            title: title,
            status: Int(status.code),
            detail: detail,
            code: code,
            errors: errors,
            currentState: currentState,
            limit: limit,
            resetsAt: resetsAt,
            findings: findings,
            factors: factors
        )
    }

    /// 422 naming every field at fault: `amount_too_large` when one of them passes a bound on amounts
    /// (`AmountBounds`), else `validation_failed`.
    public static func validation(_ errors: [FieldError]) -> PlazaError {
        guard errors.contains(where: \.aboveBound) else {
            return PlazaError(
                .unprocessableContent,
                .validationFailed,
                phrase("Some fields need attention."),
                errors: errors
            )
        }
        return PlazaError(
            .unprocessableContent,
            .amountTooLarge,
            phrase("This amount is too large."),
            detail: phrase("Plaza takes amounts up to 1,000,000.00 and prices per card up to 10,000.00."),
            errors: errors
        )
    }

    public static func validation(field: String, _ message: String) -> PlazaError {
        validation([FieldError(field: field, message: message)])
    }

    public static func malformed(_ detail: String) -> PlazaError {
        PlazaError(.badRequest, .malformedRequest, phrase("The request could not be read."), detail: detail)
    }

    public static let unauthorized = PlazaError(.unauthorized, .unauthorized, phrase("Log in to continue."))
    public static let invalidToken = PlazaError(
        .unauthorized,
        .invalidToken,
        phrase("The token is invalid or has expired.")
    )
    public static let invalidCredentials = PlazaError(
        .unauthorized,
        .invalidCredentials,
        phrase("The log-in or password is wrong."),
        detail: phrase("If you signed up recently, enter the code we e-mailed you first.")
    )
    public static let forbidden = PlazaError(.forbidden, .forbidden, phrase("You may not do this."))

    /// After the right password only, so that it tells nothing to someone guessing.
    static func accountSuspended(reason: String?) -> PlazaError {
        // The reason is the admin's own words, the sentence around it the reader's.
        let given = reason.map { reason in
            let stop = reason.last.map { ".!?".contains($0) } == true ? "" : "."
            return say("The reason given: {reason}", ["reason": reason + stop]) + " "
        }
        return PlazaError(
            .forbidden,
            .accountSuspended,
            phrase("This account is suspended."),
            detail: (given ?? "") + say("Write to the operator of this Plaza if you think this is a mistake.")
        )
    }
    static let merchantNotApproved = PlazaError(
        .forbidden,
        .merchantNotApproved,
        phrase("An admin has not approved this business yet."),
        detail:
            phrase(
                "New merchants are reviewed before they trade: you can charge customers once you are approved (we will tell you)."
            )
    )
    public static let emailNotVerified = PlazaError(
        .forbidden,
        .emailNotVerified,
        phrase("Verify your e-mail address first."),
        detail: phrase("Enter the code we e-mailed you, or ask for a new one.")
    )

    public static let paymentsUnavailable = PlazaError(
        .serviceUnavailable,
        .unavailable,
        phrase("Card payments are not set up on this Plaza."),
        detail: phrase(
            "The operator has not connected a card processor yet; transfers and charges between members still work."
        )
    )

    static let gatewayFailed = PlazaError(
        .badGateway,
        .gatewayError,
        phrase("The card processor did not answer."),
        detail: phrase("Nothing was charged or moved. Try again in a minute.")
    )

    /// 403 `second_factor_required` naming the account's factors (`[]`: it must set one up first).
    static func secondFactorRequired(_ factors: [SecondFactorRef]) -> PlazaError {
        var error = PlazaError(
            .forbidden,
            .secondFactorRequired,
            factors.isEmpty ? phrase("Set up a second factor first.") : phrase("Confirm with your second factor."),
            detail: factors.isEmpty
                ? phrase("Money leaves only with a code from an authenticator app: set one up in Account → Security.")
                : phrase("Send the request again with a code from your authenticator app or a recovery code.")
        )
        error.factors = factors
        return error
    }

    /// 403 `invalid_code`: a second factor's code that is wrong, or was used already.
    static let invalidSecondFactor = PlazaError(
        .forbidden,
        .invalidCode,
        phrase("That code did not work."),
        detail: phrase("Use the code your authenticator app shows now, or an unused recovery code."),
        errors: [FieldError(field: "code", message: phrase("That code did not work; try the one your app shows now."))]
    )

    /// Whether a retry with the same `Idempotency-Key` must run again instead of getting this answer back: a missing or
    /// wrong second factor is not the request's outcome (the retry carries the code).
    var asksAgain: Bool {
        status == .forbidden && (code == .secondFactorRequired || code == .invalidCode)
    }

    static let payoutAccountRequired = PlazaError(
        .conflict,
        .payoutAccountRequired,
        phrase("Connect a bank account before withdrawing."),
        detail:
            phrase(
                "Withdrawals go to a bank account you connect once on the card processor's page: Wallet → Connect a bank account."
            )
    )

    static let campusRequired = PlazaError(
        .forbidden,
        .campusRequired,
        phrase("The marketplace is for verified students."),
        detail: phrase("Verify your university e-mail address first: Account → Campus marketplace.")
    )
    static let agreementRequired = PlazaError(
        .forbidden,
        .agreementRequired,
        phrase("Sign the marketplace's user agreement first."),
        detail: phrase("Read and sign it once: Account → Campus marketplace.")
    )
    static let marketSuspended = PlazaError(
        .forbidden,
        .marketSuspended,
        phrase("You are suspended from the marketplace."),
        detail: phrase(
            "Read why, and appeal once if it is wrong: Marketplace → You → Decisions about you (/market/decisions)."
        )
    )

    /// 404 naming what is missing, `what` an English noun of the code ("business"): each has a whole sentence of its
    /// own, so that a language puts its noun in the right case (issue 41); any other reads "Not found."
    public static func notFound(_ what: String = "resource") -> PlazaError {
        PlazaError(.notFound, .notFound, noSuch[what] ?? phrase("Not found."))
    }

    public static func conflict(field: String?, _ message: String) -> PlazaError {
        PlazaError(.conflict, .conflict, message, errors: field.map { [FieldError(field: $0, message: message)] })
    }

    /// "in 1 second", "in 45 seconds", "in 10 minutes" (rounded up), "in 2 hours", in the reader's language.
    static func wait(_ seconds: Int) -> String {
        if seconds < 60 { return sayCount(max(seconds, 1), "count.in_seconds") }
        if seconds < 5_400 { return sayCount((seconds + 59) / 60, "count.in_minutes") }
        return sayCount((seconds + 3_599) / 3_600, "count.in_hours")
    }

    public static func rateLimited(retryAfter seconds: Int) -> PlazaError {
        var error = PlazaError(
            .tooManyRequests,
            .rateLimited,
            phrase("Too many attempts."),
            detail: say("Try again {wait}.", ["wait": Self.wait(seconds)])
        )
        error.headers[.retryAfter] = String(seconds)
        return error
    }
}
