// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing

@Suite struct WordAndParagraphTokenizerTests {
    func words(_ text: String, _ language: String? = "en") -> [String] {
        defaultTextTokenizerFactory(.word, language.map(Language.init(code:))).substrings(of: text).map(String.init)
    }

    @Test func englishWordsKeepApostrophesAndHyphensAndDropPunctuation() {
        #expect(words("\"To-morrow to fresh woods,\" she said; don't stop — it's 10:30.") == [
            "To-morrow", "to", "fresh", "woods", "she", "said", "don't", "stop", "it's", "10:30",
        ])
    }

    @Test func numbersWithSeparatorsAreOneWord() {
        #expect(words("Pi is 3.14, the total 1,000.5. End.") == ["Pi", "is", "3.14", "the", "total", "1,000.5", "End"])
    }

    @Test func frenchElisionIsAWordOfItsOwn() {
        #expect(words("L'école qu'il aime, aujourd'hui, dit-il.", "fr") == ["L'", "école", "qu'", "il", "aime", "aujourd'hui", "dit-il"])
        #expect(words("l’arbre", "fr") == ["l’", "arbre"])
        #expect(words("l'école", "en") == ["l'école"])
    }

    @Test func cjkCharactersAreWordsEach() {
        #expect(words("吾輩は猫である。", "ja") == ["吾", "輩", "は", "猫", "で", "あ", "る"])
    }

    @Test func devanagariVowelSignsStayInTheirWord() {
        #expect(words("यह किताब है।", "hi") == ["यह", "किताब", "है"])
    }

    @Test func paragraphsAreSeparatedByBlankLinesNotSingleBreaks() {
        let text = "April is the cruellest month, breeding\nLilacs out of the dead land.\n\n  \nSummer surprised us.\u{2029}Third"
        let paragraphs = defaultTextTokenizerFactory(.paragraph, nil).substrings(of: text)
        #expect(paragraphs == ["April is the cruellest month, breeding\nLilacs out of the dead land.", "Summer surprised us.", "Third"])
        #expect(defaultTextTokenizerFactory(.paragraph, nil).tokenize(" \n\n ").isEmpty)
    }
}
