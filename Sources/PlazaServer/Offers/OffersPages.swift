import Foundation
import Hummingbird
import PlazaCore

/// The customer's offer pages: `/offers` (current and used offers, search, claim, dismiss, why), `/offers/{id}`, and
/// `/offers/settings`. Every action is the API's, through `OffersService`.
struct OffersPages: Sendable {
    let offers: OffersService
    let renderer: PageRenderer
    let maxBody: Int

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        _ = pages.group("offers", context: AuthenticatedContext.self)
    }
}
