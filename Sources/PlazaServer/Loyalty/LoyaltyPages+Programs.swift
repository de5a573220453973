import Foundation
import Hummingbird
import PlazaCore

/// The owner's program editor: start a program from the counter page, change its wording (and its rules while nobody
/// holds a card), pause, resume or end it.
extension LoyaltyPages {
    /// The editor's fields. A further level is one pair of fields (`levels[0]` in the API, renamed: Mustache reads dots).
    static let programFields = [
        "title", "punchesRequired", "reward", "description", "velocityWindowMinutes", "cardValidDays", "expiresAt",
        "minimumSpend",
        "levelPunches", "levelReward", "oneCardAtATime", "earnOnPayment", "punchPer",
    ]
    static let levelFields = [
        "levels[0].punchesRequired": "levelPunches", "levels[0].reward": "levelReward", "levels": "levelPunches",
        "punchesPerPurchase.per": "punchPer", "punchesPerPurchase": "punchPer",
    ]

    static var newProgramForm: FormState {
        FormState(names: programFields).with("velocityWindowMinutes", "10").with("oneCardAtATime", "1")
    }

    /// The form's problem with the API's field names turned into the form's.
    static func formError(_ error: PlazaError) -> PlazaError {
        var renamed = error
        renamed.errors = error.errors?.map { FieldError(field: levelFields[$0.field] ?? $0.field, message: $0.message) }
        return renamed
    }

    /// A program as the form asks for it. What cannot be read (a day or an amount that is none) is refused by field;
    /// the rest is judged by `LoyaltyRules` in the service.
    func programRequest(_ form: FormData, reader: Reader) throws -> LoyaltyProgramRequest {
        var validator = Validator()
        func number(_ name: String) -> Int? {
            form[name].isEmpty ? nil : Int(form[name].trimmingCharacters(in: .whitespaces)) ?? -1
        }
        var expiresAt: Date?
        if !form["expiresAt"].isEmpty {
            expiresAt = Self.endOfDay(form["expiresAt"], in: reader.timeZone)
            validator.check(expiresAt != nil, "expiresAt", phrase("Pick a day such as 2026-12-31, or leave it empty."))
        }
        var minimumSpend: Money?
        if !form["minimumSpend"].isEmpty {
            let amount = WalletRules.parseAmount(form["minimumSpend"], currency: currency)
            validator.check(
                (amount ?? 0) > 0,
                "minimumSpend",
                phrase("Type an amount such as 5.00, or leave it empty.")
            )
            minimumSpend = amount.map { Money(amount: $0, currency: currency) }
        }
        var per = PunchesPerPurchase.one
        if !form["punchPer"].isEmpty {
            let amount = WalletRules.parseAmount(form["punchPer"], currency: currency)
            validator.check((amount ?? 0) > 0, "punchPer", phrase("Type an amount such as 5.00, or leave it empty."))
            per = amount.map { .per(Money(amount: $0, currency: currency)) } ?? .one
        }
        guard validator.isValid else { throw PlazaError.validation(validator.errors) }
        let level =
            form["levelPunches"].isEmpty && form["levelReward"].isEmpty
            ? nil : LoyaltyLevel(punchesRequired: number("levelPunches") ?? 0, reward: form["levelReward"])
        return LoyaltyProgramRequest(
            title: form["title"],
            description: form["description"],
            punchesRequired: number("punchesRequired") ?? 0,
            reward: form["reward"],
            levels: level.map { [$0] },
            expiresAt: expiresAt,
            cardValidDays: number("cardValidDays"),
            minimumSpend: minimumSpend,
            oneCardAtATime: form["oneCardAtATime"] == "1",
            velocityWindowMinutes: number("velocityWindowMinutes"),
            earnOnPayment: form["earnOnPayment"] == "1",
            punchesPerPurchase: per
        )
    }

    /// The last moment of a day typed as `2026-12-31`, in the reader's time zone.
    static func endOfDay(_ text: String, in zone: TimeZone) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
            calendar.component(.day, from: start) == parts[2],
            let next = calendar.date(byAdding: .day, value: 1, to: start)
        else { return nil }
        return next.addingTimeInterval(-1)
    }

    @Sendable func createProgram(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "business")
        let path = "/loyalty/counter/\(id.uuidString.lowercased())"
        do {
            let program = try await loyalty.createProgram(
                context.identity,
                business: id,
                try programRequest(form, reader: context.reader)
            )
            return PageRenderer.seeOther("\(path)?program=\(program.id.uuidString.lowercased())&notice=program")
        } catch let error as PlazaError
            where error.status.code < 500 && error.status != .forbidden && error.status != .notFound
        {
            return renderer.refused(
                "program",
                FormState(form, names: Self.programFields, error: Self.formError(error)),
                returnTo: "\(path)#new-program"
            )
        }
    }

    struct ProgramEditPage: Sendable {
        var shell: Shell
        var id: String
        var businessId: String
        var title: String
        /// Customers hold cards: only the wording and the end may change.
        var held: Bool
        var programForm: FormState
        /// The editor hides what only a new program sets (a minimum spend, one card at a time).
        let editing = true
    }

    @Sendable func editProgram(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "program")
        let program = try await loyalty.program(id, viewer: context.identity)
        let business = try await loyalty.businesses.business(program.businessId, viewer: context.identity)
        guard business.role == .owner else { throw PlazaError.forbidden }
        let reader = context.reader
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        day.timeZone = reader.timeZone
        var current = FormState(names: Self.programFields)
            .with("title", program.title).with("description", program.description).with("reward", program.reward)
            .with("punchesRequired", String(program.punchesRequired)).with(
                "velocityWindowMinutes",
                String(program.velocityWindowMinutes)
            )
            .with("cardValidDays", program.cardValidDays.map(String.init) ?? "").with(
                "expiresAt",
                program.expiresAt.map(day.string) ?? ""
            )
            .with("levelPunches", program.levels.first.map { String($0.punchesRequired) } ?? "")
            .with("levelReward", program.levels.first?.reward ?? "")
            .with("earnOnPayment", program.earnOnPayment ? "1" : "")
        if case .per(let unit) = program.punchesPerPurchase {
            current = current.with("punchPer", Reader.typed(unit))
        }
        let model = ProgramEditPage(
            shell: Shell(title: say("Edit {title}", ["title": program.title]), context: context),
            id: id.uuidString.lowercased(),
            businessId: program.businessId.uuidString.lowercased(),
            title: program.title,
            held: try await loyalty.holdsCards(program: id),
            programForm: context.page.form("program") ?? current
        )
        return renderer.render("loyalty/program-edit", model)
    }

    /// Saves the editor: the wording always; a rule only when it differs from the program's (the service refuses rule
    /// changes once customers hold cards).
    @Sendable func updateProgram(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "program")
        let path = "/loyalty/programs/\(id.uuidString.lowercased())/edit"
        do {
            let program = try await loyalty.program(id, viewer: context.identity)
            let asked = try programRequest(form, reader: context.reader)
            let change = LoyaltyProgramChange(
                title: asked.title,
                description: asked.description ?? "",
                reward: asked.reward,
                punchesRequired: asked.punchesRequired == program.punchesRequired ? nil : asked.punchesRequired,
                levels: (asked.levels ?? []) == program.levels ? nil : asked.levels ?? [],
                expiresAt: asked.expiresAt == program.expiresAt ? nil : asked.expiresAt,
                cardValidDays: asked.cardValidDays == program.cardValidDays ? nil : asked.cardValidDays,
                velocityWindowMinutes: asked.velocityWindowMinutes == program.velocityWindowMinutes
                    ? nil : asked.velocityWindowMinutes,
                earnOnPayment: asked.earnOnPayment,
                punchesPerPurchase: asked.punchesPerPurchase
            )
            let saved = try await loyalty.changeProgram(context.identity, id, change)
            return PageRenderer.seeOther(
                "/loyalty/counter/\(saved.businessId.uuidString.lowercased())?program=\(id.uuidString.lowercased())&notice=saved"
            )
        } catch let error as PlazaError
            where error.status.code < 500 && error.status != .forbidden && error.status != .notFound
        {
            return renderer.refused(
                "program",
                FormState(form, names: Self.programFields, error: Self.formError(error)),
                returnTo: path
            )
        }
    }

    @Sendable func changeState(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "program")
        guard let state = LoyaltyProgramState(rawValue: form["state"]) else {
            throw PlazaError.validation(field: "state", phrase("Pick a state."))
        }
        let program = try await loyalty.changeProgram(context.identity, id, LoyaltyProgramChange(state: state))
        let notice = ["paused": "paused", "active": "resumed", "expired": "ended"][state.rawValue] ?? ""
        return PageRenderer.seeOther("/loyalty/counter/\(program.businessId.uuidString.lowercased())?notice=\(notice)")
    }
}
