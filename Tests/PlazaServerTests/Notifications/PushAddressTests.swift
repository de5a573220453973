import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Synchronization
import Testing

@testable import PlazaServer

/// Push endpoints are addresses a user gives the server to call: only known push services, by name, over https; the
/// name resolved to public addresses only, the call made to the address checked, no redirect followed; and one
/// service that hangs holds nobody else's alerts.
@Suite struct PushAddressTests {
    static func register(_ client: any TestClientProtocol, endpoint: String, token: String) async throws -> TestResponse
    {
        var subscription = WebPushSubscription(endpoint: endpoint, keys: .init(p256dh: "", auth: ""))
        let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        subscription.keys = .init(
            p256dh: key.base64URLEncodedString(),
            auth: Data(repeating: 7, count: 16).base64URLEncodedString()
        )
        return try await client.send(
            .post,
            "/v1/me/devices",
            json: DeviceRegistration(platform: .webpush, subscription: subscription),
            token: token
        )
    }

    @Test(arguments: TestEngine.enabled)
    func anEndpointOffTheKnownPushServicesIsRefusedWhenRegistered(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        // Dev mode, with a stand-in let through by its origin: neither opens anything else.
        try await TestPlaza.withApp(
            engine,
            configure: {
                $0.mode = .dev
                $0.push.hosts = [receiver.origin]
            }
        ) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let refused = [
                "https://169.254.169.254/latest/meta-data", "https://127.0.0.1/push", "https://localhost/push",
                "https://push.localhost/x",
                "https://10.0.0.7/push", "https://[::ffff:127.0.0.1]/push", "https://[::1]/push",
                "https://0x7f000001/push",
                "https://2130706433/push", "https://127.1/push", "https://0177.0.0.1/push",
                "http://127.0.0.1:\(receiver.port + 1)/push",
                "http://fcm.googleapis.com/fcm/send/x", "https://fcm.googleapis.com:8443/fcm/send/x",
                "https://evil.example/push",
                "https://fcm.googleapis.com.evil.example/x", "https://user@fcm.googleapis.com/x",
                "https://notify.windows.com/x",
                "ftp://fcm.googleapis.com/x",
            ]
            for endpoint in refused {
                let answer = try await Self.register(client, endpoint: endpoint, token: anna)
                #expect(
                    answer.status == .unprocessableContent && answer.problem?.code == .endpointNotAllowed,
                    "\(endpoint): \(answer.text)"
                )
                #expect(answer.problem?.errors?.map(\.field) == ["subscription.endpoint"], "\(endpoint)")
            }
            for endpoint in [
                "https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services.mozilla.com/wpush/v2/x",
                "https://web.push.apple.com/QGr", "https://wns2-par02p.notify.windows.com/w/?token=x",
                receiver.subscribe().endpoint,
            ] {
                #expect(
                    try await Self.register(client, endpoint: endpoint, token: anna).status == .created,
                    "\(endpoint)"
                )
            }
            let devices = try await client.send(.get, "/v1/me/devices", token: anna).decode(Page<Device>.self).items
            #expect(devices.count == 5)
        }
    }

    @Test func theOperatorAddsPushHostsAndStandInsByName() throws {
        let configured = try PlazaConfiguration.fromEnvironment([
            "PLAZA_PUSH_HOSTS": "push.example.net, *.wns.example.org, http://127.0.0.1:9300"
        ])
        let addresses = OutboundGuard(pushServicesAnd: configured.push.hosts)
        #expect(
            addresses.refusal("https://push.example.net/x") == nil
                && addresses.refusal("https://a.wns.example.org/x") == nil
        )
        #expect(
            addresses.refusal("https://wns.example.org/x") != nil,
            "a pattern takes subdomains, not the domain itself"
        )
        #expect(
            addresses.refusal("http://127.0.0.1:9300/push/1") == nil
                && addresses.refusal("http://127.0.0.1:9301/push/1") != nil
        )
        for bad in ["127.0.0.1", "ftp://push.example.net", "push example"] {
            #expect(throws: ConfigurationErrors.self) {
                try PlazaConfiguration.fromEnvironment(["PLAZA_PUSH_HOSTS": bad])
            }
        }
    }

    @Test func everyAddressANameResolvesToMustBePublic() async throws {
        var addresses = OutboundGuard()
        let fcm = "https://fcm.googleapis.com/fcm/send/x"
        addresses.resolve = { _ in
            [[142, 250, 185, 10], [0x2a, 0x00, 0x14, 0x50] + Array(repeating: 0, count: 11) + [1]]
        }
        #expect(try await addresses.target(fcm) == CheckedTarget(host: "fcm.googleapis.com", address: "142.250.185.10"))
        // DNS pointing a known name at a private address (rebinding) is refused, even beside a public one.
        addresses.resolve = { _ in [[142, 250, 185, 10], [10, 0, 0, 1]] }
        await #expect(throws: OutboundGuard.Refused.self) { try await addresses.target(fcm) }
        addresses.resolve = { _ in [] }
        await #expect(throws: OutboundGuard.Refused.self) { try await addresses.target(fcm) }
        let special = [
            "0.0.0.0", "10.1.2.3", "100.64.0.1", "127.0.0.1", "169.254.169.254", "172.16.0.1", "192.0.0.8",
            "192.168.1.1", "198.18.0.1",
            "224.0.0.1", "255.255.255.255", "::", "::1", "::ffff:127.0.0.1", "::ffff:8.8.8.8", "64:ff9b::808:808",
            "fc00::1", "fe80::1",
            "ff02::1", "2001:db8::1", "2002:7f00:1::1", "2001::1",
        ]
        for text in special {
            #expect(!PublicAddress.isPublicUnicast(try #require(TrustedProxies.bytes(of: text))), "\(text)")
        }
        for text in ["8.8.8.8", "142.250.185.10", "2a00:1450:4001::1", "2606:4700:4700::1111"] {
            #expect(PublicAddress.isPublicUnicast(try #require(TrustedProxies.bytes(of: text))), "\(text)")
        }
    }

    static func device(_ endpoint: String, _ subscription: WebPushSubscription) -> DeviceRecord {
        DeviceRecord(
            id: UUID(),
            userID: UUID(),
            platform: .webpush,
            name: "test",
            address: endpoint,
            p256dh: subscription.keys.p256dh,
            auth: subscription.keys.auth,
            topic: nil,
            createdAt: Date(),
            lastDeliveredAt: nil
        )
    }

    @Test func theSenderFollowsNoRedirectAndNeverCallsARefusedAddress() async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        let subscription = receiver.subscribe()
        let redirecting = try await LoopbackServer.start(
            name: "redirecting-push",
            responder: CallbackResponder { _, _ in Response(status: .found, headers: [.location: subscription.endpoint])
            }
        )
        defer { Task { await redirecting.stop() } }
        let webPush = WebPush(vapid: P256.Signing.PrivateKey(), subject: "mailto:test@example.com")
        let payload = PushPayload(id: UUID(), kind: .account, title: "Hello", body: "", link: "/", sentAt: Date())
        let origins = [receiver.origin, "http://127.0.0.1:\(redirecting.port)"]
        // A generous deadline: on a loaded machine (the whole suite on two cores) the receiver can be slow to answer.
        let call = OutboundCall(addresses: OutboundGuard(pushServicesAnd: origins), timeout: .seconds(60))
        let sender = WebPushSender(webPush: webPush, call: call)
        let redirected = await sender.send(
            PushMessage(payload),
            to: Self.device("http://127.0.0.1:\(redirecting.port)/push/x", subscription)
        )
        guard case .rejected(let reason) = redirected else {
            Issue.record("a redirect answered \(redirected)")
            return
        }
        #expect(reason.hasPrefix("302"))
        // Stored before the guard, at an address it no longer lets through: never called, and forgotten.
        let guarded = WebPushSender(
            webPush: webPush,
            call: OutboundCall(addresses: OutboundGuard(), timeout: .seconds(60))
        )
        #expect(await guarded.send(PushMessage(payload), to: Self.device(subscription.endpoint, subscription)) == .gone)
        #expect(
            receiver.messages(to: subscription).isEmpty,
            "the redirect's target and the refused address heard nothing"
        )
        // The same subscription where it may be sent: delivered.
        #expect(
            await sender.send(PushMessage(payload), to: Self.device(subscription.endpoint, subscription)) == .delivered
        )
    }

    @Test(arguments: TestEngine.enabled)
    func aPushServiceThatHangsHoldsNobodyElsesAlerts(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        let calls = Atomic<Int>(0)
        let hanging = try await LoopbackServer.start(
            name: "hanging-push",
            responder: CallbackResponder { _, _ in
                calls.add(1, ordering: .relaxed)
                try await Task.sleep(for: .seconds(60))
                return Response(status: .created)
            }
        )
        defer { Task { await hanging.stop() } }
        let hosts = [receiver.origin, "http://127.0.0.1:\(hanging.port)"]
        try await TestPlaza.withApp(engine, .live, configure: { $0.push.hosts = hosts }) { client, services in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let carla = try await accounts.signedIn("carla").accessToken
            #expect(
                try await Self.register(client, endpoint: "http://127.0.0.1:\(hanging.port)/push/anna", token: anna)
                    .status == .created
            )
            let subscription = receiver.subscribe()
            let registered = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .webpush, subscription: subscription),
                token: carla
            )
            #expect(registered.status == .created)
            let users = try await (
                AccountStore().user(login: "anna", on: services.database.sql),
                AccountStore().user(login: "carla", on: services.database.sql)
            )
            let alert = { @Sendable (user: UUID) async throws in
                let content = NotificationContent(
                    kind: .moneyReceived,
                    title: "Bruno sent you $1.00.",
                    body: "",
                    link: "/wallet"
                )
                try await services.database.transaction { db in
                    try await services.notifications.store.enqueue(
                        [(id: UUID(), user: user, content: content)],
                        now: Date(),
                        on: db
                    )
                }
                services.notificationDelivery.nudge()
            }
            try await alert(try #require(users.0).id)
            for _ in 0..<500 where calls.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(calls.load(ordering: .relaxed) == 1, "Anna's push service has her alert and does not answer")
            // Carla's alert goes out while Anna's send still waits (its timeout is 10 s).
            try await alert(try #require(users.1).id)
            let arrived = try await receiver.waitFor(1, to: subscription, seconds: 5)
            #expect(arrived.count == 1, "Carla's alert waited for Anna's push service")
        }
    }
}
