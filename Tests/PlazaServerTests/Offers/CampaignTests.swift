import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Campaigns: linted at every save, refused with a blocking finding, reviewed by an admin (a change to a running one
/// too, with its diff), paused and resumed; the customer's offer settings and subscriptions.
@Suite struct CampaignTests {
    let square = Coordinate(latitude: 48.1374, longitude: 11.5755)

    static func coupon(
        title: String = "Morning bread",
        target: CampaignTarget = CampaignTarget(),
        now: Date = Date()
    ) -> CampaignContent {
        CampaignContent(
            kind: .coupon,
            title: title,
            body: "10 % off any loaf before ten",
            startsAt: now.addingTimeInterval(-60),
            endsAt: now.addingTimeInterval(7 * 86_400),
            target: target,
            delivery: [.automatic, .manual],
            discount: CouponDiscount(percentOff: 10),
            totalRedemptions: 50
        )
    }

    func queueItem(_ client: any TestClientProtocol, admin: String, campaign: UUID) async throws -> ReviewItem {
        let queue = try await client.send(.get, "/v1/admin/review-queue?kind=campaign", token: admin).decode(
            Page<ReviewItem>.self
        )
        return try #require(queue.items.first { $0.subjectId == campaign })
    }

    @Test(arguments: TestEngine.enabled)
    func aCampaignIsLintedReviewedAndRunsOnlyOnceApproved(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let (tokens, business, _) = try await PlacesDriver(client).shop(
                owner: "bruno",
                name: "Bruno's Bakery",
                at: square
            )
            let bruno = tokens.accessToken
            let admin = try await AdminTests.admin(client, services)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken

            // Women, of any age: could profile minors, so it is saved as a draft but never submitted.
            let created = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/campaigns",
                json: Self.coupon(target: CampaignTarget(genders: [.female])),
                token: bruno
            )
            #expect(created.status == .created, "\(created.text)")
            let draft = try created.decode(Campaign.self)
            #expect(draft.state == .draft && draft.businessName == "Bruno's Bakery")
            #expect(draft.findings.map(\.code) == [FindingCode.targetsMinors])
            let refused = try await client.send(.post, "/v1/campaigns/\(draft.id)/submit", token: bruno)
            #expect(refused.status == .unprocessableContent && refused.problem?.code == .campaignRefused)
            #expect(refused.problem?.findings?.map(\.code) == [FindingCode.targetsMinors])
            #expect(refused.problem?.errors?.map(\.field) == ["target.ageMin"])
            #expect(
                try await client.send(.get, "/v1/campaigns/\(draft.id)", token: bruno).decode(Campaign.self).state
                    == .draft
            )
            #expect(try await client.send(.get, "/v1/campaigns/\(draft.id)", token: anna).status == .notFound)

            let adults = CampaignChange(target: CampaignTarget(ageMin: 18, genders: [.female]))
            let fixed = try await client.send(.patch, "/v1/campaigns/\(draft.id)", json: adults, token: bruno).decode(
                Campaign.self
            )
            #expect(fixed.findings.isEmpty && fixed.content.target.ageMin == 18)
            let submitted = try await client.send(.post, "/v1/campaigns/\(draft.id)/submit", token: bruno).decode(
                Campaign.self
            )
            #expect(submitted.state == .submitted)

            // The admin rejects with a reason the merchant reads; a change makes it a draft again.
            var item = try await queueItem(client, admin: admin, campaign: draft.id)
            #expect(item.kind == .campaign && item.subject == "“Morning bread” by Bruno's Bakery")
            // Never approved: the admin reads every field it sets.
            #expect(
                item.diff.first == ReviewChange(field: "title", before: nil, after: "Morning bread")
                    && item.diff.allSatisfy { $0.before == nil }
            )
            #expect(item.diff.contains { $0.field == "body" && $0.after == "10 % off any loaf before ten" })
            // Settings in words, as the merchant's page writes them.
            #expect(
                item.diff.contains {
                    $0.field == "target" && $0.after == "aged 18 or over, women within 150 m of its locations"
                }
            )
            #expect(item.diff.contains { $0.field == "discount" && $0.after == "10 % off" })
            let reason = ReviewReason(reason: "Say which loaves count.")
            #expect(
                try await client.send(.post, "/v1/admin/review-queue/\(item.id)/reject", json: reason, token: admin)
                    .status == .ok
            )
            let rejected = try await client.send(.get, "/v1/campaigns/\(draft.id)", token: bruno).decode(Campaign.self)
            #expect(rejected.state == .rejected && rejected.rejectionReason == "Say which loaves count.")
            let again = CampaignChange(body: "10 % off any sourdough loaf before ten")
            #expect(
                try await client.send(.patch, "/v1/campaigns/\(draft.id)", json: again, token: bruno).decode(
                    Campaign.self
                ).state == .draft
            )
            _ = try await client.send(.post, "/v1/campaigns/\(draft.id)/submit", token: bruno)
            item = try await queueItem(client, admin: admin, campaign: draft.id)
            #expect(
                try await client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: admin).status == .ok
            )
            let active = try await client.send(.get, "/v1/campaigns/\(draft.id)", token: bruno).decode(Campaign.self)
            #expect(active.state == .active && active.rejectionReason == nil)

            // Paused and resumed; a wrong state answers with the state it is in.
            #expect(
                try await client.send(.post, "/v1/campaigns/\(draft.id)/pause", token: bruno).decode(Campaign.self)
                    .state == .paused
            )
            let twice = try await client.send(.post, "/v1/campaigns/\(draft.id)/pause", token: bruno)
            #expect(
                twice.status == .conflict && twice.problem?.code == .stateConflict
                    && twice.problem?.currentState == "paused"
            )
            #expect(
                try await client.send(.post, "/v1/campaigns/\(draft.id)/resume", token: bruno).decode(Campaign.self)
                    .state == .active
            )

            // A change to a running campaign waits for review, with its diff; the approved version runs meanwhile.
            let renamed = try await client.send(
                .patch,
                "/v1/campaigns/\(draft.id)",
                json: CampaignChange(title: "Sourdough mornings"),
                token: bruno
            )
            .decode(Campaign.self)
            #expect(renamed.state == .active && renamed.pendingChange && renamed.content.title == "Sourdough mornings")
            item = try await queueItem(client, admin: admin, campaign: draft.id)
            #expect(item.diff == [ReviewChange(field: "title", before: "Morning bread", after: "Sourdough mornings")])
            _ = try await client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: admin)
            let settled = try await client.send(.get, "/v1/campaigns/\(draft.id)", token: bruno).decode(Campaign.self)
            #expect(settled.state == .active && !settled.pendingChange)
            let listed = try await client.send(.get, "/v1/businesses/\(business.id)/campaigns", token: bruno).decode(
                Page<Campaign>.self
            )
            #expect(listed.items.map(\.content.title) == ["Sourdough mornings"])

            // The merchant heard of each decision (account alerts are mailed by default).
            let subjects = try await AccountsDriver(client).subjects(
                to: "bruno@example.com",
                until: { subjects in subjects.filter { $0 == "Your campaign is approved" }.count >= 2 }
            )
            #expect(subjects.filter { $0 == "Your campaign is approved" }.count == 2)
            #expect(subjects.contains("Your campaign was not approved"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func anUnapprovedMerchantKeepsDraftsAndBadFieldsAreNamed(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let accounts = AccountsDriver(client)
            let dora = try await accounts.signedIn("dora", role: .merchant, approved: false).accessToken
            let places = PlacesDriver(client)
            let business = try await places.createBusiness(name: "Dora's Flowers", category: .retail, token: dora)
            let draft = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/campaigns",
                json: Self.coupon(),
                token: dora
            )
            #expect(draft.status == .created)
            let submit = try await client.send(
                .post,
                "/v1/campaigns/\(try draft.decode(Campaign.self).id)/submit",
                token: dora
            )
            #expect(submit.status == .forbidden && submit.problem?.code == .merchantNotApproved)

            var bad = Self.coupon()
            bad.discount = nil
            bad.target = CampaignTarget(locationIds: [UUID()])
            let refused = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/campaigns",
                json: bad,
                token: dora
            )
            #expect(
                refused.status == .unprocessableContent
                    && Set(refused.problem?.errors?.map(\.field) ?? []) == ["discount", "target.locationIds"]
            )
            // Optional fields are erased by name; the lint then sees an uncapped coupon.
            let draftID = try draft.decode(Campaign.self).id
            let cleared = try await client.send(
                .patch,
                "/v1/campaigns/\(draftID)",
                json: CampaignChange(clear: ["totalRedemptions"]),
                token: dora
            )
            #expect(try cleared.decode(Campaign.self).content.totalRedemptions == nil)
            #expect(try cleared.decode(Campaign.self).findings.map(\.code).contains(FindingCode.noCap))
            let unknown = try await client.send(
                .patch,
                "/v1/campaigns/\(draftID)",
                json: CampaignChange(clear: ["title"]),
                token: dora
            )
            #expect(unknown.status == .unprocessableContent && unknown.problem?.errors?.map(\.field) == ["clear"])
            let stranger = try await accounts.signedIn("anna").accessToken
            let foreign = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/campaigns",
                json: Self.coupon(),
                token: stranger
            )
            #expect(foreign.status == .forbidden || foreign.status == .notFound)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func settingsChangeOnlyWhatIsSentAndSubscriptionsComeAndGo(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let (_, business, _) = try await PlacesDriver(client).shop(
                owner: "bruno",
                name: "Bruno's Bakery",
                at: square
            )
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let standard = try await client.send(.get, "/v1/me/offer-settings", token: anna).decode(OfferSettings.self)
            #expect(standard == OfferSettings())
            #expect(
                standard.ads == .subscribed && standard.maxPerDay == 3 && !standard.use.age && !standard.use.gender
                    && !standard.use.student
            )

            let change = OfferSettingsChange(
                coupons: .nearby,
                maxPerDay: 5,
                quietHours: .some(QuietHours(from: "22:00", until: "07:00")),
                use: TargetingUseChange(student: true)
            )
            let changed = try await client.send(.put, "/v1/me/offer-settings", json: change, token: anna).decode(
                OfferSettings.self
            )
            #expect(
                changed.coupons == .nearby && changed.ads == .subscribed && changed.maxPerDay == 5
                    && changed.use == TargetingUse(student: true)
            )
            let quietOff = try await client.sendRaw(
                .put,
                "/v1/me/offer-settings",
                body: #"{"quietHours": null}"#,
                token: anna
            ).decode(
                OfferSettings.self
            )
            #expect(quietOff.quietHours == nil && quietOff.maxPerDay == 5)
            let tooMany = try await client.send(
                .put,
                "/v1/me/offer-settings",
                json: OfferSettingsChange(maxPerDay: 30),
                token: anna
            )
            #expect(tooMany.status == .unprocessableContent && tooMany.problem?.errors?.map(\.field) == ["maxPerDay"])
            let nullLevel = try await client.sendRaw(
                .put,
                "/v1/me/offer-settings",
                body: #"{"ads": null}"#,
                token: anna
            )
            #expect(nullLevel.status == .badRequest || nullLevel.status == .unprocessableContent)

            let subscribed = try await client.send(
                .put,
                "/v1/me/subscriptions/\(business.id)",
                json: SubscriptionRequest(ads: true, coupons: false),
                token: anna
            )
            #expect(subscribed.status == .ok)
            let subscription = try subscribed.decode(OfferSubscription.self)
            #expect(subscription.business.name == "Bruno's Bakery" && subscription.ads && !subscription.coupons)
            let list = try await client.send(.get, "/v1/me/subscriptions", token: anna).decode(
                Page<OfferSubscription>.self
            )
            #expect(list.items.map(\.business.id) == [business.id])
            #expect(
                try await client.send(.delete, "/v1/me/subscriptions/\(business.id)", token: anna).status == .noContent
            )
            #expect(
                try await client.send(.get, "/v1/me/subscriptions", token: anna).decode(Page<OfferSubscription>.self)
                    .items.isEmpty
            )
            #expect(
                try await client.send(.put, "/v1/me/subscriptions/\(UUID())", json: SubscriptionRequest(), token: anna)
                    .status == .notFound
            )
        }
    }
}
