import SQLKit

/// The admin console (issue 21): merchants approved before they trade, accounts suspended with a reason, one review
/// queue that later kinds join (campaigns, reports, templates), and an append-only audit log of every admin action.
struct M0015_Admin: Migration {
    let name = "Admin"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // A merchant's standing: pending until an admin decides; null for everyone else. Merchants already trading stay.
        try await db.alter(table: "users").column("approval", type: .text).run()
        try await db.alter(table: "users").column("approval_reason", type: .text).run()
        try await db.alter(table: "users").column("suspended_at", type: engine.timestamp).run()
        try await db.alter(table: "users").column("suspension_reason", type: .text).run()
        try await db.update("users").set("approval", to: "approved").where("role", .equal, "merchant").run()

        try await db.create(table: "review_items")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("kind", type: .text, .notNull)
            .column("subject_id", type: engine.uuid, .notNull)
            .column("subject", type: .text, .notNull)
            // A JSON array of sentences: what the admin should look at before deciding.
            .column("findings", type: .text, .notNull)
            .column("state", type: .text, .notNull)
            .column("claimed_by", type: engine.uuid)
            .column("claimed_until", type: engine.timestamp)
            .column("decided_by", type: engine.uuid)
            .column("decided_at", type: engine.timestamp)
            .column("reason", type: .text)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "review_items_state").on("review_items").column("state").column("created_at").run()
        // One open item per subject and kind (a merchant who verifies twice is still one item).
        try await db.raw(
            "CREATE UNIQUE INDEX review_items_open ON review_items (kind, subject_id) WHERE state = 'open'"
        ).run()

        try await db.create(table: "audit_log")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("at", type: engine.timestamp, .notNull)
            .column("admin_id", type: engine.uuid, .notNull)
            .column("admin_username", type: .text, .notNull)
            .column("action", type: .text, .notNull)
            .column("object_kind", type: .text, .notNull)
            .column("object_id", type: .text, .notNull)
            .column("reason", type: .text)
            .column("detail", type: .text)
            .run()
        try await db.create(index: "audit_log_at").on("audit_log").column("at").run()
        // Append-only, enforced by the database too: no statement may change or remove an entry.
        switch engine {
        case .sqlite:
            for operation in ["UPDATE", "DELETE"] {
                try await db.raw(
                    "CREATE TRIGGER audit_log_no_\(unsafeRaw: operation.lowercased()) BEFORE \(unsafeRaw: operation) ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
                ).run()
            }
        case .postgres:
            try await db.raw(
                """
                CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ \
                BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$
                """
            ).run()
            try await db.raw(
                "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()"
            ).run()
        }
    }
}
