import Foundation
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL

/// Delivers mail to an SMTP relay (RFC 5321): `smtp://user:password@host:587` in plain text (for a relay on
/// the same host or network), `smtps://user:password@host:465` over TLS. Authenticates with AUTH PLAIN when
/// the URL carries a user.
struct SMTPTransport: MailTransport {
    let host: String
    let port: Int
    let useTLS: Bool
    let username: String?
    let password: String?
    /// The envelope and `From:` address.
    let from: String
    /// The name this host gives in `EHLO`.
    let heloName: String

    init(url: URL, from: String) {
        host = url.host ?? "localhost"
        useTLS = url.scheme == "smtps"
        port = url.port ?? (useTLS ? 465 : 25)
        username = url.user?.removingPercentEncoding
        password = url.password?.removingPercentEncoding
        self.from = from
        heloName = "plaza.localhost"
    }

    struct SMTPError: Error, CustomStringConvertible {
        var description: String
    }

    func send(_ mail: OutgoingMail) async throws {
        let tlsContext = useTLS ? try NIOSSLContext(configuration: .makeClientConfiguration()) : nil
        let host = self.host
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tlsContext {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tlsContext, serverHostname: host)
                        )
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await channel.executeThenClose { inbound, outbound in
            var lines = inbound.makeAsyncIterator()
            /// Reads one (possibly multi-line) reply and checks its code class.
            func expect(_ expected: Int) async throws {
                while true {
                    guard let buffer = try await lines.next() else {
                        throw SMTPError(description: "the server closed the connection")
                    }
                    let line = String(buffer: buffer)
                    guard line.count >= 3, let code = Int(line.prefix(3)) else {
                        throw SMTPError(description: "unreadable reply '\(line)'")
                    }
                    if line.count > 3, line[line.index(line.startIndex, offsetBy: 3)] == "-" { continue }
                    guard code / 100 == expected / 100 else {
                        throw SMTPError(description: "server answered '\(line)'")
                    }
                    return
                }
            }
            func command(_ text: String, expect code: Int) async throws {
                try await outbound.write(ByteBuffer(string: text + "\r\n"))
                try await expect(code)
            }
            try await expect(220)
            try await command("EHLO \(heloName)", expect: 250)
            if let username {
                let token = Data("\0\(username)\0\(password ?? "")".utf8).base64EncodedString()
                try await command("AUTH PLAIN \(token)", expect: 235)
            }
            try await command("MAIL FROM:<\(from)>", expect: 250)
            try await command("RCPT TO:<\(mail.to)>", expect: 250)
            try await command("DATA", expect: 354)
            try await outbound.write(ByteBuffer(string: SMTPTransport.message(mail, from: from, date: Date())))
            try await command(".", expect: 250)
            try? await outbound.write(ByteBuffer(string: "QUIT\r\n"))
        }
    }

    /// The message in RFC 5322 form, lines ending in CRLF, dot-stuffed for DATA.
    static func message(_ mail: OutgoingMail, from: String, date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let subject =
            mail.subject.allSatisfy(\.isASCII)
            ? mail.subject : "=?UTF-8?B?\(Data(mail.subject.utf8).base64EncodedString())?="
        let domain = from.split(separator: "@").last.map(String.init) ?? "plaza.localhost"
        let headers = [
            "From: Plaza <\(from)>",
            "To: <\(mail.to)>",
            "Subject: \(subject)",
            "Date: \(formatter.string(from: date))",
            "Message-ID: <\(UUID().uuidString.lowercased())@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
        ]
        let body = mail.text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        return (headers + [""] + body).joined(separator: "\r\n") + "\r\n"
    }
}
