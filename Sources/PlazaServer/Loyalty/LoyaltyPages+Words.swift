import PlazaCore

/// The loyalty pages' notices and the names of states and refusals: said in the reader's language when shown.
extension LoyaltyPages {
    static let notices = [
        "taken": phrase("The card is yours. Scan the counter's code, or type its six digits here, with each purchase."),
        "program": phrase("The program is running. Show this counter's code to customers with each purchase."),
        "paused": phrase("The program is paused: no new cards or punches until you resume it."),
        "resumed": phrase("The program runs again."),
        "ended": phrase("The program has ended; its open cards expired and their holders were told."),
        "saved": phrase("The program's changes are saved."),
        "rotated":
            phrase(
                "New codes are signed with a new key. Punches scanned from the old key's codes still count for 7 days."
            ),
        "shared": phrase("The shop can now see your visits and rewards there. You can stop at any time."),
        "unshared": phrase("The shop no longer sees your visits: only figures about many customers at once."),
        "cardOnPayment": phrase("Paying a shop with a loyalty program now takes its card for you."),
        "noCardOnPayment": phrase("Paying takes no card for you: take one from the shop's page."),
    ]

    /// A card's state as its holder reads it.
    static func stateName(_ state: LoyaltyCardState) -> String {
        switch state {
        case .active: say("Active")
        case .completed: say("Completed")
        case .redeemed: say("Redeemed")
        case .expired: say("Expired")
        }
    }

    /// Why a typed or scanned punch did not count, in a sentence for its holder.
    static func sentence(_ reason: PunchRefusal) -> String {
        switch reason {
        case .invalidCode, .malformed:
            phrase("These digits are not the counter's code now: type the six digits it shows.")
        case .tooSoon: phrase("You got a punch here a moment ago: one per visit.")
        case .replayed: phrase("This code counted for you already: wait for the next one.")
        case .cardNotActive: phrase("This card takes no more punches.")
        case .expired: phrase("This code has expired: type the one the counter shows now.")
        case .wrongProgram: phrase("This code is for another card.")
        case .notFound, .invalidSignature, .idReused: phrase("This code cannot be counted.")
        }
    }
}
