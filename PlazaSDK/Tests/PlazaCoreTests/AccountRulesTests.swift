import Foundation
import PlazaCore
import Testing

@Suite struct AccountRulesTests {
    @Test(arguments: ["anna", "a.b_c", "abc", String(repeating: "x", count: 30), "user123"])
    func acceptsUsernamesOfAllowedCharacters(_ name: String) {
        #expect(AccountRules.usernameProblem(name) == nil)
    }

    @Test(arguments: ["ab", String(repeating: "x", count: 31), "Anna", "an na", "anna!", "ånna", ""])
    func refusesUsernamesOutsideTheRules(_ name: String) {
        #expect(AccountRules.usernameProblem(name) != nil)
    }

    @Test func normalizesUsernamesAndEmailsSoTheyCompareCaseInsensitively() {
        #expect(AccountRules.normalizedUsername("  Zoe.B ") == "zoe.b")
        #expect(AccountRules.normalizedEmail(" Zoe@Example.COM ") == "zoe@example.com")
    }

    @Test(arguments: ["a@b.co", "first.last+tag@mail.example.org"])
    func acceptsOrdinaryEmailAddresses(_ email: String) {
        #expect(AccountRules.emailProblem(email) == nil)
    }

    @Test(arguments: ["", "plain", "@example.com", "a@b", "a@@b.co", "a b@c.de", "a@b..co", "a@b.co\n"])
    func refusesMalformedEmailAddresses(_ email: String) {
        #expect(AccountRules.emailProblem(email) != nil)
    }

    /// Names show on a merchant's counter and on receipts: nothing that reorders, hides or spills over the text around it.
    @Test(arguments: [
        "Bob\u{202E}0.01$", "Carla\u{2066}K", "Anna\u{2028}Second line", "Zero\u{200B}width", "Bell\u{0007}",
        "Z" + String(repeating: "\u{0301}", count: 200), "e" + String(repeating: "\u{0300}", count: 5),
    ])
    func refusesNamesThatHideOrReorderText(_ name: String) {
        #expect(AccountRules.displayNameProblem(name) != nil)
        #expect(BusinessRules.nameProblem(name) != nil)
    }

    @Test(arguments: [
        "Anna Customer", "Nguyễn Thị Minh Khai", "देवनागरी", "سلام‌دنیا", "👨‍👩‍👧 family", "Zoë O'Brien-Smith", "李小龍",
    ])
    func acceptsNamesOfEveryScript(_ name: String) {
        #expect(AccountRules.displayNameProblem(name) == nil)
    }

    @Test func passwordsNeedTenCharacters() {
        #expect(AccountRules.passwordProblem("123456789") != nil)
        #expect(AccountRules.passwordProblem("1234567890") == nil)
        // 200 bytes: bcrypt would truncate.
        #expect(AccountRules.passwordProblem(String(repeating: "é", count: 100)) != nil)
    }

    @Test func birthDatesMustBeRealDatesOfSomeoneThirteenOrOlder() throws {
        let now = try #require(AccountRules.parseBirthDate("2026-11-23"))
        #expect(AccountRules.birthDateProblem("2000-02-29", now: now) == nil)
        #expect(AccountRules.birthDateProblem("2013-11-23", now: now) == nil)
        #expect(AccountRules.birthDateProblem("2013-11-24", now: now) != nil)
        #expect(AccountRules.birthDateProblem("2001-02-29", now: now) != nil)
        #expect(AccountRules.birthDateProblem("23.11.2000", now: now) != nil)
        #expect(AccountRules.birthDateProblem("1800-01-01", now: now) != nil)
    }

    @Test func registrationReportsEveryBadFieldAtOnce() {
        let request = RegisterRequest(
            email: "nope",
            username: "X",
            displayName: " ",
            password: "short",
            role: .admin,
            birthDate: "yesterday"
        )
        let fields = request.fieldErrors(now: Date()).map(\.field)
        #expect(fields == ["email", "username", "displayName", "password", "role", "birthDate"])
    }

    @Test func codesAreSixDigits() {
        #expect(AccountRules.isCodeShaped("012345"))
        #expect(!AccountRules.isCodeShaped("12345"))
        #expect(!AccountRules.isCodeShaped("12345a"))
        #expect(!AccountRules.isCodeShaped("١٢٣٤٥٦"))  // Arabic-Indic digits are numbers, not ASCII digits
    }
}
