#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Make the alignment evaluation set (issue 47): books, their narration as an aligner's input, and the truth.

For each book: `book.epub` (the text, without Media Overlays: what `raudio align` reads) and, per variant, a folder
`VARIANT/audio/` of audio files (the aligner's AUDIO, in natural order) and `VARIANT/truth.json`: per sentence its
document, the offset of its text in that document (epubtext.py), the audio file and the time it starts there; the
sentences not narrated (notes, a dropped chapter); the audio intervals that are not the text (an announcement and
music, credits). Everything is derived from `raudio render` (its Media Overlays time each sentence exactly, in samples
of the audio it made) or, for the W3C Moby-Dick excerpt, from the publisher's SMIL.

Variants (every rendered book): base (a file per document, as rendered), tempo-0.90 and tempo-1.12 (sox `tempo -s`,
times divided by the factor), intro (20 s of another voice's announcement and synthesized chords before the first
file), credits (30 s after the last file), drop (one file of the whole book with one chapter left out), swap (one file
with two chapters in each other's place). Footnotes are never read (render's default --skip), so every variant has
text that is not narrated.

Deterministic: the same inputs give the same files (raudio render, sox, espeak-ng and flac are); the result is cached
under OUT (build/align-set) by a key of this script, the inputs and the tool versions, and made again only when one
changed. Python's standard library only.

Usage: make-align-set.py --raudio PATH [--out build/align-set] [--corpus ../shared/corpus] [--subset ci|full]
"""

import argparse
import hashlib
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import wave
import zipfile
from array import array
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from epubtext import Package  # noqa: E402
from owntexts import BOOKS as OWN_BOOKS  # noqa: E402

RATE = 22050
ZIP_TIME = (2026, 1, 1, 0, 0, 0)
VARIANTS = ["base", "tempo-0.90", "tempo-1.12", "intro", "credits", "drop", "swap"]
INTRO_SECONDS = 20.0
CREDITS_SECONDS = 30.0

# The rendered books: name -> how it is made and narrated. The aligner speaks each language with its preset eSpeak NG
# voice; these narrations use another voice, rate and pitch (or the Piper voice, for English).
RENDERED = {
    "moby-excerpt": {"source": "moby", "voice": "piper:en_US-joe-medium", "speed": "1.0", "pitch": "1.0",
                     "subsets": ["full"]},
    "fr-village": {"source": "own:fr", "voice": "fr-be", "speed": "0.85", "pitch": "1.2", "subsets": ["full", "ci"]},
    "ru-bukhta": {"source": "own:ru", "voice": "ru-lv", "speed": "0.9", "pitch": "0.8", "subsets": ["full"]},
    # The benchmark's book (make bench): Moby-Dick's first 58 chapters, about ten hours read by another English voice
    # of eSpeak NG. Only as rendered (its MP3 files, not FLAC), and its truth from the clips alone (no onsets).
    "moby-10h": {"source": "moby-long", "voice": "en-gb-x-rp", "speed": "0.95", "pitch": "1.0", "subsets": ["long"],
                 "variants": ["base"], "cacheSize": "0"},
}
W3C = {
    "w3c-mol-audio": {"epub": "epub/w3c-epub-tests/mol-audio.epub", "subsets": ["full", "ci"]},
    "w3c-mol-two-files": {"epub": "epub/w3c-epub-tests/mol-timing-synchronization_multiple_audio.epub",
                          "subsets": ["full"]},
}


def run(arguments, **options):
    result = subprocess.run(arguments, capture_output=True, **options)
    if result.returncode != 0:
        sys.exit(f"make-align-set: {' '.join(map(str, arguments))} failed ({result.returncode}):\n"
                 f"{result.stderr.decode(errors='replace')[-2000:]}")
    return result.stdout


def write_zip(path, entries):
    """An EPUB with `mimetype` first and stored, fixed times, entries in the given order."""
    temporary = path.with_suffix(".tmp")
    with zipfile.ZipFile(temporary, "w") as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    temporary.replace(path)


def without_media_overlays(source_path, keep_spine=None, paragraphs=None):
    """The entries of an EPUB with its Media Overlays removed (the SMILs, `media-overlay` attributes, `media:`
    metadata); optionally only the spine items `keep_spine` (ids), each cut to its first `paragraphs` `p` elements
    outside notes (the notes kept)."""
    source = zipfile.ZipFile(source_path)
    container = source.read("META-INF/container.xml").decode()
    opf_path = re.search(r'full-path="([^"]+)"', container).group(1)
    opf = source.read(opf_path).decode()
    smil_hrefs = set(re.findall(r'<item\b[^>]*href="([^"]+)"[^>]*media-type="application/smil\+xml"', opf))
    smil_hrefs |= set(re.findall(r'<item\b[^>]*media-type="application/smil\+xml"[^>]*href="([^"]+)"', opf))
    opf = re.sub(r'\s*<item\b[^>]*application/smil\+xml[^>]*/>', "", opf)
    opf = re.sub(r'\s+media-overlay="[^"]*"', "", opf)
    opf = re.sub(r'\s*<meta\b[^>]*property="media:[^"]*"[^>]*>[^<]*</meta>', "", opf)
    cut_documents = set()
    if keep_spine is not None:
        def keep(match):
            return match.group(0) if re.search(r'idref="([^"]+)"', match.group(0)).group(1) in keep_spine else ""
        opf = re.sub(r'\s*<itemref\b[^>]*/>', keep, opf)
        for identifier in keep_spine:
            href = re.search(rf'<item\b[^>]*id="{re.escape(identifier)}"[^>]*>', opf).group(0)
            cut_documents.add(posixpath.normpath(posixpath.join(posixpath.dirname(opf_path),
                                                                re.search(r'href="([^"]+)"', href).group(1))))
    base = posixpath.dirname(opf_path)
    smil_paths = {posixpath.normpath(posixpath.join(base, href)) for href in smil_hrefs}
    entries = []
    for info in source.infolist():
        if info.filename in smil_paths or info.is_dir():
            continue
        data = source.read(info.filename)
        if info.filename == opf_path:
            data = opf.encode()
        elif info.filename in cut_documents and paragraphs is not None:
            data = first_paragraphs(data.decode(), paragraphs).encode()
        entries.append((info.filename, data))
    entries.sort(key=lambda entry: entry[0] != "mimetype")
    return entries


def first_paragraphs(xhtml, count):
    """The document with only its first `count` `p` elements outside an `aside` (the rest removed as text)."""
    kept = 0
    output = []
    position = 0
    for match in re.finditer(r'<aside\b.*?</aside>|<p\b[^>]*>.*?</p>', xhtml, re.S):
        output.append(xhtml[position:match.start()])
        if match.group(0).startswith("<aside") or kept < count:
            output.append(match.group(0))
            kept += 0 if match.group(0).startswith("<aside") else 1
        position = match.end()
    output.append(xhtml[position:])
    return "".join(output)


def own_book_entries(language):
    """A small EPUB 3 of the project's own text: a preface with a footnote, four chapters, a navigation document."""
    book = OWN_BOOKS[language]
    documents = []
    title, sentences, note = book["preface"]
    body = (f'<section epub:type="preface"><h1>{title}</h1>\n<p>{sentences[0]}<a epub:type="noteref" href="#n1">1</a> '
            f'{" ".join(sentences[1:])}</p>\n<aside epub:type="footnote" id="n1"><p>{note}</p></aside></section>')
    documents.append(("preface.xhtml", title, body))
    for index, (title, sentences) in enumerate(book["chapters"], start=1):
        half = (len(sentences) + 1) // 2
        body = (f'<section epub:type="chapter"><h1>{title}</h1>\n<p>{" ".join(sentences[:half])}</p>\n'
                f'<p>{" ".join(sentences[half:])}</p></section>')
        documents.append((f"chapter-{index}.xhtml", title, body))

    def page(title, body):
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n'
                f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" '
                f'xml:lang="{language}" lang="{language}">\n<head><title>{title}</title></head>\n<body>\n{body}\n'
                '</body>\n</html>\n')

    navigation = "\n".join(f'<li><a href="{name}">{title}</a></li>' for name, title, _ in documents)
    items = "\n".join(f'<item id="d{index}" href="{name}" media-type="application/xhtml+xml"/>'
                      for index, (name, _, _) in enumerate(documents))
    spine = "\n".join(f'<itemref idref="d{index}"/>' for index in range(len(documents)))
    opf = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\n'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
           f'<dc:identifier id="id">urn:raudio:align-set:{language}</dc:identifier>\n'
           f'<dc:title>{book["title"]}</dc:title>\n<dc:language>{language}</dc:language>\n'
           '<dc:creator>raudio</dc:creator>\n<dc:rights>GPL-3.0-or-later</dc:rights>\n'
           '<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>\n</metadata>\n'
           f'<manifest>\n<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\n'
           f'{items}\n</manifest>\n<spine>\n{spine}\n</spine>\n</package>\n')
    container = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n'
                 '<rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/>'
                 '</rootfiles>\n</container>\n')
    entries = [("mimetype", b"application/epub+zip"), ("META-INF/container.xml", container.encode()),
               ("EPUB/package.opf", opf.encode()),
               ("EPUB/nav.xhtml", page(book["title"], f'<nav epub:type="toc"><ol>\n{navigation}\n</ol></nav>').encode())]
    entries += [(f"EPUB/{name}", page(title, body).encode()) for name, title, body in documents]
    return entries


def book_entries(spec, corpus):
    source = spec["source"]
    if source == "moby":
        return without_media_overlays(
            corpus / "epub/idpf-epub3-samples/moby-dick-mo.AUDIO-MISSING.epub",
            keep_spine=["xpreface_001", "xchapter_001", "xchapter_002", "xchapter_003", "xchapter_004"],
            paragraphs=2)
    if source == "moby-long":
        return without_media_overlays(
            corpus / "epub/idpf-epub3-samples/moby-dick-mo.AUDIO-MISSING.epub",
            keep_spine=[f"xchapter_{number:03d}" for number in range(1, 59)])
    if source.startswith("own:"):
        return own_book_entries(source[4:])
    raise ValueError(source)


# --- audio -----------------------------------------------------------------------------------------------------

def samples_of(path):
    with wave.open(str(path)) as reader:
        assert reader.getframerate() == RATE and reader.getnchannels() == 1 and reader.getsampwidth() == 2, path
        data = array("h")
        data.frombytes(reader.readframes(reader.getnframes()))
    return data


def frame_levels(samples, frame=RATE // 100):
    """The peak absolute sample of each 10 ms frame."""
    return [max(map(abs, samples[start:start + frame])) if start < len(samples) else 0
            for start in range(0, len(samples), frame)]


def speech_bounds(levels, begin, end, threshold=600):
    """(onset, offset) in seconds of the speech between begin and end: the first and last 10 ms frame whose peak
    passes the threshold (about -35 dBFS); (begin, begin) for a silent clip."""
    first = int(begin * 100)
    last = min(int(end * 100 + 0.999), len(levels))
    loud = [index for index in range(first, last) if levels[index] > threshold]
    if not loud:
        return begin, begin
    return max(begin, loud[0] / 100), min(end, (loud[-1] + 1) / 100)


def to_wav(source, destination):
    run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", str(source), "-ac", "1", "-ar", str(RATE),
         "-c:a", "pcm_s16le", "-bitexact", str(destination)])


def flac(sources, destination, effects=()):
    """sox: the sources one after another into a FLAC file, with effects."""
    run(["sox", "-D", *map(str, sources), "-b", "16", str(destination), *effects])


def duration(path):
    with wave.open(str(path)) as reader:
        return reader.getnframes() / reader.getframerate()


def make_insert(folder, seconds, text, voice, chords):
    """`seconds` of another voice reading unrelated text, then synthesized chords (sox), as a WAV."""
    speech = folder / f"insert-{int(seconds)}-speech.wav"
    run(["espeak-ng", "-v", voice, "-s", "150", "-w", str(speech), text])
    music_seconds = 1.5 * len(chords)
    speech_seconds = seconds - music_seconds
    padded = folder / f"insert-{int(seconds)}-speech-padded.wav"
    run(["sox", "-D", str(speech), "-r", str(RATE), "-c", "1", "-b", "16", str(padded),
         "pad", "0", str(speech_seconds), "trim", "0", str(speech_seconds)])
    parts = []
    for index, chord in enumerate(chords):
        part = folder / f"insert-{int(seconds)}-chord-{index}.wav"
        notes = [token for note in chord for token in ("pluck", note)]
        run(["sox", "-D", "-n", "-r", str(RATE), "-b", "16", str(part), "synth", "1.5", *notes,
             "remix", "-", "gain", "-n", "-9", "fade", "0.02", "1.5", "0.3"])
        parts.append(part)
    result = folder / f"insert-{int(seconds)}.wav"
    run(["sox", "-D", *map(str, parts), str(padded), "-r", str(RATE), "-c", "1", "-b", "16", str(result)])
    assert abs(duration(result) - seconds) < 0.001, (result, duration(result))
    return result


INTRO_TEXT = ("This is a recording made for the raudio evaluation set. All of its recordings are free. "
              "For more information, or to take part, please read the project's documentation.")
CREDITS_TEXT = ("End of the book. This recording was made with a neural voice and a synthesizer. "
                "Music by a sine wave and a plucked string. Thank you for listening.")


# --- truth -------------------------------------------------------------------------------------------------------

def rendered_truth(book_folder, rendered_path, onsets=True):
    """Per document of the rendered book: its sentences (offset, text, start, onset, speech end), its WAV and length;
    and the notes (not narrated). Without `onsets`, the rendered MP3 instead of a WAV, and each sentence's onset and
    pause are its clip's start."""
    package = Package(rendered_path)
    work = book_folder / "work"
    documents = []
    for index, (document, smil) in enumerate(package.overlays(), start=1):
        clips = package.clips(smil)
        audio = clips[0][2]
        if not onsets:
            mp3 = work / f"doc-{index:02d}.mp3"
            mp3.write_bytes(package.zip.read(audio))
            text = package.text(document)
            sentences = []
            for _, fragment, _, begin, _ in clips:
                start, stop = text.span(fragment)
                sentences.append({"href": document, "offset": start, "end": stop, "text": text.string[start:stop][:120],
                                  "start": round(begin, 3), "onset": round(begin, 3), "pause": round(begin, 3)})
            notes = [{"href": document, "offset": start, "end": end, "text": text.string[start:end][:120],
                      "why": "note"} for start, end in text.notes]
            documents.append({"href": document, "wav": mp3, "seconds": clips[-1][4], "sentences": sentences,
                              "notes": notes})
            continue
        wav = work / f"doc-{index:02d}.wav"
        if not wav.exists():
            source = work / posixpath.basename(audio)
            source.write_bytes(package.zip.read(audio))
            to_wav(source, wav)
            source.unlink()
        levels = frame_levels(samples_of(wav))
        text = package.text(document)
        sentences = []
        previous_end = 0.0
        for clip_document, fragment, clip_audio, begin, end in clips:
            assert clip_document == document and clip_audio == audio, (clip_document, clip_audio)
            start, stop = text.span(fragment)
            onset, offset = speech_bounds(levels, begin, end if end is not None else duration(wav))
            sentences.append({"href": document, "offset": start, "end": stop, "text": text.string[start:stop][:120],
                              "start": round(begin, 3), "onset": round(onset, 3), "pause": round(previous_end, 3)})
            previous_end = offset
        notes = [{"href": document, "offset": start, "end": end, "text": text.string[start:end][:120], "why": "note"}
                 for start, end in text.notes]
        documents.append({"href": document, "wav": wav, "seconds": duration(wav), "sentences": sentences,
                          "notes": notes})
    return documents


def shifted(sentences, file, by=0.0, scale=1.0, first_pause=None):
    result = []
    for index, sentence in enumerate(sentences):
        moved = dict(sentence, file=file)
        for key in ("start", "onset", "pause"):
            moved[key] = round(sentence[key] / scale + by, 3)
        if index == 0 and first_pause is not None:
            moved["pause"] = round(first_pause, 3)
        result.append(moved)
    return result


def not_narrated_document(document, why):
    return [{"href": sentence["href"], "offset": sentence["offset"], "end": sentence["end"], "text": sentence["text"],
             "why": why}
            for sentence in document["sentences"]]


def make_variant(book_folder, name, documents, inserts):
    folder = book_folder / name
    audio = folder / "audio"
    if folder.exists():
        shutil.rmtree(folder)
    audio.mkdir(parents=True)
    notes = [note for document in documents for note in document["notes"]]
    sentences, not_narrated, inserted, dropped = [], list(notes), [], []
    count = len(documents)
    if name in ("base", "intro", "credits") or name.startswith("tempo-"):
        scale = float(name.split("-")[1]) if name.startswith("tempo-") else 1.0
        for index, document in enumerate(documents, start=1):
            file = f"{index:02d}.flac"
            sources = [document["wav"]]
            by = 0.0
            effects = ["tempo", "-s", f"{scale}"] if scale != 1.0 else []
            first_pause = None
            if name == "intro" and index == 1:
                sources = [inserts["intro"], document["wav"]]
                by = INTRO_SECONDS
                first_pause = INTRO_SECONDS
                inserted.append({"file": file, "start": 0.0, "end": INTRO_SECONDS,
                                 "what": "an announcement in another voice, then music"})
            if name == "credits" and index == count:
                sources = [document["wav"], inserts["credits"]]
                inserted.append({"file": file, "start": round(document["seconds"], 3),
                                 "end": round(document["seconds"] + CREDITS_SECONDS, 3),
                                 "what": "credits in another voice, then music"})
            flac(sources, audio / file, effects)
            sentences += shifted(document["sentences"], file, by=by, scale=scale, first_pause=first_pause)
    else:
        order = list(range(count))
        if name == "drop":
            gone = count // 2
            order.remove(gone)
            dropped.append({"href": documents[gone]["href"], "what": "a chapter left out of the audio"})
            not_narrated += not_narrated_document(documents[gone], "dropped")
        else:
            first, second = 1, count - 2
            order[first], order[second] = order[second], order[first]
        file = "01.flac"
        position = 0.0
        for index in order:
            document = documents[index]
            sentences += shifted(document["sentences"], file, by=position)
            position += document["seconds"]
        flac([documents[index]["wav"] for index in order], audio / file)
    truth = {"version": 1, "variant": name, "epub": "../book.epub",
             "audio": sorted(path.name for path in audio.iterdir()),
             "sentences": sentences, "notNarrated": not_narrated, "inserted": inserted, "dropped": dropped}
    (folder / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")


def make_copied_variant(book_folder, documents):
    """The base variant as rendered, the audio files copied as they are (MP3)."""
    folder = book_folder / "base"
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "audio").mkdir(parents=True)
    sentences = []
    for index, document in enumerate(documents, start=1):
        file = f"{index:03d}.mp3"
        shutil.copyfile(document["wav"], folder / "audio" / file)
        sentences += shifted(document["sentences"], file)
    truth = {"version": 1, "variant": "base", "epub": "../book.epub",
             "audio": sorted(path.name for path in (folder / "audio").iterdir()), "sentences": sentences,
             "notNarrated": [note for document in documents for note in document["notes"]], "inserted": [],
             "dropped": [], "onsets": "the clips' starts"}
    (folder / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")


def make_rendered_book(name, spec, out, corpus, raudio):
    book_folder = out / name
    work = book_folder / "work"
    work.mkdir(parents=True, exist_ok=True)
    write_zip(book_folder / "book.epub", book_entries(spec, corpus))
    rendered = work / "rendered.epub"
    render_key = hashlib.sha256((book_folder / "book.epub").read_bytes()
                                + json.dumps(spec, sort_keys=True).encode()).hexdigest()
    stamp = work / "rendered.key"
    if not rendered.exists() or not stamp.exists() or stamp.read_text() != render_key:
        for stale in work.glob("doc-*.wav"):
            stale.unlink()
        print(f"make-align-set: rendering {name} with {spec['voice']} (speed {spec['speed']}, pitch {spec['pitch']})",
              flush=True)
        with open(work / "render.log", "wb") as log:
            result = subprocess.run([raudio, "render", str(book_folder / "book.epub"), "--voice", spec["voice"],
                                     "--speed", spec["speed"], "--pitch", spec["pitch"], "--cache",
                                     str(out / "speech-cache"), "--cache-size", spec.get("cacheSize", "unlimited"),
                                     "--to", "epub3", str(rendered)], stdout=log, stderr=subprocess.STDOUT)
        if result.returncode != 0:
            sys.exit(f"make-align-set: raudio render of {name} failed ({result.returncode}): see {work / 'render.log'}")
        stamp.write_text(render_key)
    variants = spec.get("variants", VARIANTS)
    documents = rendered_truth(book_folder, rendered, onsets=variants == VARIANTS)
    if variants == ["base"]:
        make_copied_variant(book_folder, documents)
        return {"name": name, "language": Package(book_folder / "book.epub").language, "narrator": spec["voice"],
                "variants": variants, "seconds": round(sum(document["seconds"] for document in documents), 3)}
    inserts = {"intro": make_insert(work, INTRO_SECONDS, INTRO_TEXT, "en-us+f3",
                                    [("C4", "E4", "G4"), ("F4", "A4", "C5"), ("G4", "B4", "D5"), ("C4", "E4", "G4")]),
               "credits": make_insert(work, CREDITS_SECONDS, CREDITS_TEXT, "en-gb-x-rp+m2",
                                      [("A3", "C4", "E4"), ("D4", "F4", "A4"), ("E4", "G#4", "B4"), ("A3", "C4", "E4")])}
    for variant in VARIANTS:
        make_variant(book_folder, variant, documents, inserts)
    return {"name": name, "language": Package(book_folder / "book.epub").language, "narrator": spec["voice"],
            "variants": VARIANTS}


def make_w3c_book(name, spec, out, corpus):
    """The publisher's narration with its SMIL removed from the book; the SMIL's clips are the truth (one per `par`:
    a sentence or a few), and the audio before the first clip and after the last of each file is narration that is
    not in the text (LibriVox's announcement, the chapter's title, the rest of the chapter)."""
    book_folder = out / name
    variant = book_folder / "base"
    if book_folder.exists():
        shutil.rmtree(book_folder)
    (variant / "audio").mkdir(parents=True)
    source = corpus / spec["epub"]
    write_zip(book_folder / "book.epub", without_media_overlays(source))
    package = Package(source)
    sentences, inserted, files = [], [], {}
    for document, smil in package.overlays():
        text = package.text(document)
        for clip_document, fragment, audio, begin, end in package.clips(smil):
            file = posixpath.basename(audio)
            if file not in files:
                (variant / "audio" / file).write_bytes(package.zip.read(audio))
                files[file] = []
            files[file].append((begin, end))
            start, stop = text.span(fragment)
            sentences.append({"href": clip_document, "offset": start, "end": stop, "text": text.string[start:stop][:120],
                              "file": file, "start": round(begin, 3), "onset": round(begin, 3),
                              "pause": round(begin, 3)})
    for file, clips in files.items():
        length = float(run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                            str(variant / "audio" / file)]).decode())
        first = min(begin for begin, _ in clips)
        last = max(end for _, end in clips)
        if first > 1.0:
            inserted.append({"file": file, "start": 0.0, "end": round(first, 3), "what": "narration not in the text"})
        if length - last > 1.0:
            inserted.append({"file": file, "start": round(last, 3), "end": round(length, 3),
                             "what": "narration not in the text"})
    truth = {"version": 1, "variant": "base", "epub": "../book.epub", "audio": sorted(files),
             "sentences": sentences, "notNarrated": [], "inserted": inserted, "dropped": [],
             "granularity": "publisher's par (a sentence or a few)"}
    (variant / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")
    return {"name": name, "language": package.language, "narrator": "LibriVox (human)", "variants": ["base"]}


def cache_key(arguments, corpus, raudio):
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
        digest.update(path.read_bytes())
    digest.update(arguments.subset.encode())
    for spec in W3C.values():
        digest.update((corpus / spec["epub"]).read_bytes())
    digest.update((corpus / "epub/idpf-epub3-samples/moby-dick-mo.AUDIO-MISSING.epub").read_bytes())
    for tool in (["sox", "--version"], ["espeak-ng", "--version"], ["ffmpeg", "-version"]):
        digest.update(run(tool).splitlines()[0])
    digest.update(run([raudio, "--version"]))
    return digest.hexdigest()[:16]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raudio", required=True)
    parser.add_argument("--out", default="build/align-set")
    parser.add_argument("--corpus", default=os.environ.get("RAUDIO_CORPUS", "../shared/corpus"))
    parser.add_argument("--subset", choices=["ci", "full", "long"], default="full")
    arguments = parser.parse_args()
    out = Path(arguments.out) / arguments.subset
    corpus = Path(arguments.corpus)
    key = cache_key(arguments, corpus, arguments.raudio)
    index_path = out / "index.json"
    if index_path.exists() and json.loads(index_path.read_text()).get("key") == key:
        print(f"make-align-set: {out} is up to date")
        return
    out.mkdir(parents=True, exist_ok=True)
    books = []
    for name, spec in W3C.items():
        if arguments.subset in spec["subsets"]:
            books.append(make_w3c_book(name, spec, out, corpus))
    for name, spec in RENDERED.items():
        if arguments.subset in spec["subsets"]:
            books.append(make_rendered_book(name, spec, out, corpus, arguments.raudio))
    index_path.write_text(json.dumps({"version": 1, "key": key, "books": books}, ensure_ascii=False, indent=1) + "\n")
    print(f"make-align-set: {len(books)} books in {out}")


if __name__ == "__main__":
    main()
