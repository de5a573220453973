import SQLKit

/// One step of the schema. Shipped migrations are never edited: a change is a new migration.
protocol Migration: Sendable {
    /// Recorded in `plaza_migrations`; the file name without its `M0001_` prefix is a good choice.
    var name: String { get }
    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws
}

/// Every migration, in the order they apply. Append only.
enum Migrations {
    static let all: [any Migration] = [
        M0001_Accounts(),  // users, sessions, refresh tokens, e-mail codes
        M0002_Platform(),  // idempotency keys, rate-limit events, the mail outbox
        M0003_Places(),  // businesses, locations, sharing, points, zones, stays, visits, line waits, app passwords
        // ledger accounts, journal, postings, activity, top-ups, withdrawals, charges, pay codes, blocks
        M0004_Wallet(),
        M0005_Inbox(),  // inbox seen marks; indexes for a customer's and a merchant's charges by time
        M0006_CrowdPeople(),  // keyed marks of the distinct people behind each popular-times cell
        M0007_ReservedUsernames(),  // usernames of deleted accounts and of sign-ups with a taken address
        M0008_BusinessFunding(),  // withdrawals from a business's balance, by its owners
        M0009_ActivityFailures(),  // the processor's reason beside a failed top-up or withdrawal in the history
        // the hosted payment page of a pending top-up; users' payout accounts with the processor
        M0010_HostedPayments(),
        M0011_TimeZones(),  // the time zone a user chose for dates
        M0012_PaymentRequests(),  // charges whose payee is a person: payment requests
        M0013_BusinessSearch(),  // accent- and case-folded name and description for search
        M0014_Notifications(),  // push devices, notification preferences, the notification outbox
        M0015_Admin(),  // merchant approval, suspension, the review queue, the append-only audit log
        M0016_ListedBusinesses(),  // businesses public once their merchant is approved
        M0017_Loyalty(),  // loyalty programs, signing keys, cards, punches, redeem codes, redemptions
        M0018_LoyaltyCounter(),  // customers' punch codes, consent to share card history, businesses with loyalty
        M0019_WalletPasses(),  // devices that added a card's Apple Wallet pass, for its updates
        M0020_Offers(),  // campaigns, offer settings and subscriptions, offers received, coupon claims
        M0021_LoyaltyCardExpiry(),  // an index for the sweep that expires cards past their own life
        M0022_ChargeDiscounts(),  // a coupon's discount on a charge
        M0023_Campuses(),  // campuses, their safe spots, verified students, the market agreement, listing categories
        M0024_Media(),  // uploaded pictures, stripped, in the database
        M0025_Listings(),  // campus marketplace listings and their full-text index (FTS5 / tsvector)
        M0026_Chat(),  // marketplace conversations and their messages, encrypted at rest
        M0027_MarketBlocks(),  // students blocking one another
        M0028_MarketDeals(),  // price offers with held payments, meetups and their handshakes
        M0029_MarketTrust(),  // ratings, reports and appeals, follows, wish lists, saved searches
        M0030_ReviewActions(),  // review items that offer actions (reports, appeals)
        M0031_Bidding(),  // listings sold by bidding: the auction on the listing, every price step
        M0032_MeetupSharing(),  // each side's opt-in to show where they are for a meetup
        M0033_MarketProfiles(),  // a student's bio and profile photo
        M0034_MembershipReminders(),  // students told once that their campus verification runs out
        M0035_ListingOrderIndexes(),  // the feed by category and by price
        M0036_MarketSuspensions(),  // students suspended from the marketplace (not from Plaza) by an upheld report
        M0037_CardCatalogue(),  // the card shop: categories, papers, art, versioned templates, saved designs
        M0038_CardOrders(),  // the card shop's cart and orders, each line pinned to its approved print file
        M0039_CardPaymentProblems(),  // why an order's card payment did not go through; proofs' previews
        M0040_LoyaltyOnPayment(),  // paying earns the punch: programs' rule, each charge's punches, customers' consent
        M0041_CounterPunchCount(),  // several punches for one visit; each punch's card total
        M0042_ListingSearchTerms(),  // listings' search entries written again with stems and joined word pairs
        M0043_BusinessItems(),  // the items a business sells at its counter, with their prices
        M0044_ChargeRefunds(),  // each refund of a charge with its reason
        M0045_PointOfSale(),  // a charge's tip; a business's suggested tips, tax registration and rate
        M0046_PunchExpiryReminders(),  // the punch expiry each card's holder was last reminded of
        M0047_InboxNotices(),  // inbox entries of its own: decisions about a person, with their reason
        M0048_ChargeDisputes(),  // a customer's dispute of a paid charge, the business's answer, Plaza's decision
        M0050_PresenceAlerts(),  // when each staff member was last pushed that a known customer walked in
        M0051_OfferReports(),  // a campaign stopped by an admin with its reason; customers' reports of offers
        M0053_SecondFactors(),  // authenticator apps and passkeys asked before money leaves; recovery codes
        M0054_PasskeyChallenges(),  // what a passkey signs to be made or to let money out, each spent once
        M0052_CardPhotos(),  // a card design's photos in its template's photo slots
        M0049_OwnTracksDevices(),  // app passwords made for OwnTracks, and when each last sent a message
        M0055_UserLanguage(),  // the language a user chose for pages, mails and pushes
        M0056_InboxNoticeWording(),  // an inbox notice's words as keys, read in each reader's language
        M0057_NotificationTraceParent(),  // the trace a notification's push joins
        M0058_ListingSearchKeys(),  // SQLite: listings' search keys, the word index keyed by them
    ]
}
