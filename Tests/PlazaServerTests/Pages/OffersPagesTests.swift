import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The customer's offer pages: the list with the deal and why it came, claiming (the code and QR for the counter),
/// dismissing and muting, the settings form with errors beside their fields, and subscribing from a shop's page.
@Suite struct OffersPagesTests {
    let delivery = OfferDeliveryTests()

    @Test func aCustomerSeesWhyClaimsAndDismissesAnOffer() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await delivery.shop(client, services)
            var coupon = CampaignTests.coupon(title: "Ten off bread")
            coupon.minimumSpend = Money(amount: 500, currency: "USD")
            let campaign = try await delivery.run(coupon, at: shop, client)
            let anna = try await delivery.customer(client, "anna", OfferSettingsChange(coupons: .nearby))
            try await PlacesDriver(client).move(to: delivery.corner, token: anna)

            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            let home = try await page.get("/").text
            #expect(home.contains("Ten off bread") && home.contains("10 % off · on $5.00 or more"))
            let list = try await page.get("/offers").text
            #expect(list.contains("Bruno&#39;s Bakery") || list.contains("Bruno's Bakery"))
            #expect(list.contains("Why am I seeing this?") && list.contains("You were within 150 m of Bruno"))
            #expect(list.contains("data-live-fragment=\"/offers/live?view=current"), "the list follows offer events")
            let live = try await page.get("/offers/live?view=current").text
            #expect(live.hasPrefix("<ul class=\"list offers\"") && live.contains("Ten off bread"))

            let path = "/offers/\(campaign.uuidString.lowercased())"
            let claimed = try await page.follow(try await page.submit(path, to: "\(path)/claim", [:])).text
            #expect(
                claimed.contains("Claimed. Show this code") && claimed.contains("data-claim-code")
                    && claimed.contains("<svg")
            )
            #expect(!claimed.contains("Claim this coupon"), "claimed once")

            let muted = try await page.follow(try await page.submit(path, to: "\(path)/dismiss", ["mute": "1"])).text
            #expect(
                muted.contains("Muted: offers from this business will not come again")
                    && !muted.contains("Ten off bread")
            )
            let settings = try await page.get("/offers/settings").text
            #expect(settings.contains("Bruno&#39;s Bakery") || settings.contains("Bruno's Bakery"))
            let unmuted = try await page.follow(
                try await page.submit(
                    "/offers/settings",
                    to: "/offers/settings/unmute/\(shop.business.uuidString.lowercased())",
                    [:]
                )
            ).text
            #expect(unmuted.contains("may reach you again") && unmuted.contains("No business is muted."))
        }
    }

    @Test func settingsNameTheFieldAtFaultAndSubscribingWorksFromTheShopsPage() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await delivery.shop(client, services)
            _ = try await AccountsDriver(client).signedIn("anna")
            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            let fields = [
                "ads": "subscribed", "coupons": "nearby", "maxPerDay": "30", "quietFrom": "22:00", "quietUntil": "",
            ]
            let refused = try await page.follow(
                try await page.submit("/offers/settings", to: "/offers/settings", fields)
            ).text
            #expect(refused.contains("Give both times, or neither for no quiet hours."))
            var good = fields
            (good["quietUntil"], good["useStudent"]) = ("07:00", "1")
            let tooMany = try await page.follow(try await page.submit("/offers/settings", to: "/offers/settings", good))
                .text
            #expect(
                tooMany.contains("Use 1 to 20 offers a day.") && tooMany.contains("value=\"30\""),
                "what was typed comes back"
            )
            good["maxPerDay"] = "5"
            let saved = try await page.follow(try await page.submit("/offers/settings", to: "/offers/settings", good))
                .text
            #expect(saved.contains("Your offer settings are saved."))
            let token = try await AccountsDriver(client).login("anna").decode(TokenResponse.self).accessToken
            let stored = try await client.send(.get, "/v1/me/offer-settings", token: token).decode(OfferSettings.self)
            #expect(
                stored.coupons == .nearby && stored.maxPerDay == 5
                    && stored.quietHours == QuietHours(from: "22:00", until: "07:00")
            )
            #expect(stored.use == TargetingUse(student: true))

            let business = "/places/businesses/\(shop.business.uuidString.lowercased())"
            #expect(try await page.get(business).text.contains("Get its offers"))
            let subscribed = try await page.follow(
                try await page.submit(
                    business,
                    to: "/offers/subscriptions/\(shop.business.uuidString.lowercased())",
                    ["subscribe": "1"]
                )
            ).text
            #expect(subscribed.contains("Subscribed: this business") && subscribed.contains("Stop its offers"))
            #expect(try await page.get("/offers/settings").text.contains("Unsubscribe"))
        }
    }
}
