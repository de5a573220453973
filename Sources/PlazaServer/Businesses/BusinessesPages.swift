import Foundation
import Hummingbird
import PlazaCore

/// The merchant's business pages under `/places`: their businesses, the first-business wizard, and the editor
/// (details, locations with their hours, team). Every action is the API's, through `BusinessesService`.
struct BusinessesPages: Sendable {
    let businesses: BusinessesService
    let renderer: PageRenderer
    let configuration: PlazaConfiguration

    static let notices: [String: String] = [
        "business": phrase("The business was saved."),
        "location": phrase("The location was saved."),
        "location-deleted": phrase("The location was deleted."),
        "member": phrase("The team was updated."),
        "item-added": phrase("The item is on the counter now."),
        "item-saved": phrase("The item was saved."),
        "item-removed": phrase("The item was removed. Charges made with it keep their lines."),
        "counter-settings": phrase("The tips and the receipts' tax line were saved."),
        "first-business": phrase(
            "Your business is on Plaza. Customers can find it now; open the Counter to charge them."
        ),
        "first-business-review":
            phrase(
                "Your business is saved. An admin looks at it next: once approved, customers can find it and you can "
                    + "charge them."
            ),
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("places", context: AuthenticatedContext.self)
        addEditorRoutes(to: signedIn)
        addItemRoutes(to: signedIn)
        addWizardRoutes(to: signedIn)
    }

    var limit: Int { configuration.limits.maxRequestBody }
    var mapLayers: PlacesPages.MapLayers { PlacesPages.mapLayers(configuration) }

    func notice(_ request: Request) -> String? {
        request.uri.queryParameters.get("notice").flatMap { Self.notices[$0] }.map { say($0) }
    }

    func defaultCenter() async throws -> Coordinate {
        try await businesses.mapCenter()
    }
}
