import SQLKit

/// The W3C `traceparent` of the request that queued a notification (issue 42), so that its push, sent later by
/// whichever process claims it, joins that request's trace; NULL when tracing was off.
struct M0057_NotificationTraceParent: Migration {
    let name = "NotificationTraceParent"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "notifications").column("trace_parent", type: .text).run()
    }
}
