import Foundation
import HTTPTypes
import PlazaCore

/// Apple Wallet's pass web service (`{webServiceURL}/v1/…`): devices that added a card's pass register for its
/// updates, ask which of their passes changed, and fetch the latest; each call about one pass carries the pass's own
/// `authenticationToken`.
extension LoyaltyService {
    /// The card a pass stands for, when the pass type is this Plaza's and the token is the pass's; 401 otherwise.
    func authorizedPass(passType: String, serial: String, authorization: String?) throws -> UUID {
        let unauthorized = PlazaError(.unauthorized, .unauthorized, phrase("This pass's token is missing or wrong."))
        guard let apple = passes.apple, passType == apple.passTypeIdentifier, let card = UUID(uuidString: serial) else {
            throw unauthorized
        }
        let given =
            authorization?.hasPrefix("ApplePass ") == true
            ? String(authorization?.dropFirst("ApplePass ".count) ?? "") : ""
        guard Secrets.constantTimeEquals(given, passToken(card)) else { throw unauthorized }
        return card
    }

    /// Registers a device for a pass's updates: true when new (201), false when it was registered already (200).
    func registerPassDevice(
        _ device: String,
        passType: String,
        serial: String,
        authorization: String?,
        pushToken: String,
        now: Date = Date()
    ) async throws -> Bool {
        let card = try authorizedPass(passType: passType, serial: serial, authorization: authorization)
        guard !device.isEmpty, device.count <= 200, !pushToken.isEmpty, pushToken.count <= 200 else {
            throw PlazaError.validation(field: "pushToken", phrase("Send the device's push token."))
        }
        guard try await store.card(card, on: database.sql) != nil else { throw PlazaError.notFound("pass") }
        return try await store.register(
            device: device,
            passType: passType,
            serial: card,
            pushToken: pushToken,
            now: now,
            on: database.sql
        )
    }

    func unregisterPassDevice(_ device: String, passType: String, serial: String, authorization: String?) async throws {
        let card = try authorizedPass(passType: passType, serial: serial, authorization: authorization)
        try await store.unregister(device: device, passType: passType, serial: card, on: database.sql)
    }

    /// The serial numbers of a device's passes that changed after `since` (the `lastUpdated` of an earlier answer), and
    /// the new tag; nil when none did (204).
    func updatedPasses(
        _ device: String,
        passType: String,
        since: String?
    ) async throws -> (serialNumbers: [String], lastUpdated: String)? {
        let cards = try await store.registeredCards(device: device, passType: passType, on: database.sql)
        let after = since.flatMap(Int64.init).map { Date(timeIntervalSince1970: Double($0) / 1_000) } ?? .distantPast
        let changed = cards.filter { $0.changed > after }
        guard let newest = changed.map(\.changed).max() else { return nil }
        return (
            changed.map { $0.serial.uuidString.lowercased() }.sorted(),
            String(Int64((newest.timeIntervalSince1970 * 1_000).rounded(.up)))
        )
    }

    /// The latest pass and when its card last changed; nil when it has not changed since `ifModifiedSince` (304).
    func latestPass(
        passType: String,
        serial: String,
        authorization: String?,
        ifModifiedSince: Date?
    ) async throws -> (Data, Date)? {
        let id = try authorizedPass(passType: passType, serial: serial, authorization: authorization)
        guard let record = try await store.card(id, on: database.sql),
            let changed = try await store.changed(card: id, on: database.sql)
        else {
            throw PlazaError.notFound("pass")
        }
        // HTTP dates have whole seconds.
        if let ifModifiedSince, changed.timeIntervalSince1970.rounded(.down) <= ifModifiedSince.timeIntervalSince1970 {
            return nil
        }
        return (try await applePass(try await named([record], on: database.sql)[0]), changed)
    }
}

extension LoyaltyService {
    /// After a change to cards has committed: the devices holding their passes are told (in the background, so the
    /// counter never waits for Apple).
    func passesChanged(_ cards: [UUID]) async {
        guard let passUpdates, !cards.isEmpty, let tokens = try? await store.pushTokens(cards: cards, on: database.sql),
            !tokens.isEmpty
        else {
            return
        }
        Task { await passUpdates.notify(tokens) }
    }
}
