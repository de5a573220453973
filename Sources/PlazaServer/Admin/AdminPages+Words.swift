import Foundation
import PlazaCore

/// The review console's words for the queue's kinds, states and actions (their `label`s in PlazaCore stay English for
/// the API), in the reader's language.
extension AdminPages {
    /// A role as the accounts list tags it ("customer").
    static func roleTag(_ role: Role) -> String {
        switch role {
        case .customer: say("customer")
        case .merchant: say("merchant")
        case .admin: say("admin")
        case .designer: say("designer")
        }
    }

    /// An audit log action in words (`AdminRules.actionLabel`, said); an action it does not know stays its name.
    static func auditLabel(_ action: String) -> String {
        switch action {
        case "user.suspend": say("Suspended an account")
        case "user.reinstate": say("Reinstated an account")
        case "user.role": say("Changed a role")
        case "review.approve": say("Approved")
        case "review.reject": say("Rejected")
        default: action
        }
    }

    /// An audit log action done to a named person, followed on the page by the name (`AdminRules.actionVerb`, said).
    static func auditVerb(_ action: String) -> String {
        switch action {
        case "user.suspend": say("Suspended")
        case "user.reinstate": say("Reinstated")
        case "user.role": say("Changed the role of")
        default: auditLabel(action)
        }
    }

    static func kindName(_ kind: ReviewKind) -> String {
        switch kind {
        case .merchant: say("New merchant")
        case .campaign: say("Campaign")
        case .report: say("Report")
        case .appeal: say("Appeal")
        case .template: say("Card template")
        case .dispute: say("Payment dispute")
        case .offerReport: say("Offer report")
        }
    }

    static func stateName(_ state: ReviewState) -> String {
        switch state {
        case .open: say("Waiting")
        case .approved: say("Approved")
        case .rejected: say("Rejected")
        }
    }

    static func actionName(_ action: ReviewAction) -> String {
        switch action {
        case .removeListing: say("Remove the listing")
        case .warn: say("Warn them")
        case .suspend: say("Suspend them from the marketplace")
        case .restoreListing: say("Put the listing back")
        case .reinstate: say("Lift the marketplace suspension")
        case .withdrawWarning: say("Withdraw the warning")
        case .refund: say("Refund the customer")
        case .stopCampaign: say("Stop the campaign")
        }
    }

    /// An action as the decision line names it: "(remove the listing)".
    static func actionNameInLine(_ action: ReviewAction) -> String {
        switch action {
        case .removeListing: say("remove the listing")
        case .warn: say("warn them")
        case .suspend: say("suspend them from the marketplace")
        case .restoreListing: say("put the listing back")
        case .reinstate: say("lift the marketplace suspension")
        case .withdrawWarning: say("withdraw the warning")
        case .refund: say("refund the customer")
        case .stopCampaign: say("stop the campaign")
        }
    }

    /// The console's confirmation once an item is decided (`ReviewKind.decidedNotice`, said).
    static func decidedNotice(_ item: ReviewItem) -> String {
        let approved = item.state == .approved
        let sentence: String =
            switch item.kind {
            case .merchant:
                approved
                    ? phrase("You approved {subject}. They were told; customers can find their businesses now.")
                    : phrase("You rejected {subject}. They were told your reason.")
            case .campaign:
                approved
                    ? phrase("You approved {subject}. The business was told; it runs from its start.")
                    : phrase("You rejected {subject}. The business was told your reason.")
            case .report:
                approved
                    ? phrase("You acted on the report about {subject}. They read your statement and may appeal once.")
                    : phrase("You dismissed the report about {subject}. Whoever reported it was told.")
            case .appeal:
                approved
                    ? phrase("You granted the appeal of {subject}: the action is undone and they were told.")
                    : phrase("You denied the appeal of {subject}. They read your reason.")
            case .template:
                approved
                    ? phrase("You approved {subject}. It is in the card shop's catalogue; the designer was told.")
                    : phrase("You sent {subject} back. The designer reads your reason.")
            case .dispute:
                approved
                    ? phrase(
                        "You upheld the dispute {subject}: the customer was refunded, and both sides read your statement."
                    )
                    : phrase("You rejected the dispute {subject}. Both sides read your reason.")
            case .offerReport:
                approved
                    ? phrase("You stopped {subject}. Its business reads your reason; whoever reported it was told.")
                    : phrase(
                        "You dismissed the reports about {subject}: it keeps running. Whoever reported it was told."
                    )
            }
        return say(sentence, ["subject": item.subject])
    }
}
