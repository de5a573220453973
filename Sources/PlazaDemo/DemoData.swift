import Foundation
import PlazaCore
import PlazaServer

/// The demo's accounts: created once, verified, with passwords printed at start so anyone can log in.
public enum DemoData {
    public struct Account: Sendable {
        public var email: String
        public var username: String
        public var displayName: String
        public var password: String
        public var role: Role
        /// A merchant who signed up and waits for the admin's approval (the demo admin's review queue shows them).
        public var awaitingApproval = false
    }

    public static let accounts = [
        Account(
            email: "anna@demo.plaza.test",
            username: "anna",
            displayName: "Anna Customer",
            password: "demo-anna-2026",
            role: .customer
        ),
        Account(
            email: "bruno@demo.plaza.test",
            username: "bruno",
            displayName: "Bruno's Bakery",
            password: "demo-bruno-2026",
            role: .merchant
        ),
        Account(
            email: "carla@demo.plaza.test",
            username: "carla",
            displayName: "Carla Friend",
            password: "demo-carla-2026",
            role: .customer
        ),
        Account(
            email: "admin@demo.plaza.test",
            username: "admin",
            displayName: "Plaza Admin",
            password: "demo-admin-2026",
            role: .admin
        ),
        Account(
            email: "dora@demo.plaza.test",
            username: "dora",
            displayName: "Dora Blum",
            password: "demo-dora-2026",
            role: .merchant,
            awaitingApproval: true
        ),
        Account(
            email: "dana@demo.plaza.test",
            username: "dana",
            displayName: "Dana Moreau",
            password: "demo-dana-2026",
            role: .designer
        ),
    ]

    /// The student who can log in: Ella of Isar University, who sells in the campus marketplace (Finn, the other
    /// seeded student, keeps a password nobody knows; a second student is any account that joins with an
    /// `@isar-uni.edu` address).
    public static let student = (username: "ella", password: "demo-ella-2026")

    /// Creates the demo accounts that do not exist yet.
    public static func seed(_ services: PlazaServices) async throws {
        for account in accounts {
            try await services.createAccount(
                email: account.email,
                username: account.username,
                displayName: account.displayName,
                password: account.password,
                role: account.role,
                checkPolicy: false,
                awaitingApproval: account.awaitingApproval
            )
        }
        try await seedPlaces(services)
        try await seedCounter(services)
        try await seedWallet(services)
        try await seedMarket(services)
        try await seedCards(services)
    }

    /// The lines `plaza demo` prints.
    public static func banner(baseURL: String) -> String {
        var lines = ["", "Plaza demo is running at \(baseURL)", "Log in with any of these accounts:"]
        for account in accounts {
            lines.append(
                "  \(account.role.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(account.username) / \(account.password)   (\(account.email))"
            )
        }
        lines.append(
            "  student   \(student.username) / \(student.password)   (Ella Park, Isar University: sells in the marketplace)"
        )
        lines += [
            "Places: \(baseURL)/places (Bruno's shops are on Munich's Marienplatz; the map is at \(baseURL)/places/map)"
        ]
        lines += [
            "Wallet: \(baseURL)/wallet (test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined; any future expiry and CVC)"
        ]
        lines += [
            "Bruno's counter: \(baseURL)/places/mine → Counter (charge Anna while she shares her location there, or with her pay code)"
        ]
        lines += [
            "Admin: \(baseURL)/admin (Dora's flower stall and Bruno's Saturday cake coupon wait in the review queue)"
        ]
        lines += [
            "Offers: Bruno's bakery runs a morning coupon and the café an ad; Anna gets them near the square once her offer settings "
                + "(\(baseURL)/offers/settings) let nearby shops reach her"
        ]
        lines += [
            "Loyalty: Anna's coffee card (Home → Loyalty cards) offers Apple and Google Wallet passes signed with the demo's own "
                + "certificate and key: the passes are right, but the wallets take them only from a real issuer "
                + "(PLAZA_PASS_*, PLAZA_GOOGLE_WALLET_*)."
        ]
        lines += [
            "Campus marketplace: \(baseURL)/market (join Isar University with any address at isar-uni.edu, such as anna@isar-uni.edu)"
        ]
        lines += [
            "Card shop: \(baseURL)/cards (Dana Moreau's wedding, party and holiday cards; her studio is at \(baseURL)/cards/studio, "
                + "and her Winter Wreath waits in the admin's review queue)"
        ]
        lines += [
            "E-mail is not sent in the demo: read it at \(baseURL)/dev/mailbox", "API reference: \(baseURL)/docs/api",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
