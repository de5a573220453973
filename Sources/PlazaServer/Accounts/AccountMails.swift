import Foundation

/// The e-mails the accounts domain sends.
enum AccountMails {
    /// An address as a link's query value.
    static func query(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? ""
    }

    static func verificationCode(to email: String, code: String, minutes: Int, baseURL: String) -> OutgoingMail {
        OutgoingMail(
            to: email,
            subject: "Your Plaza code: \(code)",
            text: """
                Welcome to Plaza.

                Verify your address with one tap:
                \(baseURL)/verify-email?email=\(Self.query(email))&code=\(code)

                Or enter the code \(code) in the app. It works for \(minutes) minutes.

                If you did not sign up, ignore this message.
                """
        )
    }

    static func campusCode(to email: String, code: String, minutes: Int) -> OutgoingMail {
        OutgoingMail(
            to: email,
            subject: "Your campus code: \(code)",
            text: """
                Someone asked to join their campus marketplace on Plaza with this university address.

                If it was you, enter the code \(code) where you asked for it. It works for \(minutes) minutes.

                If it was not you, ignore this message: nothing happens without the code.
                """
        )
    }

    static func campusAddressInUse(to email: String, baseURL: String) -> OutgoingMail {
        OutgoingMail(
            to: email,
            subject: "Someone asked to use your campus address on another account",
            text: """
                Someone asked to join the campus marketplace on Plaza with this university address, which already verifies
                a Plaza account. Nothing changed and no code was sent: a campus address verifies one account only.

                If it was you and you meant your own account, log in at \(baseURL)/login. If it was not you, you can ignore this message.
                """
        )
    }

    static func alreadyRegistered(to email: String, baseURL: String) -> OutgoingMail {
        OutgoingMail(
            to: email,
            subject: "Someone tried to sign up with your address",
            text: """
                Someone tried to create a Plaza account with this e-mail address, which already has one.

                If it was you, log in at \(baseURL)/login; if you forgot your password, reset it at \(baseURL)/forgot-password.
                If it was not you, nothing changed and you can ignore this message.
                """
        )
    }

    static func addressInUse(to email: String, baseURL: String) -> OutgoingMail {
        OutgoingMail(
            to: email,
            subject: "Someone asked to use your address for another account",
            text: """
                Someone asked to move another Plaza account to this e-mail address, which already belongs to an account.
                Nothing changed: an address belongs to one account only.

                If it was you and you meant this account, log in at \(baseURL)/login. If it was not you, you can ignore this message.
                """
        )
    }

    static func resetCode(to email: String, code: String, minutes: Int, baseURL: String) -> OutgoingMail {
        OutgoingMail(
            to: email,
            subject: "Reset your Plaza password: \(code)",
            text: """
                Choose a new password here:
                \(baseURL)/reset-password?email=\(Self.query(email))&code=\(code)

                Or enter the code \(code) in the app. It works for \(minutes) minutes.

                If you did not ask for this, ignore this message: your password stays as it is.
                """
        )
    }

    static func passwordChanged(to email: String) -> OutgoingMail {
        OutgoingMail(
            to: email,
            subject: "Your Plaza password was changed",
            text:
                "Your password was just changed and your other devices were signed out. If this was not you, reset your password now."
        )
    }
}
