import Foundation

/// One currency of a wallet: what can be spent now and what is still on its way in (top-ups awaiting the processor).
public struct Balance: Codable, Sendable, Hashable {
    public var currency: String
    public var available: Int64
    public var pending: Int64

    public init(currency: String, available: Int64, pending: Int64) {
        self.currency = currency
        self.available = available
        self.pending = pending
    }
}

/// `GET /v1/wallet`.
public struct Wallet: Codable, Sendable, Hashable {
    public var balances: [Balance]

    public init(balances: [Balance]) {
        self.balances = balances
    }
}

/// Who is on the other side of a movement: a user (by username) or a business, or Plaza itself (top-ups, withdrawals).
public struct Party: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case user
        case business
        case plaza
    }

    public var kind: Kind
    /// The business's id; absent for users (their username is the public handle) and for Plaza.
    public var id: UUID?
    public var username: String?
    public var name: String

    public init(kind: Kind, id: UUID? = nil, username: String? = nil, name: String) {
        self.kind = kind
        self.id = id
        self.username = username
        self.name = name
    }
}

/// `POST /v1/transfers`.
public struct TransferRequest: Codable, Sendable, Hashable {
    /// The recipient's username.
    public var to: String
    public var amount: Int64
    public var currency: String
    public var note: String?

    public init(to: String, amount: Int64, currency: String, note: String? = nil) {
        self.to = to
        self.amount = amount
        self.currency = currency
        self.note = note
    }
}

/// A person-to-person payment, as its sender and its recipient see it.
public struct Transfer: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var from: Party
    public var to: Party
    public var amount: Int64
    public var currency: String
    public var note: String?
    public var createdAt: Date

    public init(id: UUID, from: Party, to: Party, amount: Int64, currency: String, note: String?, createdAt: Date) {
        self.id = id
        self.from = from
        self.to = to
        self.amount = amount
        self.currency = currency
        self.note = note
        self.createdAt = createdAt
    }

    public var money: Money { Money(amount: amount, currency: currency) }
}
