import Foundation
import HTTPTypes
import PlazaCore

extension IdempotencyStore {
    /// Each money form carries a key made when it was rendered (`idempotencyKey`), so a double click or a resubmitted
    /// page acts once. Runs `body` with the form's claim; false when the same form was already sent and answered (the
    /// caller shows "done"). The same key with other values is refused, as is one whose first submission is still
    /// running. A failed attempt gives its key back, so the corrected form can be sent again.
    func once(
        _ form: FormData,
        action: String,
        user: UUID,
        _ body: (IdempotencyClaim) async throws -> Void
    ) async throws -> Bool {
        guard let claim = try await claim(form, action: action, user: user) else { return false }
        do {
            try await body(claim)
        } catch {
            try? await abandon(claim)
            throw error
        }
        return true
    }

    private func claim(_ form: FormData, action: String, user: UUID) async throws -> IdempotencyClaim? {
        // A form without its key (an old page, a hand-made post) still acts, once per submission.
        let key = UUID(uuidString: form["idempotencyKey"]) != nil ? form["idempotencyKey"] : UUID().uuidString
        let fields = form.values.sorted { $0.key < $1.key }.filter { $0.key != "_csrf" }.map {
            "\($0.key)=\($0.value)\n"
        }.joined()
        switch try await start(
            scope: "page:\(user.uuidString)",
            key: "\(action):\(key)",
            requestHash: requestHash(Data(fields.utf8)),
            lease: lease
        ) {
        case .started(let claim): return claim
        case .replay: return nil
        case .mismatch:
            throw PlazaError(
                .unprocessableContent,
                .idempotencyKeyReused,
                "This form was sent before with other values.",
                detail: "Reload the page and try again."
            )
        case .inProgress:
            throw PlazaError(
                .conflict,
                .conflict,
                "This form is still being processed.",
                detail: "Wait a moment, then reload the page."
            )
        }
    }
}
