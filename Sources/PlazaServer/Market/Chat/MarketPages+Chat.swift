import Foundation
import Hummingbird
import PlazaCore

/// The marketplace's Chat: "I'm interested" on a listing opens the conversation; the list of mine with unread counts;
/// a conversation whose messages arrive live, with a warning beside those that look like scams.
extension MarketPages {
    func addChatRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.post("listings/:id/interested", use: interested)
        signedIn.get("conversations", use: conversationsPage)
        signedIn.get("conversations/:id", use: conversationPage)
        signedIn.get("conversations/:id/live", use: conversationLive)
        signedIn.post("conversations/:id/messages", use: sendMessage)
        signedIn.post("conversations/:id/delete", use: deleteConversation)
        signedIn.post("blocks/:username", use: blockPage)
        signedIn.post("blocks/:username/delete", use: unblockPage)
    }

    /// Blocks from a conversation or a listing; back to the chat list, which lists whom I blocked.
    @Sendable func blockPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        _ = try await market.block(context.identity, username: context.parameters.get("username") ?? "")
        return PageRenderer.seeOther("/market/conversations?notice=blocked")
    }

    @Sendable func unblockPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        try await market.unblock(context.identity, username: context.parameters.get("username") ?? "")
        return PageRenderer.seeOther("/market/conversations?notice=unblocked")
    }

    @Sendable func interested(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "listing")
        do {
            let (conversation, _) = try await market.startConversation(context.identity, listing: id)
            return PageRenderer.seeOther("/market/conversations/\(conversation.id.uuidString.lowercased())")
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                alert: error.errors?.map(\.message).joined(separator: " ") ?? error.title,
                returnTo: "/market/listings/\(id)"
            )
        }
    }

    struct ConversationRow: Sendable {
        var id: String
        var title: String
        var other: String
        var last: String
        var when: String
        var unread: Int?
        var thumbnail: String?
    }

    struct ConversationsPage: Sendable {
        var shell: Shell
        var rows: [ConversationRow]
        var blocks: [MarketBlock]
    }

    @Sendable func conversationsPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard try await market.membership(context.identity) != nil else { return PageRenderer.seeOther("/market") }
        let me = context.identity.user.username
        let page = try await market.conversations(context.identity, limit: 50, cursor: nil)
        let rows = page.items.map { conversation in
            ConversationRow(
                id: conversation.id.uuidString.lowercased(),
                title: conversation.listing.title,
                other: (conversation.buyer.username == me ? conversation.seller : conversation.buyer).displayName,
                last: conversation.lastMessage.map { $0.sender == me ? say("You: {text}", ["text": $0.text]) : $0.text }
                    ?? say("No messages yet"),
                when: context.reader.when(conversation.updatedAt),
                unread: conversation.unread > 0 ? conversation.unread : nil,
                thumbnail: conversation.listing.thumbnailUrl
            )
        }
        let blocks = try await market.blocks(context.identity)
        var notice = notice(request)
        // The newest block is the one just made: its name, from the list rather than from the address.
        if request.uri.queryParameters.get("notice") == "blocked", let newest = blocks.first {
            notice =
                say(
                    "You blocked {name}: neither of you sees the other's listings, and no message passes.",
                    ["name": newest.displayName]
                )
        }
        let model = ConversationsPage(
            shell: Shell(title: say("Chat"), context: context, notice: notice),
            rows: rows,
            blocks: blocks
        )
        return renderer.render("market/conversations", model)
    }

    struct Bubble: Sendable {
        var text: String
        var mine: Bool
        var when: String
        var time: String
        var warnings: [MessageWarning]
    }

    struct ConversationLive: Sendable {
        var bubbles: [Bubble]
        var empty: Bool
    }

    struct ConversationPage: Sendable {
        var shell: Shell
        var id: String
        var listingId: String
        var title: String
        var price: String
        var thumbnail: String?
        var other: String
        var otherUsername: String
        var live: ConversationLive
        var open: Bool
        var deal: DealView
        var meet: MeetForm?
    }

    struct SpotOption: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    /// Where to meet: the campus's safe spots on a map (a tap picks one, or a point), and when.
    struct MeetForm: Sendable {
        var form: FormState
        var spots: [SpotOption]
        var center: String
        var markers: String
        var map: PlacesPages.MapLayers
        /// Shown opened: a refused proposal, or an agreed price with nowhere to meet yet.
        var open: Bool
    }

    /// The newest 50 messages, oldest first as a chat reads; what reached me is marked read.
    func live(_ identity: Identity, _ id: UUID, reader: Reader) async throws -> ConversationLive {
        let page = try await market.messages(identity, conversation: id, before: nil, limit: 50)
        try await market.markRead(identity, conversation: id)
        let bubbles = page.items.reversed().map { message in
            let mine = message.sender == identity.user.username
            return Bubble(
                text: message.text,
                mine: mine,
                when: reader.when(message.createdAt),
                time: reader.machine(message.createdAt),
                warnings: mine ? [] : message.warnings
            )
        }
        return ConversationLive(bubbles: bubbles, empty: bubbles.isEmpty)
    }

    @Sendable func conversationPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "conversation")
        let conversation = try await market.conversation(context.identity, id)
        let me = context.identity.user.username
        let otherName = Person(
            username: conversation.buyer.username == me ? conversation.seller.username : conversation.buyer.username,
            displayName: (conversation.buyer.username == me ? conversation.seller : conversation.buyer).displayName
        ).shortName
        let notice = request.uri.queryParameters.get("notice").flatMap {
            Self.dealNotices[String($0)] ?? Self.notices[String($0)]
        }
        .map { say($0, ["other": otherName]) }
        let open = [.active, .reserved].contains(conversation.listing.state)
        let deal = try await dealView(context, conversation: conversation)
        let model = ConversationPage(
            shell: Shell(title: conversation.listing.title, context: context, notice: notice),
            id: id.uuidString.lowercased(),
            listingId: conversation.listing.id.uuidString.lowercased(),
            title: conversation.listing.title,
            price: conversation.listing.price.map(context.reader.money) ?? say("Free"),
            thumbnail: conversation.listing.thumbnailUrl,
            other: (conversation.buyer.username == me ? conversation.seller : conversation.buyer).displayName,
            otherUsername: (conversation.buyer.username == me ? conversation.seller : conversation.buyer).username,
            live: try await live(context.identity, id, reader: context.reader),
            open: open,
            deal: deal,
            meet: open ? try await meetForm(context, opened: deal.offer?.canCancel == true && deal.meetup == nil) : nil
        )
        return renderer.render("market/conversation", model)
    }

    func meetForm(_ context: AuthenticatedContext, opened: Bool) async throws -> MeetForm? {
        guard let membership = try await market.membership(context.identity),
            let campus = try await market.allCampuses().first(where: { $0.id == membership.campus.id })
        else { return nil }
        let spots = try await market.safeSpots(campus: campus.id)
        let refused = context.page.form("meetup")
        let form =
            refused
            ?? FormState(names: ["spotId", "latitude", "longitude", "at"]).with(
                "spotId",
                spots.first?.id.uuidString.lowercased() ?? ""
            )
            // The next whole hour at least an hour away, in the reader's time zone: a first suggestion people change.
            .with("at", context.reader.input(context.reader.nextWholeHour()))
        let chosen = form.fields["spotId"]?.value ?? ""
        let markers = spots.map {
            [
                "id": $0.id.uuidString.lowercased(), "name": $0.name, "latitude": "\($0.latitude)",
                "longitude": "\($0.longitude)",
            ]
        }
        return MeetForm(
            form: form,
            spots: spots.map {
                SpotOption(
                    value: $0.id.uuidString.lowercased(),
                    label: $0.name,
                    selected: $0.id.uuidString.lowercased() == chosen
                )
            },
            center: "\(campus.center.latitude),\(campus.center.longitude)",
            markers: String(decoding: try JSONEncoder().encode(markers), as: UTF8.self),
            map: map,
            open: refused != nil || opened
        )
    }

    @Sendable func conversationLive(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "conversation")
        return renderer.render("market/conversation-live", try await live(context.identity, id, reader: context.reader))
    }

    @Sendable func sendMessage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "conversation")
        let path = "/market/conversations/\(id.uuidString.lowercased())"
        let script = request.headers[.accept]?.contains("application/json") == true
        do {
            _ = try await market.send(context.identity, conversation: id, text: form["text"])
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            if script { return error.problemResponse() }
            return renderer.refused(
                alert: error.errors?.map(\.message).joined(separator: " ") ?? error.title,
                returnTo: path
            )
        }
        if script { return try .json(Acknowledgement(status: "sent")) }
        return PageRenderer.seeOther(path)
    }

    @Sendable func deleteConversation(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        try await market.deleteConversation(context.identity, try Query.id(context.parameters, "id", "conversation"))
        return PageRenderer.seeOther("/market/conversations?notice=deleted")
    }
}
