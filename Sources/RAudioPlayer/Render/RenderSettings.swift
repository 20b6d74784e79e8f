// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// What a clip of a rendered book covers: an utterance (a sentence) or each word of it.
public enum NarrationGranularity: String, Sendable, CaseIterable {
    case sentence
    case word
}

/// How `BookRenderer` reads a book: the voice rule's inputs (as `raudio speak` gives them), what is
/// skipped, the clips' granularity, the audio encoding, and how far synthesis may run ahead.
public struct RenderSettings: Sendable {
    /// The voice of the main language; nil: the engine's voice for each language.
    public var voice: TTSVoice?
    /// The language of text that declares none, and the skipped roles (`--language`, `--skip`).
    public var configuration: SpeechSynthesizerConfiguration
    public var fallbackLanguage: Language
    public var rate: Double
    public var pitch: Double
    public var granularity: NarrationGranularity
    public var codec: AudioFileCodec
    /// The engine and its version, in the cache's keys: another version speaks again.
    public var engineIdentity: String
    /// Blocks of utterances handed to the engine ahead of the one being encoded: its workers' count keeps
    /// every worker busy.
    public var synthesisWindow: Int
    /// Utterances per block: each block is synthesized by a fresh eSpeak NG process, so that its audio does not
    /// depend on what was spoken before it, and a resumed render speaks again at most the blocks it had not
    /// finished. Larger blocks start fewer processes; smaller ones lose less to a kill. Nil (the default): from
    /// the book's length (`automaticBlockSize`).
    public var blockSize: Int?

    public init(voice: TTSVoice?, configuration: SpeechSynthesizerConfiguration = .init(), fallbackLanguage: Language = Language(code: "en"),
                rate: Double = 1, pitch: Double = 1, granularity: NarrationGranularity = .sentence, codec: AudioFileCodec = .mp3,
                engineIdentity: String, synthesisWindow: Int = 2, blockSize: Int? = nil) {
        self.voice = voice
        self.configuration = configuration
        self.fallbackLanguage = fallbackLanguage
        self.rate = rate
        self.pitch = pitch
        self.granularity = granularity
        self.codec = codec
        self.engineIdentity = engineIdentity
        self.synthesisWindow = max(1, synthesisWindow)
        self.blockSize = blockSize.map { max(1, $0) }
    }

    /// The options that change what is synthesized, as `raudio render` takes them (`--voice`, `--speed`,
    /// `--pitch`, `--language`, `--skip`): a part file records them, so that a merge with other options names
    /// the one that differs instead of finding shares missing from the cache.
    public var synthesisOptions: [RenderPart.Option] {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        return [
            .init(name: "--voice", value: voice?.identifier ?? "(none: each language's voice)"),
            .init(name: "--speed", value: number(rate)),
            .init(name: "--pitch", value: number(pitch)),
            .init(name: "--language", value: configuration.defaultLanguage?.code ?? "(none)"),
            .init(name: "--skip", value: configuration.skippedRoles.isEmpty ? "(none)" : configuration.skippedRoles.sorted().joined(separator: ",")),
        ]
    }

    /// The utterances per block of a book of `count` utterances: `blockSize`, else `automaticBlockSize`.
    public func blockSize(forUtterances count: Int) -> Int {
        blockSize ?? Self.automaticBlockSize(forUtterances: count)
    }

    /// A 16th of the book, from 16 to 64 utterances: a kill loses at most the block being encoded and the
    /// window ahead (3 blocks: for a book of 256 utterances or more, under a fifth of it), and a long book
    /// starts a process per 64 utterances (a few minutes of audio) instead of per 16. It depends on the book alone, never on the machine or
    /// `--jobs`: shards and resumed runs cut the same blocks.
    public static func automaticBlockSize(forUtterances count: Int) -> Int {
        min(64, max(16, count / 16))
    }
}
