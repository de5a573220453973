#if canImport(Security)
import Foundation
import Security

/// Tokens in the Keychain, the default on Apple platforms: they survive relaunches and updates, stay on this device
/// (`AfterFirstUnlockThisDeviceOnly`: not in backups, readable by background tasks once the phone was unlocked), and
/// are gone with the app.
///
/// One generic-password item per value, under `service` (by default `"Plaza " + the server's host`, so one app may
/// talk to several Plazas); pass `accessGroup` to share the sign-in with an app extension.
public actor KeychainTokenStore: TokenStore {
    public let service: String
    public let accessGroup: String?

    public init(service: String = "Plaza", accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public func load() async -> Tokens? {
        read("tokens").flatMap { try? JSONDecoder().decode(Tokens.self, from: $0) }
    }

    public func save(_ tokens: Tokens?) async {
        guard let tokens, let data = try? JSONEncoder().encode(tokens) else { return delete("tokens") }
        write("tokens", data)
    }

    public func loadDeviceToken() async -> String? {
        read("device-token").map { String(decoding: $0, as: UTF8.self) }
    }

    public func saveDeviceToken(_ token: String) async {
        write("device-token", Data(token.utf8))
    }

    private func item(_ account: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private func read(_ account: String) -> Data? {
        var query = item(account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? Data
    }

    private func write(_ account: String, _ data: Data) {
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        if SecItemUpdate(item(account) as CFDictionary, attributes as CFDictionary) == errSecItemNotFound {
            let added = item(account).merging(attributes) { $1 }
            _ = SecItemAdd(added as CFDictionary, nil)
        }
    }

    private func delete(_ account: String) {
        _ = SecItemDelete(item(account) as CFDictionary)
    }
}
#endif
