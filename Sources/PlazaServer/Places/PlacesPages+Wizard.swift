import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// The first-business wizard a new merchant is walked into: what the business is, where it is (on the map), and
/// when it is open, in three steps on one form (the page script shows one step at a time).
extension PlacesPages {
    func addWizardRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("new", use: wizard)
        signedIn.post("new", use: createFromWizard)
    }

    struct WizardPage: Sendable {
        struct Day: Sendable {
            var index: Int
            var name: String
            var open: Bool
            var opens: String
            var closes: String
        }

        var shell: Shell
        var form: FormState
        var categories: [Option]
        var days: [Day]
        var hoursError: String?
        var center: String
        var map: MapLayers
        var first: Bool
    }

    static let wizardFields = ["name", "category", "description", "address", "latitude", "longitude", "radiusMeters"]
    static let dayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Monday to Friday 9 to 6, Saturday 10 to 2: a start most shops change little.
    static let usualHours: [OpeningPeriod] =
        (1...5).map { OpeningPeriod(day: $0, opens: "09:00", closes: "18:00") } + [
            OpeningPeriod(day: 6, opens: "10:00", closes: "14:00")
        ]

    @Sendable func wizard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderWizard(context: context, form: FormState(names: Self.wizardFields).with("radiusMeters", "40"), hours: Self.usualHours)
    }

    func renderWizard(
        context: AuthenticatedContext, form: FormState, hours: [OpeningPeriod], hoursError: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard [.merchant, .admin].contains(context.identity.user.role) else {
            throw PlazaError(.forbidden, .forbidden, "Only merchant accounts run businesses.", detail: "Sign up as a merchant to list a business.")
        }
        let center = try await defaultCenter()
        let mine = try await places.myBusinesses(context.identity)
        let page = WizardPage(
            shell: Shell(title: "Set up your business", context: context), form: form,
            categories: Self.categoryOptions(selected: form.fields["category"]?.value.nilIfEmpty ?? BusinessCategory.cafe.rawValue),
            days: Self.dayNames.enumerated().map { index, name in
                let period = hours.first { $0.day == index + 1 }
                return WizardPage.Day(
                    index: index, name: name, open: period != nil, opens: period?.opens ?? "09:00", closes: period?.closes ?? "18:00")
            }, hoursError: hoursError, center: "\(center.latitude),\(center.longitude)", map: mapLayers,
            first: mine.isEmpty)
        return renderer.render("places/new", page, status: status)
    }

    /// The week's rows (0 is Monday) as opening periods (1 is Monday); nil when an open day lacks a time.
    static func hours(from form: FormData) -> [OpeningPeriod]? {
        var periods: [OpeningPeriod] = []
        for day in 0..<7 where form["open-\(day)"] == "on" {
            let (opens, closes) = (form["opens-\(day)"], form["closes-\(day)"])
            guard !opens.isEmpty, !closes.isEmpty else { return nil }
            periods.append(OpeningPeriod(day: day + 1, opens: opens, closes: closes))
        }
        return periods
    }

    /// Creates the business and its first location together; every problem of both is shown beside its field.
    @Sendable func createFromWizard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let hours = Self.hours(from: form)
        let business: Business
        do {
            let location = LocationRequest(
                name: form["name"], address: form["address"],
                latitude: Double(decimal: form["latitude"].trimmingCharacters(in: .whitespaces)) ?? .nan,
                longitude: Double(decimal: form["longitude"].trimmingCharacters(in: .whitespaces)) ?? .nan,
                radiusMeters: Int(form["radiusMeters"].trimmingCharacters(in: .whitespaces)) ?? 0, openingHours: hours ?? [])
            var problems = PlacesRules.locationProblems(location).filter { $0.field != "name" }
            if hours == nil { problems.append(FieldError(field: "openingHours", message: "Give both times for each open day.")) }
            if PlacesRules.latitudeProblem(location.latitude) != nil || PlacesRules.longitudeProblem(location.longitude) != nil {
                problems.removeAll { $0.field == "latitude" || $0.field == "longitude" }
                problems.append(FieldError(field: "latitude", message: "Tap the map where the entrance is, or use your location."))
            }
            guard let category = BusinessCategory(rawValue: form["category"]) else {
                throw PlazaError.validation(problems + [FieldError(field: "category", message: "Choose a category.")])
            }
            guard problems.isEmpty else { throw PlazaError.validation(problems) }
            business = try await places.createBusiness(
                context.identity, CreateBusinessRequest(name: form["name"], category: category, description: form["description"]))
            _ = try await places.addLocation(context.identity, business: business.id, location)
        } catch let error as PlazaError where error.status.code < 500 {
            let hoursError = error.errors?.first { $0.field.hasPrefix("openingHours") }?.message
            return try await renderWizard(
                context: context, form: FormState(form, names: Self.wizardFields, error: error), hours: hours ?? Self.usualHours,
                hoursError: hoursError, status: error.status)
        }
        return PageRenderer.seeOther("/places/businesses/\(business.id.uuidString.lowercased())/edit?notice=first-business")
    }
}
