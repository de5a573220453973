import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: Joining a campus

    /// The campuses of this Plaza, for a person picking theirs (no sign-in needed).
    public func campuses() async throws -> [CampusSummary] {
        let page: Page<CampusSummary> = try await send("GET", "v1/market/campuses")
        return page.items
    }

    /// Mails a six-digit code to a university address (`campus_required` routes open once it is verified).
    public func startCampusEmail(_ email: String) async throws {
        let _: Acknowledgement = try await send(
            "POST",
            "v1/me/campus-email",
            body: CampusEmailRequest(email: email),
            auth: .required
        )
    }

    /// Proves the address with its mailed code: the account joins its campus until the next term end and a grace period.
    public func verifyCampusEmail(_ email: String, code: String) async throws -> CampusMembership {
        try await send(
            "POST",
            "v1/me/campus-email/verify",
            body: CampusEmailVerification(email: email, code: code),
            auth: .required
        )
    }

    /// My campus membership, or nil when I never verified or it lapsed.
    public func myCampus() async throws -> CampusMembership? {
        do {
            return try await send("GET", "v1/me/campus", auth: .required)
        } catch let error as PlazaClientError where error.code == .notFound {
            return nil
        }
    }

    // MARK: The agreement

    public func marketAgreement() async throws -> MarketAgreement {
        try await send("GET", "v1/market/agreement", auth: .required)
    }

    /// Signs the version shown (`agreement.version`).
    public func signMarketAgreement(version: Int) async throws -> MarketAgreement {
        try await send("POST", "v1/market/agreement/sign", body: AgreementSignature(version: version), auth: .required)
    }

    /// Withdraws the signature: my listings hide and the marketplace closes to me until I sign again.
    public func unsignMarketAgreement() async throws -> MarketAgreement {
        try await send("POST", "v1/market/agreement/unsign", auth: .required)
    }

    // MARK: The campus

    public func marketCategories() async throws -> [MarketCategory] {
        let page: Page<MarketCategory> = try await send("GET", "v1/market/categories", auth: .required)
        return page.items
    }

    /// My campus's safe spots to meet at.
    public func safeSpots() async throws -> [SafeSpot] {
        let page: Page<SafeSpot> = try await send("GET", "v1/market/safe-spots", auth: .required)
        return page.items
    }
}

extension PlazaClient {
    // MARK: Listings

    /// Posts a listing: upload its photos first with `uploadPicture`.
    public func createListing(_ request: ListingRequest) async throws -> Listing {
        try await send("POST", "v1/market/listings", body: request, auth: .required)
    }

    /// My campus's listings (Buy): words, filters and order as in `ListingQuery`.
    public func listings(
        _ query: ListingQuery = ListingQuery(),
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> Page<Listing> {
        try await send(
            "GET",
            "v1/market/listings",
            query: Self.query([
                "q": query.text, "category": query.category, "condition": query.condition?.rawValue,
                "minPrice": query.minPrice.map(String.init),
                "maxPrice": query.maxPrice.map(String.init), "seller": query.seller, "sort": query.sort.rawValue,
                "limit": limit.map(String.init),
                "cursor": cursor,
            ]),
            auth: .required
        )
    }

    public func listing(_ id: UUID) async throws -> Listing {
        try await send("GET", "v1/market/listings/\(id.uuidString.lowercased())", auth: .required)
    }

    public func changeListing(_ id: UUID, _ change: ListingChange) async throws -> Listing {
        try await send("PATCH", "v1/market/listings/\(id.uuidString.lowercased())", body: change, auth: .required)
    }

    public func removeListing(_ id: UUID) async throws {
        try await sendVoid("DELETE", "v1/market/listings/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Marks my listing sold, to a student of my campus (`buyer`, a username) or elsewhere.
    public func markSold(_ id: UUID, buyer: String? = nil) async throws -> Listing {
        try await send(
            "POST",
            "v1/market/listings/\(id.uuidString.lowercased())/sold",
            body: ListingSale(buyer: buyer),
            auth: .required
        )
    }

    /// My listings (Sell), in one state or all.
    public func myListings(state: ListingState? = nil, cursor: String? = nil) async throws -> Page<Listing> {
        try await send(
            "GET",
            "v1/market/me/listings",
            query: Self.query(["state": state?.rawValue, "cursor": cursor]),
            auth: .required
        )
    }
}

extension PlazaClient {
    // MARK: Chat

    /// "I'm interested": opens my conversation about a listing, or answers the one I have. Messages arrive live as
    /// `MarketEventType.message` on `events()`.
    public func startConversation(listing: UUID) async throws -> Conversation {
        try await send("POST", "v1/market/conversations", body: ConversationStart(listingId: listing), auth: .required)
    }

    public func conversations(cursor: String? = nil) async throws -> Page<Conversation> {
        try await send("GET", "v1/market/conversations", query: Self.query(["cursor": cursor]), auth: .required)
    }

    /// A conversation's messages, newest first; pass `nextCursor` to page back.
    public func messages(conversation: UUID, limit: Int? = nil, cursor: String? = nil) async throws -> Page<ChatMessage>
    {
        try await send(
            "GET",
            "v1/market/conversations/\(conversation.uuidString.lowercased())/messages",
            query: Self.query(["limit": limit.map(String.init), "cursor": cursor]),
            auth: .required
        )
    }

    public func sendMessage(_ text: String, conversation: UUID) async throws -> ChatMessage {
        try await send(
            "POST",
            "v1/market/conversations/\(conversation.uuidString.lowercased())/messages",
            body: MessageRequest(text: text),
            auth: .required
        )
    }

    public func markRead(conversation: UUID) async throws {
        try await sendVoid(
            "POST",
            "v1/market/conversations/\(conversation.uuidString.lowercased())/read",
            auth: .required
        )
    }

    /// Deletes a conversation for me; it stays for the other side.
    public func deleteConversation(_ conversation: UUID) async throws {
        try await sendVoid("DELETE", "v1/market/conversations/\(conversation.uuidString.lowercased())", auth: .required)
    }
}

extension PlazaClient {
    // MARK: Blocks

    /// Blocks a student: neither of us sees the other's listings, and no message passes either way (`blocked`).
    public func block(_ username: String) async throws -> MarketBlock {
        try await send("PUT", "v1/market/blocks/\(username)", auth: .required)
    }

    public func unblock(_ username: String) async throws {
        try await sendVoid("DELETE", "v1/market/blocks/\(username)", auth: .required)
    }

    public func blocks() async throws -> [MarketBlock] {
        let page: Page<MarketBlock> = try await send("GET", "v1/market/blocks", auth: .required)
        return page.items
    }
}

extension PlazaClient {
    /// A student of my campus: name, member since, items sold, active listings (their listings: `ListingQuery(seller:)`).
    public func marketProfile(_ username: String) async throws -> MarketProfile {
        try await send("GET", "v1/market/users/\(username)", auth: .required)
    }

    /// Students of my campus whose username or name contains `text` (two characters or more), an exact username first.
    public func searchStudents(_ text: String) async throws -> [MarketProfile] {
        let page: Page<MarketProfile> = try await send(
            "GET",
            "v1/market/users",
            query: Self.query(["q": text]),
            auth: .required
        )
        return page.items
    }
}
