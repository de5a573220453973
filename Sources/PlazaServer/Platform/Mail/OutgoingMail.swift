import Foundation
import Logging

/// One plain-text e-mail.
public struct OutgoingMail: Sendable, Equatable {
    public var to: String
    public var subject: String
    public var text: String

    public init(to: String, subject: String, text: String) {
        self.to = to
        self.subject = subject
        self.text = text
    }
}

/// Where mail goes: real SMTP, or the log in dev and demo mode.
public protocol MailTransport: Sendable {
    func send(_ mail: OutgoingMail) async throws
}

/// Dev and demo mode: the mail is logged and shown at `/dev/mailbox`; nothing leaves the machine.
struct LogMailTransport: MailTransport {
    let logger: Logger

    func send(_ mail: OutgoingMail) async throws {
        logger.info("mail (not sent: no PLAZA_SMTP_URL)", metadata: ["to": "\(mail.to)", "subject": "\(mail.subject)"])
    }
}
