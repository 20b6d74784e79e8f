# SPDX-License-Identifier: GPL-3.0-or-later
"""raudio's forced-alignment worker: the known text of a stretch of narration aligned word by word by an HMM
aligner (SoundSwallower, PyPI `soundswallower`, with the acoustic model and dictionary its package ships for
English, en-us, and French, fr-fr). Never a recognizer: the words are given, the model only says when each is heard.

raudio starts it as `python -u -S worker.py LANGUAGE` (en or fr) with the project's aligner environment
(.venv-align, made by `make deps`) and talks to it over its standard input and output:

- at start, one JSON line {"ready": true, "sample_rate": 16000, "model": "en-us"} once the model is loaded, or
  {"error": "..."} (then the worker exits with status 65);
- each request is one JSON line {"texts": ["...", ...], "before": "...", "after": "...", "samples": N} followed
  by N little-endian signed 16-bit samples (mono, 16 kHz): the narration of those texts (consecutive sentences),
  one after the other, with some audio before and after them. "before" and "after", optional, are the texts heard
  just before and after: the end of the one (its last CONTEXT_WORDS words, any number of them) and the beginning of
  the other may be heard at the ends of the audio, so that they are not taken for the texts' first or last words
  (the texts' words are all required, in order; the words around them optional: a grammar, not a recognizer);
- each answer is one JSON line {"starts": [[start, before] or null, ...]}: for each text, when the first of its
  words the aligner placed starts and when the word placed before it ends (null at the first word), in seconds from
  the first sample, or null when none of its words was placed; {"starts": [], "error": "..."} when the texts cannot
  be aligned there.

A word missing from the model's dictionary gets its pronunciation from eSpeak NG (`espeak-ng -q --ipa`), its IPA
mapped to the model's phones (the model's phoneset.json read backwards, longest match first); a word with no
phone it can map is left out of the text aligned. Stderr is for people (raudio keeps its last lines).
"""

import os
import sys

if sys.flags.no_site:  # started with -S: the venv's packages by hand
    _venv = os.path.dirname(os.path.dirname(os.path.abspath(sys.executable)))
    _packages = os.path.join(_venv, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")
    if os.path.isfile(os.path.join(_venv, "pyvenv.cfg")) and os.path.isdir(_packages):
        sys.path.append(_packages)
    else:
        import site
        site.main()

import json
import re
import subprocess
import unicodedata

MODELS = {"en": ("en-us", "en-us"), "fr": ("fr-fr", "fr")}
# eSpeak NG's IPA symbols that the models' phone sets spell otherwise (beside each phoneset.json read backwards).
EXTRA = {
    "en-us": {"ɾ": "T", "ɚ": "ER", "ɜ": "ER", "ɐ": "AH", "ə": "AH", "ᵻ": "IH", "i": "IY", "iə": "IY AH", "oː": "AO",
              "ɔː": "AO", "ɑː": "AA", "uː": "UW", "ɒ": "AA", "e": "EH", "a": "AE", "aɪə": "AY ER", "g": "G",
              "x": "K", "ʔ": "T", "o": "OW", "ɬ": "L", "r": "R", "n̩": "AH N", "l̩": "AH L", "ɪɹ": "IH R",
              "ɛɹ": "EH R", "ʊɹ": "UH R", "ɑɹ": "AA R", "ɔɹ": "AO R", "aɪɚ": "AY ER", "ʌ": "AH", "ɡ": "G"},
    "fr-fr": {"y": "uu", "u": "ou", "o": "au", "ɔ": "oo", "ɛ": "ai", "e": "ei", "a": "aa", "ɑ": "aa", "r": "rr",
              "ɡ": "gg", "g": "gg", "ə": "ee", "ø": "eu", "œ": "oe", "ɜ": "eu", "ɐ": "aa", "ʁ": "rr", "ɪ": "ii",
              "ʊ": "ou", "x": "rr", "h": "", "ŋ": "nn"},
}
CONTEXT_WORDS = 6


def say(message):
    sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def words(text):
    """The words of a text as the aligner takes them: letters, digits and inner apostrophes, lower case."""
    text = unicodedata.normalize("NFC", text).replace("’", "'").lower()
    return re.findall(r"[\w]+(?:'[\w]+)*", text)


class Pronouncer:
    def __init__(self, decoder, model_folder, model, voice):
        self.decoder = decoder
        self.voice = voice
        with open(os.path.join(model_folder, "phoneset.json"), encoding="utf-8") as handle:
            phoneset = json.load(handle)
        self.table = {}
        for phone, ipa in phoneset.items():
            if ipa and ipa != "-" and ipa not in self.table:
                self.table[ipa] = phone
        self.table.update(EXTRA.get(model, {}))
        self.longest = max(len(key) for key in self.table)
        self.known = {}

    def phones(self, ipa):
        out = []
        ipa = unicodedata.normalize("NFC", ipa)
        index = 0
        while index < len(ipa):
            for length in range(min(self.longest, len(ipa) - index), 0, -1):
                piece = ipa[index:index + length]
                if piece in self.table:
                    if self.table[piece]:
                        out += self.table[piece].split()
                    index += length
                    break
            else:
                index += 1  # stress, length, a symbol with no phone
        return out

    def word(self, word):
        """The word as the decoder knows it (added with eSpeak NG's pronunciation if needed), or None."""
        if word in self.known:
            return self.known[word]
        name = word
        if self.decoder.lookup_word(word) is None:
            try:
                ipa = subprocess.run(["espeak-ng", "-q", "--ipa", "-v", self.voice, word], capture_output=True,
                                     text=True, timeout=20).stdout
            except (OSError, subprocess.SubprocessError):
                ipa = ""
            phones = self.phones(" ".join(ipa.split()))
            if phones:
                try:
                    self.decoder.add_word(word, " ".join(phones), True)
                except (KeyError, RuntimeError, ValueError):
                    name = None
            else:
                name = None
        self.known[word] = name
        return name


def main():
    language = (sys.argv[1] if len(sys.argv) > 1 else "en").split("-")[0].lower()
    if language not in MODELS:
        say({"error": "no acoustic model for language %s" % language})
        sys.exit(65)
    model, voice = MODELS[language]
    try:
        from soundswallower import Config, Decoder, get_model_path
        folder = os.path.join(get_model_path(), model)
        config = Config(hmm=folder, dict=os.path.join(folder, "dict.txt"), loglevel="FATAL")
        decoder = Decoder(config)
    except Exception as error:  # noqa: BLE001 (any failure to load is reported the same way)
        say({"error": "cannot load the %s model: %s" % (model, error)})
        sys.exit(65)
    pronouncer = Pronouncer(decoder, folder, model, voice)
    say({"ready": True, "sample_rate": 16000, "model": model})
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            return
        request = json.loads(line)
        count = int(request.get("samples", 0))
        data = stdin.read(count * 2)
        if len(data) < count * 2:
            return
        before = [name for name in (pronouncer.word(word) for word in words(request.get("before") or "")[-CONTEXT_WORDS:]) if name]
        after = [name for name in (pronouncer.word(word) for word in words(request.get("after") or "")[:CONTEXT_WORDS]) if name]
        # (text number, word) for every word of the texts the decoder knows.
        kept = []
        texts = request.get("texts") or []
        for number, text in enumerate(texts):
            for word in words(text):
                name = pronouncer.word(word)
                if name is not None:
                    kept.append((number, name))
        if not kept or count < 1600:
            say({"starts": [], "error": "nothing to align"})
            continue
        # Any end of "before", every word of the texts, any beginning of "after".
        grammar = "#JSGF V1.0;\ngrammar align;\npublic <s> = "
        if before:
            grammar += "[ ( " + " | ".join(" ".join(before[index:]) for index in range(len(before))) + " ) ] "
        grammar += " ".join(name for _, name in kept)
        tail = ""
        for name in reversed(after):
            tail = "[ " + name + " " + tail + "] "
        grammar += " " + tail + ";\n"
        try:
            decoder.set_jsgf_string(grammar)
            decoder.start_utt()
            decoder.process_raw(data, full_utt=True)
            decoder.end_utt()
            segments = [segment for segment in decoder.seg if segment.text not in ("<sil>", "<s>", "</s>", "[NOISE]", "(NULL)")]
        except Exception as error:  # noqa: BLE001
            say({"starts": [], "error": str(error)})
            continue
        names = [re.sub(r"\(\d+\)$", "", segment.text) for segment in segments]
        # The texts' words are the segments after some end of "before".
        first = next((skip for skip in range(len(before) + 1)
                      if [name for _, name in kept] == names[skip:skip + len(kept)]), None)
        if first is None:
            if os.environ.get("RAUDIO_ALIGN_DEBUG"):
                sys.stderr.write("aligner: %s\nagainst %s\n" % (names, [name for _, name in kept]))
            say({"starts": [], "error": "no alignment"})
            continue
        starts = [None] * len(texts)
        for offset, (number, _) in enumerate(kept):
            segment = segments[first + offset]
            if starts[number] is None:
                previous = segments[first + offset - 1] if first + offset > 0 else None
                starts[number] = [round(segment.start, 3),
                                  None if previous is None else round(previous.start + previous.duration, 3)]
        say({"starts": starts})


if __name__ == "__main__":
    main()
