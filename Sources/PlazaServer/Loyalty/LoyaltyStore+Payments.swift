import Foundation
import PlazaCore
import SQLKit

/// Loyalty's SQL for paying earns the punch: the programs that earn on payment, each charge's punches on each program
/// (once: the charge and program are the key), and customers' consent that paying may take a first card.
extension LoyaltyStore {
    /// The business's active programs that earn on payment, oldest first.
    func earningPrograms(business: UUID, on db: any SQLDatabase) async throws -> [ProgramRecord] {
        try await db.select().columns(ProgramRecord.columns.map { SQLIdentifier($0) }).from("loyalty_programs")
            .where("business_id", .equal, business)
            .where("state", .equal, LoyaltyProgramState.active.rawValue)
            .where("earn_on_payment", .equal, true)
            .orderBy("created_at").orderBy("id")
            .all().map(ProgramRecord.init(row:))
    }

    /// Records what a charge earned on a program; false when the charge earned on it already (nothing is written).
    func insertPaymentPunches(
        _ earned: LoyaltyEarned,
        charge: UUID,
        user: UUID,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.insert(into: "loyalty_payment_punches")
            .columns(
                "charge_id",
                "program_id",
                "card_id",
                "user_id",
                "punches_added",
                "punches",
                "punches_required",
                "completed",
                "taken_back",
                "created_at"
            )
            .values(
                SQLBind(charge),
                SQLBind(earned.programId),
                SQLBind(earned.cardId),
                SQLBind(user),
                SQLBind(earned.punchesAdded),
                SQLBind(earned.punches),
                SQLBind(earned.punchesRequired),
                SQLBind(earned.completed),
                SQLBind(0),
                SQLBind(now)
            )
            .ignoringConflicts().returning("charge_id").first() != nil
    }

    /// A charge's punches by program, with what refunds took back.
    func paymentPunches(
        charges: [UUID],
        on db: any SQLDatabase
    ) async throws -> [UUID: [(earned: LoyaltyEarned, takenBack: Int)]] {
        guard !charges.isEmpty else { return [:] }
        let columns = [
            "charge_id", "program_id", "card_id", "punches_added", "punches", "punches_required", "completed",
            "taken_back", "created_at",
        ]
        let rows = try await db.select()
            .columns(columns.map { SQLColumn($0, table: "q") }).column(SQLColumn("title", table: "c"))
            .from(SQLAlias(SQLIdentifier("loyalty_payment_punches"), as: SQLIdentifier("q")))
            .join(
                SQLAlias(SQLIdentifier("loyalty_cards"), as: SQLIdentifier("c")),
                on: SQLColumn("id", table: "c"),
                .equal,
                SQLColumn("card_id", table: "q")
            )
            .where(SQLColumn("charge_id", table: "q"), .in, SQLBind.group(charges))
            .orderBy(SQLColumn("created_at", table: "q")).orderBy(SQLColumn("program_id", table: "q")).all()
        var found: [UUID: [(earned: LoyaltyEarned, takenBack: Int)]] = [:]
        for row in rows {
            let earned = LoyaltyEarned(
                programId: try row.decode(column: "program_id", as: UUID.self),
                cardId: try row.decode(column: "card_id", as: UUID.self),
                punchesAdded: try row.decode(column: "punches_added", as: Int.self),
                punches: try row.decode(column: "punches", as: Int.self),
                punchesRequired: try row.decode(column: "punches_required", as: Int.self),
                completed: try row.decode(column: "completed", as: Bool.self),
                title: try row.decode(column: "title", as: String.self)
            )
            found[try row.decode(column: "charge_id", as: UUID.self), default: []].append(
                (earned, try row.decode(column: "taken_back", as: Int.self))
            )
        }
        return found
    }

    /// Adds to what refunds took back of a charge's punches on a program.
    func takeBack(_ count: Int, charge: UUID, program: UUID, on db: any SQLDatabase) async throws {
        try await db.update("loyalty_payment_punches")
            .set(
                SQLIdentifier("taken_back"),
                to: SQLBinaryExpression(SQLIdentifier("taken_back"), .add, SQLBind(count))
            )
            .where("charge_id", .equal, charge).where("program_id", .equal, program).run()
    }

    /// Deletes the next level's card a completed card started (the first of the next level made after it: timestamps
    /// read back are not compared for equality), when it has no punch yet; false when it collects already (or was
    /// redeemed or ended).
    func deleteUnpunchedSuccessor(of card: CardRecord, on db: any SQLDatabase) async throws -> Bool {
        let successors = try await db.select().columns(CardRecord.columns.map { SQLIdentifier($0) })
            .from("loyalty_cards").where("program_id", .equal, card.programId).where("user_id", .equal, card.userId)
            .where("level", .equal, card.level + 1).where(
                "created_at",
                .greaterThanOrEqual,
                card.createdAt
            )
            .orderBy("created_at").limit(1).for(.update).all().map(CardRecord.init(row:))
        guard let next = successors.first else { return true }
        guard next.state == .active, next.punches == 0 else { return false }
        try await db.delete(from: "loyalty_cards").where("id", .equal, next.id).run()
        return true
    }

    /// Whether paying may take the user a first card (false until they say so).
    func cardOnPayment(user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("card_on_payment").from("loyalty_settings").where("user_id", .equal, user)
            .first()?.decode(column: "card_on_payment", as: Bool.self) ?? false
    }

    func setCardOnPayment(_ allowed: Bool, user: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "loyalty_settings").columns("user_id", "card_on_payment", "updated_at")
            .values(SQLBind(user), SQLBind(allowed), SQLBind(now))
            .onConflict(with: ["user_id"]) {
                $0.set(excludedValueOf: "card_on_payment").set(excludedValueOf: "updated_at")
            }
            .run()
    }
}

extension LoyaltyStore {
    /// The punches paid charges earned on `card`, oldest first, each with its charge's receipt number (the card page
    /// lists them with the scanned ones: "+2 by paying PZ-7Q4K").
    func paymentPunches(card: UUID, on db: any SQLDatabase) async throws -> [LoyaltyPaymentPunch] {
        try await db.select().columns("charge_id", "punches_added", "taken_back", "created_at")
            .column(
                SQLQueryString("(SELECT reference FROM charges WHERE charges.id = loyalty_payment_punches.charge_id)"),
                as: "reference"
            )
            .from("loyalty_payment_punches").where("card_id", .equal, card)
            .where("punches_added", .greaterThan, SQLLiteral.numeric("0"))
            .orderBy("created_at").orderBy("charge_id").all().map {
                LoyaltyPaymentPunch(
                    chargeId: try $0.decode(column: "charge_id", as: UUID.self),
                    reference: try $0.decode(column: "reference", as: String?.self) ?? "",
                    punchesAdded: try $0.decode(column: "punches_added", as: Int.self),
                    takenBack: try $0.decode(column: "taken_back", as: Int.self),
                    createdAt: try $0.decode(column: "created_at", as: Date.self)
                )
            }
    }
}
