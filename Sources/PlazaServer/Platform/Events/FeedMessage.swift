import Foundation
import PlazaCore

/// What every Plaza process must learn when one of them changes live state: the live index's positions
/// and the events its connected listeners wait for.
enum FeedMessage: Codable, Sendable {
    /// A user's newest position (or sharing level or zone state) changed.
    case position(LivePosition)
    /// A user stopped sharing or deleted their history: drop them from the index.
    case forget(UUID)
    /// A live event for the listed users.
    case event(audience: [UUID], event: PlazaEvent)
    /// Businesses, locations or their members changed: reload the location catalog.
    case catalogChanged
    /// Something `user` should hear about even with Plaza closed (push, e-mail). Never sent over the feed: the
    /// notifications domain's recorder writes it into the outbox inside the transaction that publishes it (see `EventBus`).
    /// With `wording`, each recipient reads it in their language (see `Wording`); else as `content` says.
    case alert(user: UUID, content: NotificationContent, wording: Wording? = nil)
    /// Something `user` should see where they are, now, and nowhere else (a punch given at the counter they stand at):
    /// a banner on the pages they have open, no push and no inbox. The notifications' recorder turns it into a live
    /// event in their language inside the publishing transaction, so it is never sent over the feed as such.
    case arrival(user: UUID, kind: NotificationKind, link: String, wording: Wording)
    /// A domain asks an admin to decide (a new merchant, later campaigns, reports, templates). Never sent over the
    /// feed either: the admin domain's recorder files it in the review queue inside the publishing transaction.
    case review(ReviewSubmission)
    /// An admin decided: the subject's domain applies it inside the deciding transaction (its recorder), and every
    /// process hears it after the commit (Places reloads its catalog for a merchant).
    case reviewed(ReviewDecision)
    /// A business started or stopped running loyalty programs: Places marks it inside the publishing transaction (its
    /// recorder) and every process reloads its catalog (nearby's `hasLoyalty`).
    case loyaltyOffered(business: UUID, running: Bool)
    /// Campaigns started, paused, resumed, changed or ended: every process rebuilds its campaign index.
    case campaignsChanged
    /// A card top-up settled (its money is in `user`'s balance when `succeeded`): a domain that started it for a purchase
    /// (the card shop's order paid by card) completes that purchase inside the settling transaction (its recorder); a
    /// failed one says why (`WalletRules.failureReason`'s words for the processor's code).
    case topUpSettled(user: UUID, reference: UUID, succeeded: Bool, failure: String?)
    /// `user` proved they read `email` (a sign-up's or a change's code, or its link): a domain that trusts an address
    /// for something of its own (the marketplace's campus membership) records it inside the verifying transaction.
    case emailVerified(user: UUID, email: String)
    /// Something `user` should find in their inbox that no row of the publishing domain says (a moderation decision
    /// about them): the inbox's recorder keeps it inside the publishing transaction. Never sent over the feed.
    case inboxNotice(user: UUID, notice: InboxNotice)

    /// Whether only the transaction's recorders see it (it never goes over the feed).
    var isRecordedOnly: Bool {
        switch self {
        case .alert, .arrival, .review, .topUpSettled, .emailVerified, .inboxNotice: true
        case .position, .forget, .event, .catalogChanged, .reviewed, .loyaltyOffered, .campaignsChanged: false
        }
    }
}
