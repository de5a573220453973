import Crypto
import Foundation

/// Chat messages at rest: AES-GCM with a key derived (HKDF-SHA256) from the operator's secret, the conversation's id
/// bound in as associated data so that a message copied into another conversation does not open.
struct MessageCipher: Sendable {
    let key: SymmetricKey

    init(secretKey: String) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secretKey.utf8)),
            salt: Data("plaza".utf8),
            info: Data("plaza:market:chat:v1".utf8),
            outputByteCount: 32
        )
    }

    func seal(_ text: String, conversation: UUID) throws -> Data {
        guard
            let combined = try AES.GCM.seal(Data(text.utf8), using: key, authenticating: Self.data(conversation))
                .combined
        else {
            throw CipherError.sealFailed
        }
        return combined
    }

    func open(_ sealed: Data, conversation: UUID) throws -> String {
        let box = try AES.GCM.SealedBox(combined: sealed)
        return String(
            decoding: try AES.GCM.open(box, using: key, authenticating: Self.data(conversation)),
            as: UTF8.self
        )
    }

    private static func data(_ id: UUID) -> Data { Data(id.uuidString.lowercased().utf8) }

    enum CipherError: Error { case sealFailed }
}
