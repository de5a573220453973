import PlazaCore

extension ReviewAction {
    /// The alert of a marketplace decision to the student it concerns, in their language; the decisions page says the
    /// same headlines (`MarketPages.decisionHeadline`).
    func decisionWording(listingTitle: String?, reason: String?) -> Wording {
        let title =
            switch self {
            case .removeListing: phrase("Your listing “{title}” was removed")
            case .suspend: phrase("You are suspended from the marketplace")
            default: phrase("A warning about your conduct on the marketplace")
            }
        return Wording(
            title: title,
            body: phrase("The reason: {reason}. You may appeal once."),
            values: ["title": listingTitle ?? "", "reason": reason ?? ""]
        )
    }
}
