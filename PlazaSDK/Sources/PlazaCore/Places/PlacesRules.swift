import Foundation

/// The rules of places, zones and points, shared by the server, the pages and the SDK.
/// Each rule returns a message for the user, or `nil` when the value is acceptable.
public enum PlacesRules {
    public static let zoneRadius = 100...2_000
    public static let nearbyDefaultRadius = 200.0
    public static let nearbyMaximumRadius = 5_000.0
    public static let pointsPerUpload = 1...1_000
    public static let lineWaitMinutes = 0...300

    /// The smallest count ever shown (k-anonymity threshold).
    public static let minimumCount = 5
    /// A position older than this no longer puts anyone "in the shop".
    public static let presenceFreshness: TimeInterval = 600
    /// A stay at least this long is a visit.
    public static let minimumVisit: TimeInterval = 300
    /// How far back an upload's points may still open and close stays (count visits); older points are only history.
    public static let stayBackfill: TimeInterval = 24 * 3_600

    /// Text as search compares it: lower case, accents and case folded ("Corner Café" and "corner cafe" meet),
    /// "ß" as "ss". The same on both engines, because Plaza folds it, not the database.
    public static func searchFolded(_ text: String) -> String {
        text.folding(
            options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive],
            locale: Locale(identifier: "en_US_POSIX")
        )
        .lowercased().replacingOccurrences(of: "ß", with: "ss")
    }

    public static func latitudeProblem(_ value: Double) -> String? {
        value.isFinite && abs(value) <= 90 ? nil : "Use a latitude from -90 to 90."
    }

    public static func longitudeProblem(_ value: Double) -> String? {
        value.isFinite && abs(value) <= 180 ? nil : "Use a longitude from -180 to 180."
    }

    public static func zoneProblems(_ request: PrivateZoneRequest) -> [FieldError] {
        var validator = Validator()
        validator.apply(BusinessRules.nameProblem(request.name, length: 1...60), to: "name")
        validator.apply(latitudeProblem(request.latitude), to: "latitude")
        validator.apply(longitudeProblem(request.longitude), to: "longitude")
        validator.check(
            zoneRadius.contains(request.radiusMeters),
            "radiusMeters",
            "Use \(zoneRadius.lowerBound) to \(zoneRadius.upperBound) metres."
        )
        return validator.errors
    }

    /// Every impossible point of an upload: out of range or not a number, in the future (beyond a minute of
    /// clock skew), older than `retention`, or a negative accuracy.
    public static func uploadProblems(_ upload: LocationUpload, now: Date, retention: TimeInterval) -> [FieldError] {
        var validator = Validator()
        validator.check(
            pointsPerUpload.contains(upload.points.count),
            "points",
            "Send \(pointsPerUpload.lowerBound) to \(pointsPerUpload.upperBound) points."
        )
        for (index, point) in upload.points.enumerated() where index < pointsPerUpload.upperBound {
            validator.apply(latitudeProblem(point.latitude), to: "points.\(index).latitude")
            validator.apply(longitudeProblem(point.longitude), to: "points.\(index).longitude")
            if let accuracy = point.accuracy {
                validator.check(
                    accuracy.isFinite && accuracy >= 0 && accuracy <= 100_000,
                    "points.\(index).accuracy",
                    "Use 0 to 100,000 metres."
                )
            }
            validator.check(
                point.recordedAt <= now.addingTimeInterval(60),
                "points.\(index).recordedAt",
                "This time is in the future."
            )
            validator.check(
                point.recordedAt >= now.addingTimeInterval(-retention),
                "points.\(index).recordedAt",
                "This time is older than points are kept."
            )
        }
        return validator.errors
    }
}
