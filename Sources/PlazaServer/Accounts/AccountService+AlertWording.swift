import Foundation
import PlazaCore

extension AccountService {
    /// A sign-in on a device this account never used, in the person's language (issue 41): they are told, in case it
    /// was not them.
    static func newSignInAlert(user: UUID, device: String) -> FeedMessage {
        .alert(
            user: user,
            kind: .account,
            link: "/account#sessions-heading",
            Wording(
                title: phrase("New sign-in to your Plaza account"),
                body: phrase(
                    "{device} signed in. If this was not you, change your password "
                        + "and sign out the devices you do not know."
                ),
                values: ["device": device]
            )
        )
    }
}
