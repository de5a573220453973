import Foundation
import PlazaCore

extension PlazaClient {
    /// The languages this Plaza offers for pages, mails and pushes, English first, each named in itself, and the
    /// operator's default: what a language picker shows. Set the user's with `updateProfile(ProfileUpdate(language:))`
    /// (an empty string goes back to none chosen). Needs no sign-in.
    public func languages() async throws -> LanguageList {
        try await send("GET", "v1/languages")
    }
}
