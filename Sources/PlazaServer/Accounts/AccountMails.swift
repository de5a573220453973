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

    /// The code that proves a university address, to the account that asked (`mail.campus_code`).
    static func campusCode(
        to email: String,
        code: String,
        minutes: Int,
        words: Catalogue.Words = Catalogue.englishWords
    ) -> OutgoingMail {
        let values = ["code": code, "minutes": String(minutes)]
        return OutgoingMail(
            to: email,
            subject: words("mail.campus_code.subject", values),
            text: words("mail.campus_code.text", values)
        )
    }

    /// To the account a campus address verifies already, when another asked to use it.
    static func campusAddressInUse(
        to email: String,
        baseURL: String,
        words: Catalogue.Words = Catalogue.englishWords
    ) -> OutgoingMail {
        notice("mail.campus_address_in_use", to: email, baseURL, words)
    }

    /// To an address that has an account, when someone tried to sign up with it.
    static func alreadyRegistered(
        to email: String,
        baseURL: String,
        words: Catalogue.Words = Catalogue.englishWords
    ) -> OutgoingMail {
        notice("mail.already_registered", to: email, baseURL, words)
    }

    /// To an address that has an account, when another account asked to move to it.
    static func addressInUse(
        to email: String,
        baseURL: String,
        words: Catalogue.Words = Catalogue.englishWords
    ) -> OutgoingMail {
        notice("mail.address_in_use", to: email, baseURL, words)
    }

    /// A notice with the links to log in and to reset a password: `<key>.subject` and `<key>.text`.
    private static func notice(
        _ key: String,
        to email: String,
        _ baseURL: String,
        _ words: Catalogue.Words
    ) -> OutgoingMail {
        let values = ["login": "\(baseURL)/login", "reset": "\(baseURL)/forgot-password"]
        return OutgoingMail(to: email, subject: words("\(key).subject", values), text: words("\(key).text", values))
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
