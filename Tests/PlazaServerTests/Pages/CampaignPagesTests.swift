import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The merchant's campaign pages: the first coupon written in the editor (a refused one first, each problem beside its
/// field), the lint on the draft, a refused submission, a fix, review, and the running coupon paused, resumed and
/// pushed to the people in the shop; nobody else sees any of it.
@Suite struct CampaignPagesTests {
    let square = Coordinate(latitude: 48.1374, longitude: 11.5755)

    /// A `datetime-local` value `days` from now, in UTC (the reader's zone when the browser has not told it).
    static func moment(days: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .gmt
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: Date().addingTimeInterval(days * 86_400))
    }

    static func text(_ response: TestResponse) -> String {
        response.text.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&#x27;", with: "'")
    }

    @Test func aMerchantWritesACouponGetsItApprovedAndRunsIt() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let (_, business, _) = try await PlacesDriver(client).shop(
                owner: "bruno",
                name: "Bruno's Bakery",
                at: square
            )
            let admin = try await AdminTests.admin(client, services)
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "bruno", "password": AccountsDriver.password]
            )
            let businessId = business.id.uuidString.lowercased()
            let list = "/offers/businesses/\(businessId)/campaigns"

            // The merchant finds the pages from the business's loyalty counter; an empty list walks them in.
            let counter = Self.text(try await browser.get("/loyalty/counter/\(businessId)"))
            #expect(counter.contains(#"href="\#(list)""#) && counter.contains("Offers and coupons"))
            let empty = Self.text(try await browser.get(list))
            #expect(empty.contains("No campaigns yet: write your first coupon") && empty.contains("New campaign"))
            let editor = Self.text(try await browser.get("\(list)/new"))
            #expect(
                editor.contains("data-campaign-editor") && editor.contains(#"type="datetime-local""#)
                    && editor.contains("As customers will see it")
            )
            // A new campaign narrows nothing: no profile box is ticked (a browser would send it, and the lint refuse it).
            #expect(
                !editor.contains(#"name="studentsOnly" value="1" checked"#)
                    && !editor.contains(#"name="subscribersOnly" value="1" checked"#)
            )
            #expect(editor.contains(#"name="automatic" value="1" checked"#))
            // Who it can reach: nobody has subscribed or opened up to nearby shops yet, so fewer than five.
            #expect(editor.contains("Fewer than 5 people match now."))
            let estimate = try await browser.post(
                "\(list)/reach",
                ["kind": "ad", "studentsOnly": "1"],
                csrf: PageSession.csrfToken(in: editor)
            )
            #expect(
                estimate.status == .ok && Self.text(estimate).contains(#""text":"Fewer than 5 people match now.""#),
                "\(Self.text(estimate))"
            )

            // A coupon without a title comes back with the error beside the field and what was typed kept.
            var fields = [
                "kind": "coupon", "title": "", "body": "10 % off any loaf before ten",
                "startsAt": Self.moment(days: -0.01),
                "endsAt": Self.moment(days: 7), "female": "1", "manual": "1", "percentOff": "10", "perCustomer": "1",
                "radiusMeters": "abc",
            ]
            let refused = try await browser.post(list, fields, csrf: PageSession.csrfToken(in: editor))
            #expect(refused.status == .seeOther && refused.headers[.location] == "\(list)/new")
            let shown = Self.text(try await browser.follow(refused))
            #expect(shown.contains(#"id="campaign-title-error""#) && shown.contains("Give the campaign a title."))
            #expect(shown.contains(#"id="campaign-radiusMeters-error""#) && shown.contains("Type a whole number"))
            #expect(
                shown.contains("10 % off any loaf before ten") && shown.contains("10 % off"),
                "the typed body and the preview stay"
            )

            // Saved as a draft: women of any age could be minors (blocks), and nothing caps the claims (warns).
            fields["title"] = "Morning bread"
            fields["radiusMeters"] = ""
            let saved = try await browser.submit("\(list)/new", to: list, fields)
            let location = try #require(saved.headers[.location])
            #expect(location.hasPrefix("/offers/campaigns/") && location.hasSuffix("?notice=saved"))
            let path = String(location.prefix { $0 != "?" })
            let id = try #require(UUID(uuidString: String(path.dropFirst("/offers/campaigns/".count))))
            let draft = Self.text(try await browser.follow(saved))
            #expect(draft.contains("Saved as a draft. Submit it for review when it is ready."))
            #expect(
                draft.contains(#"data-state="draft""#) && draft.contains("Morning bread") && draft.contains("10 % off")
            )
            #expect(draft.contains("Fix before submitting:") && draft.contains("could reach people under 18"))
            #expect(draft.contains("The admin weighs these:") && draft.contains("Nothing caps how many"))

            // Submitting is refused with the blocking finding as an alert.
            let blocked = Self.text(try await browser.follow(try await browser.submit(path, to: "\(path)/submit", [:])))
            #expect(blocked.contains(#"role="alert""#) && blocked.contains("Not sent for review: fix these first."))
            #expect(blocked.contains(#"data-state="draft""#))

            // The merchant fixes it in the editor: everyone nearby, 50 coupons.
            let edit = Self.text(try await browser.get("\(path)/edit"))
            #expect(edit.contains(#"value="Morning bread""#) && edit.contains(#"name="female" value="1" checked"#))
            fields.removeValue(forKey: "female")
            fields["totalRedemptions"] = "50"
            fields.removeValue(forKey: "kind")
            let fixed = Self.text(try await browser.follow(try await browser.submit("\(path)/edit", to: path, fields)))
            #expect(
                fixed.contains("Saved as a draft.") && !fixed.contains("Fix before submitting:")
                    && fixed.contains("claimed 0 of 50")
            )

            let submitted = Self.text(
                try await browser.follow(try await browser.submit(path, to: "\(path)/submit", [:]))
            )
            #expect(
                submitted.contains("Sent for review: an admin will approve or reject it.")
                    && submitted.contains(#"data-state="in review""#)
            )
            #expect(!submitted.contains("Submit for review</button>"))

            // The admin reads what it says beside the lint, then approves it; it runs.
            let item = try await CampaignTests().queueItem(client, admin: admin, campaign: id)
            let console = PageSession(client)
            _ = try await console.submit(
                "/login",
                to: "/login",
                ["login": AccountsDriver.admin, "password": AccountsDriver.password]
            )
            let review = try await console.get("/admin/review/\(item.id.uuidString.lowercased())").text
            #expect(review.contains("<strong>Discount</strong><br>10 % off</li>"), "settings read as words")
            #expect(
                review.contains("What it says") && review.contains("<strong>Title</strong><br>Morning bread</li>"),
                "\(review)"
            )
            #expect(
                try await client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: admin).status == .ok
            )
            let active = Self.text(try await browser.get(path))
            #expect(active.contains(#"data-state="active""#) && active.contains("Pause</button>"))
            #expect(active.contains("Push to customers in the shop now") && active.contains("Nothing delivered yet"))

            let paused = Self.text(try await browser.follow(try await browser.submit(path, to: "\(path)/pause", [:])))
            #expect(
                paused.contains("Paused: nobody receives it until you resume it.")
                    && paused.contains(#"data-state="paused""#)
            )
            #expect(paused.contains("Resume</button>") && !paused.contains("Push to customers in the shop now"))
            let again = Self.text(try await browser.follow(try await browser.submit(path, to: "\(path)/pause", [:])))
            #expect(again.contains(#"role="alert""#) && again.contains("Only an active campaign is paused."))
            let resumed = Self.text(try await browser.follow(try await browser.submit(path, to: "\(path)/resume", [:])))
            #expect(resumed.contains("Running again") && resumed.contains(#"data-state="active""#))

            // Staff push it to the people in the shop: one of the two there takes coupons.
            let places = PlacesDriver(client)
            let anna = try await places.sharingCustomer("anna").accessToken
            let carla = try await places.sharingCustomer("carla").accessToken
            _ = try await client.send(
                .put,
                "/v1/me/offer-settings",
                json: OfferSettingsChange(coupons: .nearby),
                token: anna
            )
            _ = try await client.send(
                .put,
                "/v1/me/offer-settings",
                json: OfferSettingsChange(coupons: OfferLevel.none),
                token: carla
            )
            for token in [anna, carla] { try await places.move(to: square, token: token) }
            let pushed = Self.text(try await browser.follow(try await browser.submit(path, to: "\(path)/push", [:])))
            #expect(pushed.contains("Sent to 1 of the 2 customers in the shop."), "\(pushed)")
            #expect(
                pushed.contains(#"<span>Delivered</span> <span class="amount">fewer than 5</span>"#),
                "one delivery is withheld"
            )
            #expect(pushed.contains(#"<svg class="chart""#) && !pushed.contains("Nothing delivered yet"))

            let listed = Self.text(try await browser.get(list))
            #expect(
                listed.contains("Morning bread") && listed.contains(#"data-state="active""#)
                    && listed.contains("claimed 0 of 50")
            )
            #expect(!listed.contains("No campaigns yet"))
        }
    }

    @Test func anotherCustomerCannotSeeOrActOnTheCampaigns() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let (owner, business, _) = try await PlacesDriver(client).shop(
                owner: "bruno",
                name: "Bruno's Bakery",
                at: square
            )
            let created = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/campaigns",
                json: CampaignTests.coupon(),
                token: owner.accessToken
            ).decode(Campaign.self)
            _ = try await AccountsDriver(client).signedIn("zoe")
            let zoe = PageSession(client)
            _ = try await zoe.submit("/login", to: "/login", ["login": "zoe", "password": AccountsDriver.password])
            let list = "/offers/businesses/\(business.id.uuidString.lowercased())/campaigns"
            let path = "/offers/campaigns/\(created.id.uuidString.lowercased())"
            for page in [list, "\(list)/new"] {
                let answer = try await zoe.get(page)
                #expect(
                    answer.status == .forbidden && answer.headers[.contentType]?.hasPrefix("text/html") == true,
                    "\(page)"
                )
            }
            for page in [path, "\(path)/edit"] {
                #expect(try await zoe.get(page).status == .notFound, "\(page)")
            }
            let home = try await zoe.get("/")
            let csrf = PageSession.csrfToken(in: home.text)
            for action in ["submit", "pause", "push"] {
                #expect(try await zoe.post("\(path)/\(action)", [:], csrf: csrf).status == .notFound, "\(action)")
            }
            #expect(try await zoe.post(path, ["title": "Mine now"], csrf: csrf).status == .notFound)
            let unchanged = try await client.send(.get, "/v1/campaigns/\(created.id)", token: owner.accessToken).decode(
                Campaign.self
            )
            #expect(unchanged.content.title == "Morning bread" && unchanged.state == .draft)
        }
    }

    @Test func aRejectedAdSaysWhyAndOffersToSubmitItAgain() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let (owner, business, _) = try await PlacesDriver(client).shop(
                owner: "bruno",
                name: "Bruno's Bakery",
                at: square
            )
            let admin = try await AdminTests.admin(client, services)
            var ad = CampaignTests.coupon(title: "Our new oven")
            (ad.kind, ad.discount, ad.totalRedemptions) = (.ad, nil, nil)
            let created = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/campaigns",
                json: ad,
                token: owner.accessToken
            )
            let id = try created.decode(Campaign.self).id
            #expect(try await client.send(.post, "/v1/campaigns/\(id)/submit", token: owner.accessToken).status == .ok)
            let item = try await CampaignTests().queueItem(client, admin: admin, campaign: id)
            let reason = ReviewReason(reason: "Say when the oven is lit.")
            #expect(
                try await client.send(.post, "/v1/admin/review-queue/\(item.id)/reject", json: reason, token: admin)
                    .status == .ok
            )

            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "bruno", "password": AccountsDriver.password]
            )
            let path = "/offers/campaigns/\(id.uuidString.lowercased())"
            let page = Self.text(try await browser.get(path))
            #expect(
                page.contains(#"data-state="rejected""#)
                    && page.contains("Not approved. The admin's reason: Say when the oven is lit.")
            )
            #expect(
                page.contains("Submit for review</button>") && !page.contains("<strong>Claims</strong>")
                    && page.contains("data-preview-discount hidden")
            )
            let edit = Self.text(try await browser.get("\(path)/edit"))
            #expect(
                edit.contains("data-coupon-only hidden")
                    && edit.contains("Ad <span class=\"muted\">(the kind stays as it is)</span>")
            )
        }
    }
}
