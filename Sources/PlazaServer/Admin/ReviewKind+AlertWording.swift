import Foundation
import PlazaCore

extension ReviewKind {
    /// What the people concerned are told of the decision on `item` (an account alert), in each one's language
    /// (issue 41): where it links and its words. `reason` is the admin's, as written.
    func decisionWording(_ item: ReviewItem, approved: Bool, reason: String?) -> (link: String, wording: Wording) {
        let values = ["subject": item.subject, "reason": reason ?? ""]
        func told(_ link: String, _ title: String, _ body: String) -> (link: String, wording: Wording) {
            (link, Wording(title: title, body: body, values: values))
        }
        let id = item.subjectId.uuidString.lowercased()
        switch self {
        case .merchant:
            return approved
                ? told(
                    "/places/mine",
                    phrase("Your business is approved"),
                    phrase("Customers can find your business on Plaza now, and you can charge them.")
                )
                : told("/", phrase("Your business was not approved"), phrase("The reason given: {reason}"))
        case .campaign:
            let link = "/offers/campaigns/\(id)"
            return approved
                ? told(link, phrase("Your campaign is approved"), phrase("{subject} runs from its start."))
                : told(link, phrase("Your campaign was not approved"), phrase("{subject}: {reason}"))
        // The reporter hears the outcome; the reported person reads the statement from the marketplace.
        case .report:
            return approved
                ? told(
                    "/market",
                    phrase("We acted on your report"),
                    phrase("Thank you: {subject} broke the marketplace's rules, and an admin acted.")
                )
                : told(
                    "/market",
                    phrase("We looked at your report"),
                    phrase("An admin found no breach of the rules in {subject}. {reason}")
                )
        case .appeal:
            return approved
                ? told("/market/decisions", phrase("Your appeal was granted"), phrase("{reason}"))
                : told("/market/decisions", phrase("Your appeal was not granted"), phrase("{reason}"))
        case .template:
            return approved
                ? told(
                    "/cards/studio",
                    phrase("Your template is in the card shop"),
                    phrase("{subject} is in the catalogue now.")
                )
                : told("/cards/studio", phrase("Your template was sent back"), phrase("{subject}: {reason}"))
        // Both sides hear Plaza's decision with its statement of reasons.
        case .dispute:
            let link = "/wallet/disputes/\(id)"
            return approved
                ? told(link, phrase("Plaza decided the payment dispute: refunded"), phrase("{reason}"))
                : told(link, phrase("Plaza decided the payment dispute: not upheld"), phrase("{reason}"))
        // The customers who reported hear the outcome; the business reads the stop on its campaign and in its inbox.
        case .offerReport:
            return approved
                ? told("/offers", phrase("We acted on your report"), phrase("Thank you: Plaza stopped {subject}."))
                : told(
                    "/offers",
                    phrase("We looked at your report"),
                    phrase("An admin found no breach of Plaza's rules in {subject}. {reason}")
                )
        }
    }
}
