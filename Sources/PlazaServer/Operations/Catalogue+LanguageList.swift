import PlazaCore

extension Catalogue {
    /// What `GET /v1/languages` answers: the offered languages, English first, and the operator's default.
    var languageList: LanguageList {
        LanguageList(
            items: languages.map { PlazaLanguage(tag: $0.tag, name: $0.name, dir: $0.dir) },
            default: defaultTag
        )
    }
}
