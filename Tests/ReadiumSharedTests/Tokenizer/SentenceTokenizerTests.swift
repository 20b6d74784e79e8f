// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing

@Suite struct SentenceTokenizerTests {
    func sentences(_ text: String, _ language: String? = "en") -> [String] {
        defaultTextTokenizerFactory(.sentence, language.map(Language.init(code:))).substrings(of: text).map(String.init)
    }

    @Test func englishProseFromChildrensLiteratureSplitsAtEachSentence() {
        let text = "The folk saw things simply and directly. Characters are good or bad. They feel no need of elaborately explaining their joys and sorrows. Such experiences come with the day's work. \"To-morrow to fresh woods, and pastures new.\" The zest of life with them is emphatic."
        #expect(sentences(text) == [
            "The folk saw things simply and directly.",
            "Characters are good or bad.",
            "They feel no need of elaborately explaining their joys and sorrows.",
            "Such experiences come with the day's work.",
            "\"To-morrow to fresh woods, and pastures new.\"",
            "The zest of life with them is emphatic.",
        ])
    }

    @Test func titlesAndLatinAbbreviationsDoNotEndASentence() {
        let text = "In this story, remarks Dr. Brandes, the author shows his life. Mr. Alden is a professor, e.g. of literature, i.e. a scholar. He met Mrs. Henderson on St. Nicholas day. We bought apples, pears, etc. and went home."
        #expect(sentences(text) == [
            "In this story, remarks Dr. Brandes, the author shows his life.",
            "Mr. Alden is a professor, e.g. of literature, i.e. a scholar.",
            "He met Mrs. Henderson on St. Nicholas day.",
            "We bought apples, pears, etc. and went home.",
        ])
    }

    @Test func etcEndsASentenceWhenAnUppercaseWordFollows() {
        #expect(sentences("We bought apples, pears, etc. Then we left.") == ["We bought apples, pears, etc.", "Then we left."])
    }

    @Test func numberAbbreviationKeepsItsNumberButNoAloneEnds() {
        #expect(sentences("See No. 5 on p. 12 for details. No. It is not.") == ["See No. 5 on p. 12 for details.", "No.", "It is not."])
    }

    @Test func initialsStayInsideTheSentence() {
        #expect(sentences("The Hobbit was written by J. R. R. Tolkien in 1937. It sold well.") == [
            "The Hobbit was written by J. R. R. Tolkien in 1937.", "It sold well.",
        ])
        #expect(sentences("The Waste Land, by T.S. Eliot. For Ezra Pound.") == ["The Waste Land, by T.S. Eliot.", "For Ezra Pound."])
    }

    @Test func pronounIEndsAnEnglishSentence() {
        #expect(sentences("So did I. Then we left.") == ["So did I.", "Then we left."])
    }

    @Test func decimalsTimesAndThousandsDoNotSplit() {
        #expect(sentences("Pi is 3.14 and the train leaves at 10:30. It costs 1,000.5 dollars.") == [
            "Pi is 3.14 and the train leaves at 10:30.", "It costs 1,000.5 dollars.",
        ])
    }

    @Test func ellipsisEndsASentenceOnlyBeforeAnUppercaseStart() {
        #expect(sentences("I wonder... perhaps not. Wait... What was that? Well… Nothing.") == [
            "I wonder... perhaps not.", "Wait...", "What was that?", "Well…", "Nothing.",
        ])
        #expect(sentences("And then…") == ["And then…"])
    }

    @Test func closingQuoteBelongsToTheSentenceItEnds() {
        #expect(sentences("He said \"Go.\" Then he left. \"A very pretty business, indeed, Mr. Gluck!\" said Schwartz.") == [
            "He said \"Go.\"", "Then he left.", "\"A very pretty business, indeed, Mr. Gluck!\" said Schwartz.",
        ])
        #expect(sentences("She asked (quietly.) Nobody answered.") == ["She asked (quietly.)", "Nobody answered."])
    }

    @Test func frenchGuillemetsAndSpacesBeforePunctuation() {
        let text = "« Va ! » dit-il. « Pourquoi ? » Elle ne répondit pas ; elle partit : c'était fini ! M. Dupont et Mme Durand, p. ex. les voisins, arrivèrent."
        #expect(sentences(text, "fr") == [
            "« Va ! » dit-il.", "« Pourquoi ? »", "Elle ne répondit pas ; elle partit : c'était fini !",
            "M. Dupont et Mme Durand, p. ex. les voisins, arrivèrent.",
        ])
    }

    @Test func frenchProseFromTheDaisyTestBook() {
        let text = "Il doit être possible d'ajuster (augmenter/diminuer) la vitesse de lecture. Ce test doit être réalisé avec la technologie d'assistance utilisée lors de l'évaluation.\u{00A0}! Voici un nouveau paragraphe. Une liste est présentée ci-dessous, qui doit être lue sous forme de trois groupes distincts :"
        #expect(sentences(text, "fr-FR") == [
            "Il doit être possible d'ajuster (augmenter/diminuer) la vitesse de lecture.",
            "Ce test doit être réalisé avec la technologie d'assistance utilisée lors de l'évaluation.\u{00A0}!",
            "Voici un nouveau paragraphe.",
            "Une liste est présentée ci-dessous, qui doit être lue sous forme de trois groupes distincts :",
        ])
    }

    @Test func cjkFullStopsEndSentencesWithoutSpaces() {
        #expect(sentences("吾輩は猫である。名前はまだ無い！どこで生れたか？「見当がつかぬ。」何でも", "ja") == [
            "吾輩は猫である。", "名前はまだ無い！", "どこで生れたか？", "「見当がつかぬ。」", "何でも",
        ])
    }

    @Test func arabicUrduHebrewAndDevanagariPunctuation() {
        #expect(sentences("كيف حالك؟ أنا بخير.", "ar") == ["كيف حالك؟", "أنا بخير."])
        #expect(sentences("یہ کتاب ہے۔ وہ قلم ہے۔", "ur") == ["یہ کتاب ہے۔", "وہ قلم ہے۔"])
        #expect(sentences("בְּרֵאשִׁית בָּרָא אֱלֹהִים׃ וְהָאָרֶץ הָיְתָה תֹהוּ׃", "he") == ["בְּרֵאשִׁית בָּרָא אֱלֹהִים׃", "וְהָאָרֶץ הָיְתָה תֹהוּ׃"])
        #expect(sentences("यह किताब है। वह कलम है।", "hi") == ["यह किताब है।", "वह कलम है।"])
    }

    @Test func blankLinesEndSentencesAndNoUtteranceIsEmpty() {
        #expect(sentences("A title without stop\n\nThe body starts here.  \n  \n ") == ["A title without stop", "The body starts here."])
        #expect(sentences("") == [])
        #expect(sentences("   \n\u{00A0} ") == [])
        #expect(sentences("!!! ... ?") == ["!!! ... ?"])
    }

    @Test func everyRangeIsTrimmedAndNonEmpty() {
        let text = "  One.   Two!  \u{00A0}Three?\u{202F}« Four » ... five.  "
        for range in SentenceTokenizer(language: Language(code: "fr")).tokenize(text) {
            let sentence = text[range]
            #expect(!sentence.isEmpty)
            #expect(sentence.first?.isWhitespace == false && sentence.last?.isWhitespace == false)
        }
    }
}
