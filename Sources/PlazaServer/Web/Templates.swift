import Foundation
import Mustache

/// The Mustache templates under `Resources/Templates`, loaded and parsed once at start-up, so a broken
/// template stops the server instead of a page.
enum Templates {
    static let required = [
        "layout", "home", "home-signed-in", "home-live", "wallet/actions", "error", "docs/api", "dev/mailbox",
        "accounts/signup",
        "accounts/verify-email", "accounts/login",
        "accounts/forgot-password", "accounts/reset-password", "accounts/account", "places/nearby", "places/map",
        "places/business",
        "places/settings", "places/map-head", "businesses/mine", "businesses/new", "businesses/edit", "places/presence",
        "wallet/wallet", "wallet/send",
        "wallet/send-review",
        "wallet/request",
        "wallet/add-money", "wallet/withdraw", "wallet/activity",
        "wallet/activity-status", "wallet/avatar", "wallet/charges", "wallet/charges-list",
        "wallet/receipt", "wallet/counter", "wallet/counter-live", "inbox/inbox", "inbox/inbox-list", "offers/offers",
        "offers/offers-list",
        "offers/offer", "offers/settings", "offers/campaigns", "offers/campaign", "offers/campaign-editor",
        "offers/offer-card", "secondfactors/step", "secondfactors/security",
    ]

    /// A resource file the build did not ship; Plaza cannot start without it.
    struct MissingTemplate: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) is missing from the resources" }
    }

    static func load() async throws -> MustacheLibrary {
        guard
            let directory = Bundle.module.url(forResource: "Templates", withExtension: nil, subdirectory: "Resources")?
                .path
        else {
            throw MissingTemplate(name: "Templates/")
        }
        let library = try await MustacheLibrary(directory: directory)
        for name in required where library.getTemplate(named: name) == nil {
            throw MissingTemplate(name: "\(name).mustache")
        }
        return library
    }
}
