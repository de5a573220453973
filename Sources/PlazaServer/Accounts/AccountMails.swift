import Foundation

/// The e-mails the accounts domain sends.
enum AccountMails {
    /// An address as a link's query value.
    static func query(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? ""
    }

    /// The sign-up's code, in the words of the recipient's language.
    static func verificationCode(
        to email: String,
        code: String,
        minutes: Int,
        baseURL: String,
        words: Catalogue.Words = Catalogue.englishWords
    ) -> OutgoingMail {
        codeMail("mail.verify", page: "verify-email", to: email, code: code, minutes: minutes, baseURL, words)
    }

    /// A mail with a code and a link to the page that takes it: `<key>.subject` and `<key>.text` of the catalogue.
    private static func codeMail(
        _ key: String,
        page: String,
        to email: String,
        code: String,
        minutes: Int,
        _ baseURL: String,
        _ words: Catalogue.Words
    ) -> OutgoingMail {
        let values = [
            "code": code, "minutes": String(minutes),
            "link": "\(baseURL)/\(page)?email=\(Self.query(email))&code=\(code)",
        ]
        return OutgoingMail(to: email, subject: words("\(key).subject", values), text: words("\(key).text", values))
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

    static func resetCode(
        to email: String,
        code: String,
        minutes: Int,
        baseURL: String,
        words: Catalogue.Words = Catalogue.englishWords
    ) -> OutgoingMail {
        codeMail("mail.reset", page: "reset-password", to: email, code: code, minutes: minutes, baseURL, words)
    }

    static func passwordChanged(to email: String, words: Catalogue.Words = Catalogue.englishWords) -> OutgoingMail {
        OutgoingMail(
            to: email,
            subject: words("mail.password_changed.subject"),
            text: words("mail.password_changed.text")
        )
    }
}
