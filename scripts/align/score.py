#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Score an alignment against the evaluation set's truth (issue 47).

An alignment is an EPUB with Media Overlays (`raudio align ... --to epub3 OUT.epub`: every SMIL `par` is a sentence's
text and where it starts in which audio file) or a JSON file of clips:
`{"clips": [{"href": DOC, "offset": N | "id": ID, "file": AUDIO, "start": SECONDS}], "unmatchedAudio": [{"file", "start",
"end"}]}` (offsets as epubtext.py counts them, or ids of the book given with --book). Each of the truth's sentences is
matched by its document and the offset of its first character (within 3 characters: a quotation mark may lie inside
one span and outside the other).

Error of a sentence: 0 when the aligned start lies in the pause before the sentence (from the end of the speech before
it to the sentence's speech onset), else the distance to that pause; a sentence with no clip, or a clip in another
audio file, is a miss (counted in the shares within 250 ms and 1 s, not in the median and p95). Drift: in each file,
the mean error of the sentences in the last third of its narrated time against those in the first third.
Not narrated and inserted parts are "reported" when no clip lands on them: no clip for a note's or a dropped chapter's
text, no clip starting inside an inserted interval (1 s from its edges); with an `unmatchedAudio` list, an inserted
interval must also be covered by it at 80 %.

Usage: score.py TRUTH.json ALIGNMENT(.epub|.json) [--book BOOK.epub] [--report ALIGNMENT.json] [--json OUT.json]
       score.py --set build/align-set/full --aligned DIR [--markdown build/align-check.md] [--json OUT.json]
         (DIR/BOOK/VARIANT.epub or .json for each book and variant of the set's index.json; beside an EPUB,
         VARIANT.alignment.json, raudio align's --alignment, gives the unmatched audio it reported)
"""

import argparse
import hashlib
import json
import posixpath
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from epubtext import Package  # noqa: E402

SLACK = 3
EDGE = 1.0


def audio_names(package, audio_folder):
    """The name of the input file each audio file of an aligned EPUB is a copy of (`raudio align` copies the narration
    into the package under names of its own), by their bytes."""
    if audio_folder is None:
        return {}
    inputs = {}
    for file in Path(audio_folder).iterdir():
        inputs.setdefault(hashlib.sha256(file.read_bytes()).hexdigest(), file.name)
    names = {}
    for name in package.zip.namelist():
        digest = hashlib.sha256(package.zip.read(name)).hexdigest() if not name.endswith(("html", "smil", "opf")) else None
        if digest in inputs:
            names[posixpath.basename(name)] = inputs[digest]
    return names


def aligned_clips(path, book=None, audio_folder=None):
    """[(href, offset, file, start)] and the unmatched audio intervals of an alignment (None when it lists none).
    With `audio_folder` (the narration aligned), an EPUB's audio files are named as the files they copy."""
    path = Path(path)
    if path.suffix == ".json":
        data = json.loads(path.read_text())
        package = Package(book) if book else None
        clips = []
        for clip in data["clips"]:
            offset = clip.get("offset")
            if offset is None:
                offset = package.text(clip["href"]).span(clip["id"])[0]
            clips.append((clip["href"], offset, posixpath.basename(clip["file"]), float(clip["start"])))
        return clips, data.get("unmatchedAudio")
    package = Package(path)
    names = audio_names(package, audio_folder)
    clips = []
    for _, smil in package.overlays():
        for document, fragment, audio, begin, _ in package.clips(smil):
            span = package.text(document).span(fragment)
            if span is None:
                continue
            clips.append((document, span[0], names.get(posixpath.basename(audio), posixpath.basename(audio)), begin))
    return clips, None


def unmatched_audio(path):
    """The audio a `raudio align --alignment` JSON reports as not in the text (`unmatchedAudio`)."""
    data = json.loads(Path(path).read_text())
    return [{"file": posixpath.basename(span["audioHref"]), "start": span["begin"], "end": span["end"]}
            for span in data.get("unmatchedAudio", [])]


def percentile(values, share):
    ordered = sorted(values)
    if not ordered:
        return None
    index = min(len(ordered) - 1, max(0, int(round(share * (len(ordered) - 1)))))
    return ordered[index]


def score(truth, clips, unmatched=None):
    by_document = {}
    for href, offset, file, start in clips:
        by_document.setdefault(href, []).append((offset, file, start))
    errors, misses, wrong_file = [], 0, 0
    per_file = {}
    for sentence in truth["sentences"]:
        candidates = [clip for clip in by_document.get(sentence["href"], [])
                      if abs(clip[0] - sentence["offset"]) <= SLACK]
        if not candidates:
            misses += 1
            continue
        _, file, start = min(candidates, key=lambda clip: abs(clip[0] - sentence["offset"]))
        if file != sentence["file"]:
            wrong_file += 1
            continue
        low, high = min(sentence["pause"], sentence["onset"]), sentence["onset"]
        error = 0.0 if low <= start <= high else min(abs(start - low), abs(start - high))
        errors.append(error)
        per_file.setdefault(file, []).append((sentence["onset"], error))
    total = len(truth["sentences"])
    first, last = [], []
    for entries in per_file.values():
        entries.sort()
        if len(entries) < 3:
            continue
        span_start, span_end = entries[0][0], entries[-1][0]
        third = (span_end - span_start) / 3
        first += [error for time, error in entries if time <= span_start + third]
        last += [error for time, error in entries if time >= span_end - third]
    aligned_not_narrated = []
    for part in truth["notNarrated"]:
        end = part.get("end", part["offset"] + 1)
        for offset, file, start in by_document.get(part["href"], []):
            if part["offset"] - SLACK <= offset < max(end, part["offset"] + 1):
                aligned_not_narrated.append(part["text"][:60])
                break
    aligned_inserted = []
    for interval in truth["inserted"]:
        landed = [start for _, _, file, start in clips
                  if file == interval["file"] and interval["start"] + EDGE < start < interval["end"] - EDGE]
        covered = True
        if unmatched is not None:
            overlap = sum(max(0.0, min(interval["end"], part["end"]) - max(interval["start"], part["start"]))
                          for part in unmatched if posixpath.basename(part["file"]) == interval["file"])
            covered = overlap >= 0.8 * (interval["end"] - interval["start"])
        if landed or not covered:
            aligned_inserted.append(f'{interval["file"]} {interval["start"]:.1f}-{interval["end"]:.1f} s')
    within = lambda limit: sum(1 for error in errors if error <= limit) / total * 100 if total else 0.0  # noqa: E731
    return {
        "sentences": total,
        "placed": len(errors),
        "missing": misses,
        "wrongFile": wrong_file,
        "within250ms": round(within(0.25), 1),
        "within1s": round(within(1.0), 1),
        "medianError": round(statistics.median(errors), 3) if errors else None,
        "p95Error": round(percentile(errors, 0.95), 3) if errors else None,
        "firstThirdMeanError": round(statistics.fmean(first), 3) if first else None,
        "lastThirdMeanError": round(statistics.fmean(last), 3) if last else None,
        "notNarrated": len(truth["notNarrated"]),
        "notNarratedAligned": aligned_not_narrated,
        "inserted": len(truth["inserted"]),
        "insertedAligned": aligned_inserted,
    }


def milliseconds(value):
    return "–" if value is None else f"{value * 1000:.0f}"


def markdown(rows):
    lines = ["| book | language | variant | sentences | placed | ≤ 250 ms | ≤ 1 s | median ms | p95 ms | "
             "first ⅓ / last ⅓ mean ms | not narrated, aligned anyway | inserted, aligned anyway |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|---|"]
    for row in rows:
        result = row["score"]
        if result is None:
            lines.append(f'| {row["book"]} | {row["language"]} | {row["variant"]} | – | no alignment: '
                         f'{row["why"]} | | | | | | | |')
            continue
        lines.append(
            f'| {row["book"]} | {row["language"]} | {row["variant"]} | {result["sentences"]} | {result["placed"]} | '
            f'{result["within250ms"]:.1f} % | {result["within1s"]:.1f} % | {milliseconds(result["medianError"])} | '
            f'{milliseconds(result["p95Error"])} | {milliseconds(result["firstThirdMeanError"])} / '
            f'{milliseconds(result["lastThirdMeanError"])} | {len(result["notNarratedAligned"])} of '
            f'{result["notNarrated"]} | {len(result["insertedAligned"])} of {result["inserted"]} |')
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("truth", nargs="?")
    parser.add_argument("alignment", nargs="?")
    parser.add_argument("--book")
    parser.add_argument("--report", help="raudio align's --alignment JSON beside an aligned EPUB (its unmatchedAudio)")
    parser.add_argument("--set")
    parser.add_argument("--aligned")
    parser.add_argument("--markdown")
    parser.add_argument("--json")
    arguments = parser.parse_args()
    rows = []
    if arguments.set:
        index = json.loads((Path(arguments.set) / "index.json").read_text())
        for book in index["books"]:
            for variant in book["variants"]:
                truth = json.loads((Path(arguments.set) / book["name"] / variant / "truth.json").read_text())
                row = {"book": book["name"], "language": book["language"], "variant": variant, "score": None}
                for suffix in (".epub", ".json"):
                    candidate = Path(arguments.aligned) / book["name"] / f"{variant}{suffix}"
                    if candidate.exists():
                        clips, unmatched = aligned_clips(candidate, Path(arguments.set) / book["name"] / "book.epub",
                                                         Path(arguments.set) / book["name"] / variant / "audio")
                        report = Path(arguments.aligned) / book["name"] / f"{variant}.alignment.json"
                        if unmatched is None and report.exists():
                            unmatched = unmatched_audio(report)
                        row["score"] = score(truth, clips, unmatched)
                        break
                else:
                    failure = Path(arguments.aligned) / book["name"] / f"{variant}.failed"
                    row["why"] = failure.read_text().strip()[:200] if failure.exists() else "not aligned"
                rows.append(row)
    else:
        if not arguments.truth or not arguments.alignment:
            parser.error("give TRUTH.json ALIGNMENT, or --set and --aligned")
        truth = json.loads(Path(arguments.truth).read_text())
        clips, unmatched = aligned_clips(arguments.alignment, arguments.book, Path(arguments.truth).parent / "audio")
        if unmatched is None and arguments.report:
            unmatched = unmatched_audio(arguments.report)
        rows.append({"book": Path(arguments.truth).parent.parent.name, "language": "",
                     "variant": truth["variant"], "score": score(truth, clips, unmatched)})
    table = markdown(rows)
    if arguments.markdown:
        Path(arguments.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(arguments.markdown).write_text(table)
    if arguments.json:
        Path(arguments.json).write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
    sys.stdout.write(table)


if __name__ == "__main__":
    main()
