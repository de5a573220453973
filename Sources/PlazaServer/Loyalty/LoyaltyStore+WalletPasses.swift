import Foundation
import PlazaCore
import SQLKit

/// The SQL of Apple Wallet's pass web service: registrations, and when a card last changed.
extension LoyaltyStore {
    /// Registers a device for a card's pass updates; false when it was registered already (its push token refreshed).
    func register(
        device: String,
        passType: String,
        serial: UUID,
        pushToken: String,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        let existing = try await db.select().column("serial").from("wallet_pass_registrations").where(
            "device_id",
            .equal,
            device
        )
        .where("pass_type_id", .equal, passType).where("serial", .equal, serial).first()
        if existing != nil {
            try await db.update("wallet_pass_registrations").set("push_token", to: pushToken).where(
                "device_id",
                .equal,
                device
            )
            .where("pass_type_id", .equal, passType).where("serial", .equal, serial).run()
            return false
        }
        try await db.insert(into: "wallet_pass_registrations").columns(
            "device_id",
            "pass_type_id",
            "serial",
            "push_token",
            "created_at"
        )
        .values(SQLBind(device), SQLBind(passType), SQLBind(serial), SQLBind(pushToken), SQLBind(now))
        .ignoringConflicts(with: ["device_id", "pass_type_id", "serial"]).run()
        return true
    }

    func unregister(device: String, passType: String, serial: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "wallet_pass_registrations").where("device_id", .equal, device).where(
            "pass_type_id",
            .equal,
            passType
        )
        .where("serial", .equal, serial).run()
    }

    /// The cards a device registered for, with when each last changed (a punch, its completion or redemption).
    func registeredCards(
        device: String,
        passType: String,
        on db: any SQLDatabase
    ) async throws -> [(serial: UUID, changed: Date)] {
        let rows = try await db.select().column(SQLColumn("serial", table: "r"))
            .column(SQLColumn("created_at", table: "c")).column(SQLColumn("completed_at", table: "c")).column(
                SQLColumn("redeemed_at", table: "c")
            )
            .column(
                SQLQueryString("(SELECT MAX(p.counted_at) FROM loyalty_punches p WHERE p.card_id = r.serial)"),
                as: "punched_at"
            )
            .from(SQLAlias(SQLIdentifier("wallet_pass_registrations"), as: SQLIdentifier("r")))
            .join(
                SQLAlias(SQLIdentifier("loyalty_cards"), as: SQLIdentifier("c")),
                on: SQLColumn("id", table: "c"),
                .equal,
                SQLColumn("serial", table: "r")
            )
            .where(SQLColumn("device_id", table: "r"), .equal, SQLBind(device)).where(
                SQLColumn("pass_type_id", table: "r"),
                .equal,
                SQLBind(passType)
            )
            .all()
        return try rows.map { row in
            let dates = [
                try row.decode(column: "created_at", as: Date.self),
                try row.decode(column: "completed_at", as: Date?.self),
                try row.decode(column: "redeemed_at", as: Date?.self),
                try row.decode(column: "punched_at", as: Date?.self),
            ]
            return (try row.decode(column: "serial", as: UUID.self), dates.compactMap { $0 }.max() ?? .distantPast)
        }
    }

    /// When a card last changed.
    func changed(card: UUID, on db: any SQLDatabase) async throws -> Date? {
        guard let card = try await self.card(card, on: db) else { return nil }
        let punched = try await db.select().column(SQLFunction("MAX", args: SQLIdentifier("counted_at")), as: "at")
            .from("loyalty_punches")
            .where("card_id", .equal, card.id).first()?.decode(column: "at", as: Date?.self)
        return [card.createdAt, card.completedAt, card.redeemedAt, punched].compactMap { $0 }.max()
    }

    /// The push tokens of the devices that hold the cards' passes.
    func pushTokens(cards: [UUID], on db: any SQLDatabase) async throws -> [String] {
        guard !cards.isEmpty else { return [] }
        return try await db.select().column("push_token").from("wallet_pass_registrations").where(
            "serial",
            .in,
            SQLBind.group(cards)
        ).all()
            .map { try $0.decode(column: "push_token", as: String.self) }
    }
}
