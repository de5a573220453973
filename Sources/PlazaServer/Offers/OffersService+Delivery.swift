import Foundation
import PlazaCore
import SQLKit

/// Delivery: a running campaign reaches a customer who comes within its radius (in the transaction of their location
/// update), its business's subscribers when it starts, or the customers present when staff push it. Each customer gets
/// each campaign once, within their settings: the level per kind, muted businesses, quiet hours, the daily limit, and
/// the profile facts they allowed (never a minor's).
extension OffersService {
    /// A position older than this reaches no campaign (an upload of points recorded offline).
    static let positionFreshness: TimeInterval = 120

    /// Offers' part of every publishing transaction: a fresh position outside private zones meets the campaigns around
    /// it; the offers it delivers follow as live events and alerts.
    func deliveryRecorder() -> EventBus.Recorder {
        let service = self
        return EventBus.Recorder(reacting: { messages, db in
            var follow: [FeedMessage] = []
            let now = Date()
            for case .position(let position) in messages where position.zoneId == nil {
                guard position.recordedAt >= now.addingTimeInterval(-Self.positionFreshness) else { continue }
                try await service.loadIndex(on: db)
                let candidates = service.index.candidates(near: position.coordinate)
                guard !candidates.isEmpty else { continue }
                let reaching = candidates.map {
                    Reaching(campaign: $0.campaign, reach: $0.reach, distance: $0.distance)
                }
                follow += try await service.deliver(reaching, to: position.userId, now: now, on: db)
            }
            return (!follow.isEmpty, follow)
        })
    }

    /// Keeps the index in step: campaigns or locations changed, or the feed may have lost messages.
    func listen() {
        let index = index
        events.subscribe(
            { message in
                switch message {
                case .campaignsChanged, .catalogChanged: index.invalidate()
                case .reviewed(let decision) where decision.kind == .merchant: index.invalidate()
                default: break
                }
            },
            resync: { index.invalidate() }
        )
    }

    /// Builds the index from the active campaigns with automatic delivery, at the locations each names.
    func loadIndex(on db: any SQLDatabase) async throws {
        guard !index.isLoaded else { return }
        let generation = index.generation
        try await businesses.catalog.prepare(using: database.sql)
        var spots: [(CampaignIndex.Spot, Coordinate, CampaignIndex.Reach)] = []
        for record in try await store.activeCampaigns(on: db) {
            let content = record.running
            guard content.delivery.contains(.automatic) else { continue }
            let named = content.target.locationIds.map(Set.init)
            for location in businesses.catalog.locations(of: record.businessId)
            where named?.contains(location.id) ?? true {
                let name = businesses.catalog.entry(location.id)?.businessName ?? ""
                let radius = Double(content.target.radiusMeters ?? CampaignRules.defaultRadiusMeters)
                spots.append(
                    (
                        CampaignIndex.Spot(campaign: record.id, location: location.id), location.coordinate,
                        CampaignIndex.Reach(
                            businessId: record.businessId,
                            businessName: name,
                            radius: radius,
                            content: content
                        )
                    )
                )
            }
        }
        index.load(spots, generation: generation)
    }

    /// A campaign that starts running reaches its business's subscribers (of its kind), wherever they are.
    func broadcast(_ record: CampaignRecord, now: Date, on db: any SQLDatabase) async throws -> [FeedMessage] {
        let content = record.running
        let subscribers = try await store.subscribers(business: record.businessId, kind: content.kind, on: db)
        guard !subscribers.isEmpty else { return [] }
        let name =
            try await businesses.store.businesses(ids: [record.businessId], on: db)[record.businessId]?.name ?? ""
        let reach = CampaignIndex.Reach(businessId: record.businessId, businessName: name, radius: 0, content: content)
        var messages: [FeedMessage] = []
        for user in subscribers {
            messages += try await deliver(
                [Reaching(campaign: record.id, reach: reach, distance: nil)],
                to: user,
                now: now,
                on: db
            )
        }
        return messages
    }

    /// Staff push an active campaign with manual delivery to the customers in the business's locations now; answers how
    /// many it reached (those whose settings and the target allow, once each).
    func push(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws -> CampaignPush {
        let (record, business) = try await member(identity, campaign: id)
        let content = record.running
        guard record.state == .active, content.startsAt <= now, now < content.endsAt else {
            throw Self.stateConflict(record.state, phrase("Only an active campaign is pushed."), detail: nil)
        }
        guard content.delivery.contains(.manual) else {
            throw PlazaError.validation(
                field: "delivery",
                phrase("This campaign is delivered automatically only; add manual delivery to push it.")
            )
        }
        let present = try await places.presence(identity, business: record.businessId, now: now)
        let reach = CampaignIndex.Reach(
            businessId: record.businessId,
            businessName: business.name,
            radius: 0,
            content: content
        )
        let store = store
        return try await events.transaction { db in
            var messages: [FeedMessage] = []
            for user in try await store.userIDs(usernames: present.map(\.username), on: db) {
                messages += try await self.deliver(
                    [Reaching(campaign: id, reach: reach, distance: 0)],
                    to: user,
                    now: now,
                    on: db
                )
            }
            let reached = messages.filter { if case .event = $0 { true } else { false } }.count
            return (CampaignPush(campaignId: id, present: present.count, delivered: reached), messages)
        }
    }

    /// An offer as its customer sees it.
    static func offer(
        _ id: UUID,
        _ content: CampaignContent,
        business: Party,
        receivedAt: Date,
        claim: CouponClaim? = nil,
        reasons: [OfferReason]
    )
        -> Offer
    {
        Offer(
            id: id,
            kind: content.kind,
            title: content.title,
            body: content.body,
            business: business,
            discount: content.discount,
            minimumSpend: content.minimumSpend,
            maxDiscount: content.maxDiscount,
            endsAt: content.endsAt,
            receivedAt: receivedAt,
            claim: claim,
            why: OfferWhy(reasons: reasons)
        )
    }

    /// A campaign that could reach someone now, and how far they are from it (`nil` when not by place).
    struct Reaching: Sendable {
        var campaign: UUID
        var reach: CampaignIndex.Reach
        var distance: Double?
    }

    /// Delivers what of `reaching` the customer's settings and the campaigns' targets allow; answers the live events and
    /// alerts of what was delivered.
    func deliver(_ reaching: [Reaching], to user: UUID, now: Date, on db: any SQLDatabase) async throws -> [FeedMessage]
    {
        // The customer's own choices first, in two reads: most candidates end here (their level, muted shops), and
        // then nothing else is read (`plaza bench offers`: per-candidate reads made a declined update 6× slower).
        let settings = try await store.settings(user: user, on: db) ?? OfferSettings()
        let subscriptions = try await store.subscriptions(
            user: user,
            businesses: Set(reaching.map(\.reach.businessId)),
            on: db
        )
        let eligible = reaching.compactMap { candidate -> (Reaching, subscribed: Bool)? in
            let (content, business) = (candidate.reach.content, candidate.reach.businessId)
            let subscription = subscriptions[business]
            let subscribed = (content.kind == .ad ? subscription?.ads : subscription?.coupons) ?? false
            guard content.startsAt <= now, now < content.endsAt,
                OfferRules.admits(
                    level: settings.level(content.kind),
                    muted: settings.muted.contains(business),
                    subscribed: subscribed,
                    near: candidate.distance != nil
                )
            else { return nil }
            return (candidate, subscribed)
        }
        guard !eligible.isEmpty, let facts = try await store.audienceFacts(user: user, on: db) else { return [] }
        let zone = facts.timeZone.flatMap(TimeZone.init(identifier:)) ?? calendar.timeZone
        guard NotificationRules.quietUntil(settings.quietHours, now: now, timeZone: zone) == nil else { return [] }
        var day = Calendar(identifier: .gregorian)
        day.timeZone = zone
        var count = try await store.receivedCount(user: user, since: day.startOfDay(for: now), on: db)
        guard count < settings.maxPerDay else { return [] }
        let already = try await store.received(user: user, of: eligible.map(\.0.campaign), on: db)
        var messages: [FeedMessage] = []
        for (candidate, subscribed) in eligible
        where !already.contains(candidate.campaign) && count < settings.maxPerDay {
            let (content, business) = (candidate.reach.content, candidate.reach.businessId)
            let lastPaid =
                content.target.pastCustomers == nil
                ? nil : try await store.lastPaid(user: user, business: business, on: db)
            let audience = OfferAudience(
                age: OfferRules.age(birthDate: facts.birthDate, now: now),
                gender: facts.gender,
                student: facts.student,
                use: settings.use,
                subscribed: subscribed,
                lastPaid: lastPaid
            )
            let occasion = OfferOccasion(
                businessName: candidate.reach.businessName,
                distance: candidate.distance,
                at: now,
                calendar: calendar
            )
            guard let reasons = OfferRules.reasons(content, for: audience, on: occasion),
                try await store.insertOffer(
                    campaign: candidate.campaign,
                    user: user,
                    business: business,
                    reasons: reasons,
                    at: now,
                    on: db
                )
            else { continue }
            count += 1
            let offer = Self.offer(
                candidate.campaign,
                content,
                business: Party(kind: .business, id: business, name: candidate.reach.businessName),
                receivedAt: now,
                reasons: reasons
            )
            messages.append(
                .event(
                    audience: [user],
                    event: PlazaEvent(
                        type: OfferEventType.received,
                        occurredAt: now,
                        data: try JSONValue(encoding: offer)
                    )
                )
            )
            // The business's own words stay as it wrote them; the sentence around them is the customer's language's.
            messages.append(
                .alert(
                    user: user,
                    kind: .offers,
                    link: "/offers/\(candidate.campaign.uuidString.lowercased())",
                    Wording(
                        key: "alert.offer.received",
                        values: [
                            "business": candidate.reach.businessName, "title": content.title, "body": content.body,
                        ]
                    )
                )
            )
        }
        return messages
    }
}
