import Foundation
import PlazaCore
import Testing

@Suite struct OfferRulesTests {
    static let now = RFC3339.parse("2026-11-24T08:30:00Z")!  // A Tuesday, 09:30 in Berlin.
    static var berlin: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }

    static func coupon(
        target: CampaignTarget = CampaignTarget(),
        schedule: [CampaignSchedule]? = nil
    ) -> CampaignContent {
        CampaignContent(
            kind: .coupon,
            title: "Morning bread",
            body: "10 % off any loaf",
            startsAt: now,
            endsAt: now.addingTimeInterval(7 * 86_400),
            schedule: schedule,
            target: target,
            discount: CouponDiscount(percentOff: 10),
            totalRedemptions: 100
        )
    }

    static func person(
        age: Int? = 30,
        gender: Gender? = .female,
        student: Bool = true,
        use: TargetingUse = TargetingUse(age: true, gender: true, student: true),
        subscribed: Bool = false,
        lastPaid: Date? = nil
    ) -> OfferAudience {
        OfferAudience(age: age, gender: gender, student: student, use: use, subscribed: subscribed, lastPaid: lastPaid)
    }

    static func occasion(distance: Double? = 120, at: Date = now) -> OfferOccasion {
        OfferOccasion(businessName: "Bruno's Bakery", distance: distance, at: at, calendar: berlin)
    }

    @Test(
        arguments: [
            // (ageMin, ageMax, person's age, uses age, matches)
            (18, 25, 22, true, true), (18, 25, 26, true, false), (18, 25, 17, true, false), (18, nil, 64, true, true),
            (18, 25, 22, false, false), (18, 25, nil, true, false),
        ] as [(Int?, Int?, Int?, Bool, Bool)]
    )
    func ageBandsReachOnlyThoseInsideWhoAllowedIt(ageMin: Int?, ageMax: Int?, age: Int?, usesAge: Bool, matches: Bool) {
        let content = Self.coupon(target: CampaignTarget(ageMin: ageMin, ageMax: ageMax))
        let reasons = OfferRules.reasons(
            content,
            for: Self.person(age: age, use: TargetingUse(age: usesAge)),
            on: Self.occasion()
        )
        #expect((reasons != nil) == matches)
        if matches { #expect(reasons?.first?.criterion == .age) }
    }

    @Test func gendersAndStudentsNeedTheFactAndTheConsent() {
        let women = Self.coupon(target: CampaignTarget(ageMin: 18, genders: [.female]))
        #expect(
            OfferRules.reasons(women, for: Self.person(), on: Self.occasion())?.map(\.criterion) == [
                .age, .gender, .location,
            ]
        )
        #expect(OfferRules.reasons(women, for: Self.person(gender: .male), on: Self.occasion()) == nil)
        #expect(OfferRules.reasons(women, for: Self.person(use: TargetingUse(age: true)), on: Self.occasion()) == nil)
        let students = Self.coupon(target: CampaignTarget(ageMin: 18, studentsOnly: true))
        let why = OfferRules.reasons(students, for: Self.person(), on: Self.occasion()).map { OfferWhy(reasons: $0) }
        #expect(why?.text == "you are 18 or older; you are a student; you were within 150 m of Bruno's Bakery")
        #expect(OfferRules.reasons(students, for: Self.person(student: false), on: Self.occasion()) == nil)
        #expect(
            OfferRules.reasons(students, for: Self.person(use: TargetingUse(age: true)), on: Self.occasion()) == nil
        )
    }

    @Test func minorsGetPlaceAndTimeOnlyWhateverTheyAllowed() {
        let minor = Self.person(age: 16)
        #expect(
            OfferRules.reasons(Self.coupon(target: CampaignTarget(studentsOnly: true)), for: minor, on: Self.occasion())
                == nil
        )
        #expect(
            OfferRules.reasons(Self.coupon(target: CampaignTarget(pastCustomers: 30)), for: minor, on: Self.occasion())
                == nil
        )
        #expect(OfferRules.reasons(Self.coupon(), for: minor, on: Self.occasion())?.map(\.criterion) == [.location])
    }

    @Test func theRadiusAndTheScheduleAreReadInTheTownsTime() {
        let content = Self.coupon(
            target: CampaignTarget(radiusMeters: 100),
            schedule: [CampaignSchedule(weekdays: [2], from: "07:00", until: "10:00")]
        )
        #expect(OfferRules.reasons(content, for: Self.person(), on: Self.occasion(distance: 120)) == nil)
        let reasons = OfferRules.reasons(content, for: Self.person(), on: Self.occasion(distance: 80))
        #expect(reasons?.map(\.text) == ["you were within 100 m of Bruno's Bakery", "Tuesday 7–10"])
        // 10:30 in Berlin is after the slot, though 09:30 UTC would be inside it.
        #expect(
            OfferRules.reasons(
                content,
                for: Self.person(),
                on: Self.occasion(distance: 80, at: Self.now.addingTimeInterval(3600))
            ) == nil
        )
        let lateNight = CampaignSchedule(weekdays: [1], from: "22:00", until: "02:00")
        let tuesdayOneAM = RFC3339.parse("2026-11-24T00:30:00Z")!
        #expect(OfferRules.runs(lateNight, at: tuesdayOneAM, calendar: Self.berlin))
        #expect(!OfferRules.runs(lateNight, at: Self.now, calendar: Self.berlin))
    }

    @Test func subscribersAndPastCustomersAreTheirOwnReasons() {
        let subscribers = Self.coupon(target: CampaignTarget(subscribersOnly: true))
        #expect(OfferRules.reasons(subscribers, for: Self.person(), on: Self.occasion()) == nil)
        #expect(
            OfferRules.reasons(subscribers, for: Self.person(subscribed: true), on: Self.occasion(distance: nil))?.map(
                \.criterion
            ) == [.subscription]
        )
        let regulars = Self.coupon(target: CampaignTarget(pastCustomers: 30))
        let lastWeek = Self.now.addingTimeInterval(-7 * 86_400)
        #expect(
            OfferRules.reasons(regulars, for: Self.person(lastPaid: lastWeek), on: Self.occasion())?.first?.criterion
                == .pastCustomer
        )
        #expect(
            OfferRules.reasons(
                regulars,
                for: Self.person(lastPaid: lastWeek.addingTimeInterval(-30 * 86_400)),
                on: Self.occasion()
            ) == nil
        )
    }

    @Test func theEstimateCountsWhoCouldBeReachedAnywhereAtAnyHourTheCampaignRuns() {
        let business = UUID()
        let nearby = OfferSettings(coupons: .nearby, use: TargetingUse(age: true, student: true))
        // Scheduled for Sunday night: the estimate is about people, not about this hour.
        let sunday = [CampaignSchedule(weekdays: [7], from: "22:00", until: "23:00")]
        let students = Self.coupon(target: CampaignTarget(ageMin: 18, studentsOnly: true), schedule: sunday)
        #expect(OfferRules.couldReach(students, Self.person(), settings: nearby, business: business, now: Self.now))
        #expect(
            !OfferRules.couldReach(students, Self.person(age: 16), settings: nearby, business: business, now: Self.now)
        )
        // The default level hears only from subscriptions; `none` and a muted business from nobody.
        #expect(
            !OfferRules.couldReach(
                students,
                Self.person(),
                settings: OfferSettings(use: nearby.use),
                business: business,
                now: Self.now
            )
        )
        #expect(
            OfferRules.couldReach(
                students,
                Self.person(subscribed: true),
                settings: OfferSettings(use: nearby.use),
                business: business,
                now: Self.now
            )
        )
        #expect(
            !OfferRules.couldReach(
                students,
                Self.person(subscribed: true),
                settings: OfferSettings(coupons: .none),
                business: business,
                now: Self.now
            )
        )
        var muted = nearby
        muted.muted = [business]
        #expect(!OfferRules.couldReach(students, Self.person(), settings: muted, business: business, now: Self.now))
    }

    @Test(
        arguments: [
            (0, nil), (4, nil), (5, 5), (7, 5), (8, 10), (97, 95), (98, 100), (104, 100), (1_234, 1_200),
            (15_678, 16_000),
        ] as [(Int, Int?)]
    )
    func theEstimateIsRoundedAndSaysNothingUnderFive(count: Int, shown: Int?) {
        #expect(OfferRules.about(count) == shown)
    }

    @Test func aCampaignsSettingsReadAsWords() {
        let target = CampaignTarget(
            ageMin: 18,
            ageMax: 25,
            genders: [.female, .male],
            studentsOnly: true,
            locationIds: [UUID(), UUID()],
            radiusMeters: 80
        )
        #expect(CampaignWords.target(target) == "aged 18–25, women or men, students within 80 m of 2 of its locations")
        #expect(CampaignWords.audience(CampaignTarget(pastCustomers: 1)) == ["who paid here in the last 1 day"])
        let slots = [
            CampaignSchedule(weekdays: [2, 4], from: "07:00", until: "10:30"),
            CampaignSchedule(weekdays: [6], from: "08:00", until: "14:00"),
        ]
        #expect(CampaignWords.schedule(slots) == "Tuesday and Thursday 7–10:30; Saturday 8–14")
        #expect(
            CampaignWords.discount(CouponDiscount(amountOff: Money(amount: 150, currency: "USD"))) == "1.50 USD off"
        )
    }

    @Test func theLintNamesEachProblemWithItsStableCode() {
        var content = Self.coupon(target: CampaignTarget(genders: [.female], radiusMeters: 30))
        content.totalRedemptions = nil
        content.discount = CouponDiscount(percentOff: 95)
        content.body = "See https://example.com for more"
        content.endsAt = Self.now.addingTimeInterval(-60)
        content.startsAt = Self.now.addingTimeInterval(-3600)
        let neighbour = CampaignRules.Neighbour(
            title: "Lunch deal",
            startsAt: Self.now.addingTimeInterval(-7200),
            endsAt: Self.now
        )
        let findings = CampaignRules.findings(content, neighbours: [neighbour], blockedWords: [], now: Self.now)
        #expect(
            findings.map(\.code) == [
                FindingCode.targetsMinors, FindingCode.noCap, FindingCode.discountOver90, FindingCode.radiusUnder50,
                FindingCode.windowEnded,
                FindingCode.stacks, FindingCode.blockedContent,
            ]
        )
        #expect(
            findings.filter { $0.severity == .block }.map(\.code) == [
                FindingCode.targetsMinors, FindingCode.windowEnded, FindingCode.blockedContent,
            ]
        )
        let clean = CampaignRules.findings(
            Self.coupon(target: CampaignTarget(ageMin: 18, studentsOnly: true)),
            neighbours: [],
            blockedWords: [],
            now: Self.now
        )
        #expect(clean.isEmpty)
        let words = CampaignRules.findings(
            CampaignContent(
                kind: .ad,
                title: "Free Beer",
                body: "Come in",
                startsAt: Self.now,
                endsAt: Self.now.addingTimeInterval(60)
            ),
            neighbours: [],
            blockedWords: ["beer"],
            now: Self.now
        )
        #expect(words.map(\.field) == ["title"])
    }

    @Test func fieldProblemsRefuseWhatCannotWork() {
        var content = Self.coupon()
        content.discount = CouponDiscount(amountOff: Money(amount: 200, currency: "EUR"))
        content.minimumSpend = Money(amount: 1000, currency: "USD")
        content.code = "bread"
        content.schedule = [CampaignSchedule(weekdays: [8], from: "7:00", until: "10:00")]
        #expect(
            Set(CampaignRules.problems(content).map(\.field)) == [
                "discount", "code", "schedule.0.weekdays", "schedule.0.from",
            ]
        )
        var ad = CampaignContent(kind: .ad, title: " ", body: "Fresh bread", startsAt: Self.now, endsAt: Self.now)
        ad.perCustomer = 2
        #expect(CampaignRules.problems(ad).map(\.field) == ["title", "endsAt", "perCustomer"])
    }

    @Test func theDiscountKeepsToTheMinimumAndTheCap() {
        var content = Self.coupon()
        content.discount = CouponDiscount(percentOff: 15)
        content.minimumSpend = Money(amount: 500, currency: "USD")
        content.maxDiscount = Money(amount: 200, currency: "USD")
        #expect(
            OfferRules.discount(content, subtotal: Money(amount: 499, currency: "USD"))
                == .failure(.belowMinimumSpend(content.minimumSpend!))
        )
        #expect(
            OfferRules.discount(content, subtotal: Money(amount: 1_003, currency: "USD"))
                == .success(Money(amount: 150, currency: "USD"))
        )
        #expect(
            OfferRules.discount(content, subtotal: Money(amount: 5_000, currency: "USD"))
                == .success(Money(amount: 200, currency: "USD"))
        )
        #expect(
            OfferRules.discount(content, subtotal: Money(amount: 5_000, currency: "EUR"))
                == .failure(.otherCurrency("USD"))
        )
        content.discount = CouponDiscount(amountOff: Money(amount: 300, currency: "USD"))
        content.minimumSpend = nil
        content.maxDiscount = nil
        #expect(
            OfferRules.discount(content, subtotal: Money(amount: 250, currency: "USD"))
                == .success(Money(amount: 250, currency: "USD"))
        )
    }
}
