import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// The first-business wizard a new merchant is walked into: what the business is, where it is (on the map), and
/// when it is open, in three steps on one form (the page script shows one step at a time).
extension BusinessesPages {
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
        var categories: [PlacesPages.Option]
        var days: [Day]
        var hoursError: String?
        var center: String
        var map: PlacesPages.MapLayers
        var first: Bool
    }

    static let wizardFields = ["name", "category", "description", "address", "latitude", "longitude", "radiusMeters"]
    static let dayNames = [
        phrase("Monday"), phrase("Tuesday"), phrase("Wednesday"), phrase("Thursday"), phrase("Friday"),
        phrase("Saturday"), phrase("Sunday"),
    ]

    /// Monday to Friday 9 to 6, Saturday 10 to 2: a start most shops change little.
    static let usualHours: [OpeningPeriod] =
        (1...5).map { OpeningPeriod(day: $0, opens: "09:00", closes: "18:00") } + [
            OpeningPeriod(day: 6, opens: "10:00", closes: "14:00")
        ]

    /// The week's fields: a box and two times per day (0 is Monday).
    static let hourFields = (0..<7).flatMap { ["open-\($0)", "opens-\($0)", "closes-\($0)"] }

    /// The wizard, or after a refusal what was typed with each problem beside it.
    @Sendable func wizard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let refused = context.page.form("wizard") else {
            return try await renderWizard(
                context: context,
                form: FormState(names: Self.wizardFields).with("radiusMeters", "40"),
                hours: Self.usualHours
            )
        }
        let hoursError = refused.fields.sorted { $0.key < $1.key }.first {
            $0.key.hasPrefix("openingHours") && $0.value.error != nil
        }?.value.error
        return try await renderWizard(
            context: context,
            form: refused,
            hours: Self.hours(asTyped: true) { refused.fields[$0]?.value ?? "" } ?? [],
            hoursError: hoursError
        )
    }

    func renderWizard(
        context: AuthenticatedContext,
        form: FormState,
        hours: [OpeningPeriod],
        hoursError: String? = nil
    ) async throws -> Response {
        guard [.merchant, .admin].contains(context.identity.user.role) else {
            throw PlazaError(
                .forbidden,
                .forbidden,
                phrase("Only merchant accounts run businesses."),
                detail: phrase("Sign up as a merchant to list a business.")
            )
        }
        let center = try await defaultCenter()
        let mine = try await businesses.myBusinesses(context.identity)
        let page = WizardPage(
            shell: Shell(title: say("Set up your business"), context: context),
            form: form,
            categories: PlacesPages.categoryOptions(
                selected: form.fields["category"]?.value.nilIfEmpty ?? BusinessCategory.cafe.rawValue
            ),
            days: Self.dayNames.enumerated().map { index, name in
                let period = hours.first { $0.day == index + 1 }
                return WizardPage.Day(
                    index: index,
                    name: say(name),
                    open: period != nil,
                    opens: period?.opens ?? "09:00",
                    closes: period?.closes ?? "18:00"
                )
            },
            hoursError: hoursError,
            center: "\(center.latitude),\(center.longitude)",
            map: mapLayers,
            first: mine.isEmpty
        )
        return renderer.render("businesses/new", page)
    }

    /// The week's rows (0 is Monday) as opening periods (1 is Monday); nil when an open day lacks a time, unless
    /// `asTyped` (to show a refused form again as it was).
    static func hours(asTyped: Bool = false, _ field: (String) -> String) -> [OpeningPeriod]? {
        var periods: [OpeningPeriod] = []
        for day in 0..<7 where field("open-\(day)") == "on" {
            let (opens, closes) = (field("opens-\(day)"), field("closes-\(day)"))
            guard asTyped || (!opens.isEmpty && !closes.isEmpty) else { return nil }
            periods.append(OpeningPeriod(day: day + 1, opens: opens, closes: closes))
        }
        return periods
    }

    /// Creates the business and its first location together; every problem of both is shown beside its field.
    @Sendable func createFromWizard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let hours = Self.hours { form[$0] }
        let business: Business
        do {
            let location = LocationRequest(
                name: form["name"],
                address: form["address"],
                latitude: Double(decimal: form["latitude"].trimmingCharacters(in: .whitespaces)) ?? .nan,
                longitude: Double(decimal: form["longitude"].trimmingCharacters(in: .whitespaces)) ?? .nan,
                radiusMeters: Int(form["radiusMeters"].trimmingCharacters(in: .whitespaces)) ?? 0,
                openingHours: hours ?? []
            )
            var problems = BusinessRules.locationProblems(location).filter { $0.field != "name" }
            if hours == nil {
                problems.append(
                    FieldError(field: "openingHours", message: phrase("Give both times for each open day."))
                )
            }
            if PlacesRules.latitudeProblem(location.latitude) != nil
                || PlacesRules.longitudeProblem(location.longitude) != nil
            {
                problems.removeAll { $0.field == "latitude" || $0.field == "longitude" }
                problems.append(
                    FieldError(
                        field: "latitude",
                        message: phrase("Tap the map where the entrance is, or use your location.")
                    )
                )
            }
            guard let category = BusinessCategory(rawValue: form["category"]) else {
                throw PlazaError.validation(
                    problems + [FieldError(field: "category", message: phrase("Choose a category."))]
                )
            }
            guard problems.isEmpty else { throw PlazaError.validation(problems) }
            business = try await businesses.createBusiness(
                context.identity,
                CreateBusinessRequest(name: form["name"], category: category, description: form["description"])
            )
            _ = try await businesses.addLocation(context.identity, business: business.id, location)
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "wizard",
                FormState(form, names: Self.wizardFields + Self.hourFields, error: error),
                returnTo: "/places/new"
            )
        }
        let notice = context.identity.user.awaitsApproval ? "first-business-review" : "first-business"
        return PageRenderer.seeOther("\(Self.editPath(business.id))?notice=\(notice)")
    }
}
