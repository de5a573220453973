import Foundation

/// A campaign's settings in words: the merchant's campaign page and the admin's diff read the same ones.
public enum CampaignWords {
    /// Who a target asks for: `["aged 18–25", "women or men", "students"]`; empty for everyone.
    public static func audience(_ target: CampaignTarget) -> [String] {
        var who: [String] = []
        switch (target.ageMin, target.ageMax) {
        case (let low?, let high?): who.append("aged \(low)–\(high)")
        case (let low?, nil): who.append("aged \(low) or over")
        case (nil, let high?): who.append("aged up to \(high)")
        case (nil, nil): break
        }
        if let genders = target.genders, !genders.isEmpty {
            let words: [Gender: String] = [.female: "women", .male: "men", .other: "people of another gender"]
            who.append(genders.map { words[$0] ?? $0.rawValue }.joined(separator: " or "))
        }
        if target.studentsOnly == true { who.append("students") }
        if target.subscribersOnly == true { who.append("subscribers of the business") }
        if let days = target.pastCustomers {
            who.append("who paid here in the last \(days) \(days == 1 ? "day" : "days")")
        }
        return who
    }

    /// "everyone within 150 m of its locations", "students within 80 m of 2 of its locations".
    public static func target(_ target: CampaignTarget) -> String {
        let who = audience(target)
        let radius = target.radiusMeters ?? CampaignRules.defaultRadiusMeters
        let places = target.locationIds.map { "\($0.count) of its locations" } ?? "its locations"
        return "\(who.isEmpty ? "everyone" : who.joined(separator: ", ")) within \(radius) m of \(places)"
    }

    /// "Tuesday and Thursday 7–10; Saturday 8–14".
    public static func schedule(_ slots: [CampaignSchedule]) -> String {
        slots.map(OfferRules.describe).joined(separator: "; ")
    }

    /// "25 % off", "1.50 USD off".
    public static func discount(_ discount: CouponDiscount) -> String {
        if let percent = discount.percentOff { return "\(percent) % off" }
        return "\(discount.money?.description ?? "nothing") off"
    }
}
