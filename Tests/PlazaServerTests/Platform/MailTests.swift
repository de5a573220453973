import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

@Suite struct MailTests {
    @Test func smtpDeliversWithAuthenticationAndDotStuffing() async throws {
        let sink = try await SMTPSink.start(username: "plaza", password: "relay secret")
        let transport = SMTPTransport(
            url: URL(string: "smtp://plaza:relay%20secret@127.0.0.1:\(sink.port)")!,
            from: "no-reply@plaza.test"
        )
        try await transport.send(
            OutgoingMail(to: "zoe@example.com", subject: "Grüße", text: "Hello\n.hidden line\nBye")
        )
        try await sink.stop()
        let message = try #require(sink.messages.first)
        #expect(message.from == "no-reply@plaza.test" && message.recipients == ["zoe@example.com"])
        #expect(message.data.contains("Subject: =?UTF-8?B?"))
        #expect(message.data.hasSuffix("Hello\n.hidden line\nBye"))
    }

    @Test func wrongRelayCredentialsFailTheDelivery() async throws {
        let sink = try await SMTPSink.start(username: "plaza", password: "right")
        let transport = SMTPTransport(
            url: URL(string: "smtp://plaza:wrong@127.0.0.1:\(sink.port)")!,
            from: "no-reply@plaza.test"
        )
        await #expect(throws: SMTPTransport.SMTPError.self) {
            try await transport.send(OutgoingMail(to: "a@b.co", subject: "s", text: "t"))
        }
        try await sink.stop()
        #expect(sink.messages.isEmpty)
    }

    @Test func theOutboxRetriesUntilTheRelayAnswers() async throws {
        // A port with no server yet: the first delivery fails and the mail waits for the next try.
        let probe = try await SMTPSink.start()
        let port = probe.port
        try await probe.stop()
        try await TestPlaza.withServices(.sqlite, configure: { $0.smtpURL = URL(string: "smtp://127.0.0.1:\(port)") }) {
            services in
            let outbox = OutboxStore()
            try await outbox.enqueue(
                OutgoingMail(to: "zoe@example.com", subject: "Code", text: "123456"),
                on: services.database.sql
            )
            await services.outbox.deliverDue()
            let row = try #require(
                try await services.database.sql.select().columns("attempts", "sent_at", "last_error").from(
                    "outbox_emails"
                ).first()
            )
            #expect(try row.decode(column: "attempts", as: Int.self) == 1)
            #expect(try row.decode(column: "sent_at", as: Date?.self) == nil)
            #expect(try row.decode(column: "last_error", as: String?.self) != nil)
            // Not due again yet: nothing is attempted.
            await services.outbox.deliverDue()
            #expect(
                try await services.database.sql.select().column("attempts").from("outbox_emails").first()?.decode(
                    column: "attempts",
                    as: Int.self
                )
                    == 1
            )
        }
    }

    @Test func signUpMailGoesOutThroughSMTP() async throws {
        let sink = try await SMTPSink.start()
        try await TestPlaza.withApp(.sqlite, configure: { $0.smtpURL = URL(string: "smtp://127.0.0.1:\(sink.port)") }) {
            client,
            _ in
            try await AccountsDriver(client).register("zoe")
            for _ in 0..<100 where sink.messages.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            let message = try #require(sink.messages.first)
            #expect(message.recipients == ["zoe@example.com"])
            #expect(message.data.contains("/verify-email?email=zoe%40example.com&code="))
        }
        try await sink.stop()
    }
}
