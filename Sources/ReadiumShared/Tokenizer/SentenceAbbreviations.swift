// SPDX-License-Identifier: GPL-3.0-or-later
/// The abbreviations after which a period does not end a sentence, for one language.
///
/// English ones apply to every language (books quote them); French, German, Spanish and Italian
/// add their own. Keys are lowercased and written without their final period (`e.g`, `p`).
struct SentenceAbbreviations: Sendable {
    /// Abbreviations followed by a name or a word: never the end of a sentence (`Mr.`, `e.g.`).
    let beforeAnything: Set<String>
    /// Abbreviations that precede a number (`No. 5`, `p. 12`): not an end when a digit follows.
    let beforeNumbers: Set<String>
    let languageCode: String?

    init(language: Language?) {
        let code = language?.baseCode
        languageCode = code
        var anything: Set<String> = [
            "mr", "mrs", "ms", "messrs", "dr", "st", "prof", "rev", "hon", "gen", "col", "capt", "lt", "sgt", "mt",
            "sr", "e.g", "i.e", "vs", "cf", "viz", "approx", "ca", "fig", "figs",
        ]
        var numbers: Set<String> = ["no", "nos", "p", "pp", "vol", "vols", "ch", "chap", "art", "sec", "n"]
        switch code {
        case "fr":
            anything.formUnion(["m", "mm", "mme", "mmes", "mlle", "mlles", "mgr", "me", "ste", "p", "ex", "p.ex", "cf", "env", "av", "apr", "j.-c", "éd", "dir", "coll", "bd"])
            numbers.formUnion(["t", "n°", "éd"])
        case "de":
            anything.formUnion(["z.b", "bzw", "usw", "vgl", "ggf", "d.h", "u.a", "hr", "fr", "frl", "nr", "str"])
        case "es":
            anything.formUnion(["sr", "sra", "srta", "dña", "d", "ud", "uds", "p.ej"])
        case "it":
            anything.formUnion(["sig", "sigg", "sig.ra", "dott", "ecc", "pag"])
        default:
            break
        }
        beforeAnything = anything
        beforeNumbers = numbers
    }

    /// Whether a single uppercase letter before a period is a word (English `I`) rather than an initial.
    func isStandaloneWord(_ letter: String) -> Bool {
        letter == "I" && (languageCode == nil || languageCode == "en")
    }
}
