import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Meetups and the handshake: either side proposes a safe spot (or a point) and a time, the other accepts or proposes
/// another. In the meetup's window (30 minutes before to 2 hours after) the seller shows a single-use signed QR and a
/// six-digit code; the buyer's scan or typed code marks the listing sold to them and releases the held payment.
extension MarketService {
    func proposeMeetup(
        _ identity: Identity,
        conversation id: UUID,
        _ request: MeetupRequest,
        now: Date = Date()
    ) async throws -> Meetup {
        let membership = try await requireStudent(identity, now: now)
        let conversation = try await side(identity, id)
        if try await store.blocked(conversation.buyerId, conversation.sellerId, on: database.sql) {
            throw Self.blockedError
        }
        guard let listing = try await listings.listing(conversation.listingId, on: database.sql) else {
            throw PlazaError.notFound("listing")
        }
        guard [.active, .reserved].contains(listing.state) else { throw Self.finished(listing.state) }
        guard let campus = try await store.campus(membership.campus.id, on: database.sql) else {
            throw PlazaError.notFound("campus")
        }
        let problems = DealRules.problems(request, center: campus.center, now: now)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let place: MeetupPlace
        if let spotId = request.spotId {
            guard let spot = try await safeSpots(campus: campus.id).first(where: { $0.id == spotId }) else {
                throw PlazaError.validation(field: "spotId", phrase("Pick one of your campus's safe spots."))
            }
            place = MeetupPlace(spotId: spot.id, name: spot.name, latitude: spot.latitude, longitude: spot.longitude)
        } else {
            place = MeetupPlace(
                spotId: nil,
                name: nil,
                latitude: request.latitude ?? 0,
                longitude: request.longitude ?? 0
            )
        }
        let record = DealStore.MeetupRecord(
            id: UUID(),
            conversationId: id,
            listingId: listing.id,
            proposedBy: identity.user.id,
            place: place,
            at: request.at,
            windowEnd: DealRules.window(at: request.at).end,
            state: .proposed,
            handshakeAttempts: 0,
            createdAt: now,
            proposerUsername: identity.user.username
        )
        let deals = deals
        let summary = Wording(
            title: place.name == nil
                ? phrase("{name} proposes to meet at a point on the map for {title}")
                : phrase("{name} proposes to meet at {place} for {title}"),
            body: "",
            values: ["name": Self.name(identity.user), "place": place.name ?? "", "title": listing.title]
        )
        return try await events.transaction(publishing: { db in
            try await deals.supersede(conversation: id, except: record.id, from: [.proposed], now: now, on: db)
            try await deals.insert(record, on: db)
            let dto = record.dto
            return (
                dto,
                try Self.dealMessages(
                    id,
                    to: conversation.other(identity.user.id),
                    from: identity.user.id,
                    summary,
                    meetup: dto,
                    now: now
                )
            )
        })
    }

    func meetups(_ identity: Identity, conversation id: UUID, now: Date = Date()) async throws -> [Meetup] {
        _ = try await requireStudent(identity, now: now)
        _ = try await side(identity, id)
        return try await deals.meetups(conversation: id, on: database.sql).map(\.dto)
    }

    /// The side that did not propose accepts (every other meetup of the conversation is then superseded) or declines.
    func answerMeetup(_ identity: Identity, meetup id: UUID, accept: Bool, now: Date = Date()) async throws -> Meetup {
        _ = try await requireStudent(identity, now: now)
        let (meetup, conversation) = try await meetupSide(identity, id)
        guard meetup.state == .proposed, meetup.windowEnd > now, meetup.proposedBy != identity.user.id else {
            throw Self.meetupConflict(
                meetup,
                meetup.proposedBy == identity.user.id && meetup.state == .proposed
                    ? phrase("The other side answers your proposal.") : nil
            )
        }
        if try await store.blocked(conversation.buyerId, conversation.sellerId, on: database.sql) {
            throw Self.blockedError
        }
        let deals = deals
        let title = try await listings.listing(meetup.listingId, on: database.sql)?.title ?? "the item"
        let summary = Wording(
            title: accept
                ? phrase("{name} accepted the meetup for {title}") : phrase("{name} declined the meetup for {title}"),
            body: "",
            values: ["name": Self.name(identity.user), "title": title]
        )
        return try await events.transaction(publishing: { db in
            guard
                try await deals.move(
                    meetup: id,
                    from: [.proposed],
                    to: accept ? .accepted : .declined,
                    now: now,
                    on: db
                )
            else {
                throw Self.meetupConflict(meetup, nil)
            }
            if accept {
                try await deals.supersede(
                    conversation: meetup.conversationId,
                    except: id,
                    from: [.proposed, .accepted],
                    now: now,
                    on: db
                )
            }
            guard let changed = try await deals.meetup(id, on: db)?.dto else { throw PlazaError.notFound("meetup") }
            return (
                changed,
                try Self.dealMessages(
                    meetup.conversationId,
                    to: meetup.proposedBy,
                    from: identity.user.id,
                    summary,
                    meetup: changed,
                    now: now
                )
            )
        })
    }

    /// Either side calls a proposed or accepted meetup off (an offer and its held money stay: propose another time).
    func cancelMeetup(_ identity: Identity, meetup id: UUID, now: Date = Date()) async throws -> Meetup {
        _ = try await requireStudent(identity, now: now)
        let (meetup, conversation) = try await meetupSide(identity, id)
        let deals = deals
        let title = try await listings.listing(meetup.listingId, on: database.sql)?.title ?? "the item"
        let summary = Wording(
            title: phrase("{name} called off the meetup for {title}"),
            body: "",
            values: ["name": Self.name(identity.user), "title": title]
        )
        return try await events.transaction(publishing: { db in
            guard try await deals.move(meetup: id, from: [.proposed, .accepted], to: .cancelled, now: now, on: db)
            else {
                throw Self.meetupConflict(meetup, nil)
            }
            guard let changed = try await deals.meetup(id, on: db)?.dto else { throw PlazaError.notFound("meetup") }
            return (
                changed,
                try Self.dealMessages(
                    meetup.conversationId,
                    to: conversation.other(identity.user.id),
                    from: identity.user.id,
                    summary,
                    meetup: changed,
                    now: now
                )
            )
        })
    }

    // MARK: Helpers

    /// The meetup and its conversation when the caller is one of its sides; 404 otherwise.
    func meetupSide(
        _ identity: Identity,
        _ id: UUID
    ) async throws -> (DealStore.MeetupRecord, ChatStore.ConversationRecord) {
        guard let meetup = try await deals.meetup(id, on: database.sql),
            let conversation = try await chat.conversation(meetup.conversationId, on: database.sql),
            conversation.side(identity.user.id) != nil
        else { throw PlazaError.notFound("meetup") }
        return (meetup, conversation)
    }

    static func meetupConflict(_ meetup: DealStore.MeetupRecord, _ title: String?) -> PlazaError {
        var error = PlazaError(
            .conflict,
            .stateConflict,
            title ?? Self.meetupIs(meetup.state),
            detail: phrase("Propose another meetup in the conversation.")
        )
        error.currentState = meetup.state.rawValue
        return error
    }

    /// "This meetup is declined.": a sentence per state, so that each reads in the reader's language.
    static func meetupIs(_ state: MeetupState) -> String {
        switch state {
        case .proposed: phrase("This meetup is proposed.")
        case .accepted: phrase("This meetup is accepted.")
        case .declined: phrase("This meetup is declined.")
        case .superseded: phrase("This meetup is superseded.")
        case .cancelled: phrase("This meetup is cancelled.")
        case .completed: phrase("This meetup is completed.")
        case .expired: phrase("This meetup is expired.")
        }
    }
}

/// Sharing where one is for a meetup: each side opts in, only the other side sees it, from 15 minutes before the meetup
/// until it ends or the handshake, and only the newest position (places' live index), never inside a private zone.
extension MarketService {
    func shareLocation(
        _ identity: Identity,
        meetup id: UUID,
        on: Bool,
        now: Date = Date()
    ) async throws -> MeetupLocation {
        _ = try await requireStudent(identity, now: now)
        let (meetup, conversation) = try await meetupSide(identity, id)
        guard meetup.state == .accepted || !on else {
            throw Self.meetupConflict(meetup, phrase("Share where you are once the meetup is agreed."))
        }
        try await deals.setSharing(id, buyer: conversation.buyerId == identity.user.id, on: on, db: database.sql)
        return try await meetupLocation(identity, meetup: id, now: now)
    }

    func meetupLocation(_ identity: Identity, meetup id: UUID, now: Date = Date()) async throws -> MeetupLocation {
        _ = try await requireStudent(identity, now: now)
        let (meetup, conversation) = try await meetupSide(identity, id)
        let buyer = conversation.buyerId == identity.user.id
        let (mine, theirs) =
            buyer ? (meetup.buyerShares, meetup.sellerShares) : (meetup.sellerShares, meetup.buyerShares)
        let from = meetup.at.addingTimeInterval(-DealRules.shareBefore)
        var other: SharedPosition? = nil
        if theirs, meetup.state == .accepted, now >= from, now < meetup.windowEnd, let positions {
            other = try await positions.newestPosition(
                of: conversation.other(identity.user.id),
                since: max(from, now.addingTimeInterval(-DealRules.freshPosition))
            )
        }
        return MeetupLocation(sharing: mine, otherSharing: theirs, from: from, until: meetup.windowEnd, other: other)
    }
}
