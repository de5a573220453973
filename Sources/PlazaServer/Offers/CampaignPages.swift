import Foundation
import Hummingbird
import PlazaCore

/// The merchant's campaign pages (`/offers/businesses/{id}/campaigns`, `/offers/campaigns/{id}`): list, editor with a
/// live preview, the campaign with its lint, actions and figures. Every action is the API's, through `OffersService`.
struct CampaignPages: Sendable {
    let offers: OffersService
    let renderer: PageRenderer
    let maxBody: Int
    /// The currency amounts are typed in (the Plaza's first).
    let currency: String

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        _ = pages.group("offers", context: AuthenticatedContext.self)
    }
}
