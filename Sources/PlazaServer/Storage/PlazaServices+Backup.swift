extension PlazaServices {
    /// `plaza backup PATH`.
    public func backup(to path: String) async throws {
        try await database.backup(to: path)
    }
}
