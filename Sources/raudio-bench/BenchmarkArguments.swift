// SPDX-License-Identifier: GPL-3.0-or-later
/// The command line of `raudio-bench`: a subcommand, positional paths and `--name value` options.
///
/// Plain `CommandLine.arguments` parsing: the benchmark binary stays free of the CLI's dependencies.
struct BenchmarkArguments {
    static let usage = """
        usage: raudio-bench SUBCOMMAND ...
          epub-iterate EPUB                        open, iterate all content, tokenize into sentences
          epub-first-element EPUB [--repeat 50] [--href HREF]  content(from: locator in the last chapter) -> first element
          seek-latency AUDIO [--repeat 200] [--seed 1]  seek(toFrame:) + first read at random frames
          first-buffer BOOK                        process start -> first buffer handed to the output
          speak-first-buffer EPUB [--href HREF] [--voice piper:NAME]  process start -> first speech buffer, from the middle of the last chapter
          speak-gaps EPUB [--href HREF] [--seconds 1800] [--voice piper:NAME]  silence added between utterances over one chapter
          narration-first-buffer EPUB [--repeat 20] [--href HREF#ID]  text locator -> first narration buffer
          narration-plan EPUB [--repeat 20] [--mode narration|no-tts|tts]  build the whole narration plan
          state-store DIR [--books 10000] [--saves 500]  fill a listening-state store; time a save and an open + lookup; its size
        Prints one JSON object per measurement on stdout.

        """

    let subcommand: String?
    let positional: [String]
    private let options: [String: String]

    init(_ arguments: [String]) {
        subcommand = arguments.first
        var positional: [String] = []
        var options: [String: String] = [:]
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--"), index + 1 < arguments.count {
                options[String(argument.dropFirst(2))] = arguments[index + 1]
                index += 2
            } else {
                positional.append(argument)
                index += 1
            }
        }
        self.positional = positional
        self.options = options
    }

    /// The first positional argument, or a usage error naming what is missing.
    func path(_ what: String) throws(BenchmarkError) -> String {
        guard let path = positional.first else { throw BenchmarkError.usage("\(subcommand ?? "?"): missing \(what)") }
        return path
    }

    /// The integer option `--name`, or `defaultValue`.
    func integer(_ name: String, default defaultValue: Int) throws(BenchmarkError) -> Int {
        guard let text = options[name] else { return defaultValue }
        guard let value = Int(text), value > 0 else { throw BenchmarkError.usage("--\(name) '\(text)': expected a positive integer") }
        return value
    }

    func string(_ name: String) -> String? { options[name] }
}
