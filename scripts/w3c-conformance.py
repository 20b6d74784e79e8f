#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""W3C EPUB 3.3 reading-system tests (w3c/epub-tests) as an audio reader takes them.

For each test book of the corpus (epub/w3c-epub-tests/), what its description asks of a reading system that
reads aloud is run with raudio and checked; a test about what is seen only (right-to-left page progression,
bidi titles, images) is "not applicable". Prints a Markdown section (the table `make conformance` adds to
docs/CONFORMANCE.md) on stdout and a summary on stderr.

Usage: w3c-conformance.py RAUDIO CORPUS
Exit: 0 when every applicable test passes or is a known failure listed in KNOWN_FAILURES (with its reason);
1 when an applicable test fails that is not (a regression), or a known failure now passes (update the list).
"""
import json
import os
import re
import subprocess
import sys
import zipfile

FOLDER = "epub/w3c-epub-tests"
# Tests raudio does not pass yet, and why: the table says so; `make conformance` fails if one of them starts
# passing (the list is then out of date) or another one fails.
KNOWN_FAILURES = {}
NOT_APPLICABLE = {
    "pkg-dir_rtl-root-unset": "the direction a title is displayed in: nothing to hear",
    "pkg-spine-progression_rtl": "the direction pages turn in: nothing to hear",
    "pkg-manifest-unlisted-resource": "an image not shown: raudio reads no image that has no text alternative",
}


def run(raudio, arguments, timeout=120):
    environment = dict(os.environ, RAUDIO_NO_STATE="1")
    result = subprocess.run([raudio] + arguments, capture_output=True, text=True, timeout=timeout, env=environment)
    events = []
    for line in result.stdout.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            pass
    return result.returncode, events, result.stderr


def of_type(events, kind):
    return [event for event in events if event.get("type") == kind]


def spoken(events):
    return [event["text"] for event in of_type(events, "utterance")]


def seconds(clock):
    """SMIL clock values: 12.5s, 500ms, 00:01.5, 0:00:01.5."""
    clock = clock.strip()
    if clock.endswith("ms"):
        return float(clock[:-2]) / 1000
    if clock.endswith("s"):
        return float(clock[:-1])
    parts = [float(part) for part in clock.split(":")]
    total = 0.0
    for part in parts:
        total = total * 60 + part
    return total


def audio_start(event):
    locator = event.get("audioLocator") or {}
    for fragment in (locator.get("locations") or {}).get("fragments") or []:
        if fragment.startswith("t="):
            return float(fragment[2:].split(",")[0])
    return None


def check(name, path, raudio):
    """(passed, what was checked) for the test `name` at `path`."""
    book = zipfile.ZipFile(path)
    smil = "".join(book.read(entry).decode("utf-8", "replace") for entry in book.namelist() if entry.endswith(".smil"))
    opf = next(book.read(entry).decode("utf-8", "replace") for entry in book.namelist() if entry.endswith(".opf"))
    if name in ("mol-audio", "mol-audio-no-clipbegin"):
        status, events, _ = run(raudio, ["play", path, "--output", "null"])
        # The first par with a recording (a page without one is read by text-to-speech before it).
        starts = [start for start in map(audio_start, of_type(events, "utterance")) if start is not None]
        first_audio = re.search(r"<audio\b[^>]*>", smil)
        begin = re.search(r'clipBegin="([^"]*)"', first_audio.group(0)) if first_audio else None
        expected = seconds(begin.group(1)) if begin else 0.0
        passed = status == 0 and bool(starts) and abs(starts[0] - expected) < 0.25
        return passed, "play: the first recorded par is heard from its clipBegin (%.3f s; heard from %s)" % (expected, starts[:1])
    if name == "mol-audio-no-clipend":
        status, events, _ = run(raudio, ["play", path, "--output", "null"])
        states = [event["state"] for event in of_type(events, "state")]
        narrated = [event for event in of_type(events, "utterance") if event.get("narration")]
        return status == 0 and bool(narrated) and states[-1:] == ["ended"], "play: every par heard, to the end of its audio (state ended)"
    if name == "mol-navigation":
        documents = re.findall(r'<itemref[^>]*idref="([^"]*)"', opf)
        items = dict(re.findall(r'<item[^>]*id="([^"]*)"[^>]*href="([^"]*)"', opf))
        hrefs = [items.get(document, "") for document in documents]
        target = next((href for href in hrefs[1:] if href.endswith(".xhtml")), None)
        if target is None:
            return False, "no second document to go to"
        opf_folder = os.path.dirname(next(entry for entry in book.namelist() if entry.endswith(".opf")))
        locator = json.dumps({"href": os.path.join(opf_folder, target), "type": "application/xhtml+xml", "locations": {"progression": 0}})
        status, events, _ = run(raudio, ["play", path, "--output", "null", "--from", locator])
        narrated = [event for event in of_type(events, "utterance") if event.get("narration")]
        first = narrated[0]["locator"]["href"].split("#")[0] if narrated else None
        return status == 0 and first is not None and first.endswith(target), "play --from the second page: narration starts there (%s)" % first
    if name in ("mol-timing-synchronization_fxl", "mol-timing-synchronization_multiple_audio"):
        status, events, _ = run(raudio, ["play", path, "--output", "null"])
        narrated = [event for event in of_type(events, "utterance") if event.get("narration")]
        tracks = {(event.get("audioLocator") or {}).get("href") for event in narrated} - {None}
        wanted = 2 if name.endswith("multiple_audio") else 1
        return status == 0 and len(tracks) >= wanted, "play: every par narrated with its clip (%d audio file(s), %d expected)" % (len(tracks), wanted)
    if name in ("mol-tts_multi", "mol-tts_single"):
        status, events, _ = run(raudio, ["play", path, "--output", "null"])
        narrated = [event for event in of_type(events, "utterance") if event.get("narration")]
        return status == 0 and bool(narrated) and all(event.get("text") for event in narrated), \
            "play: the pars without audio are read by text-to-speech (%d narrated)" % len(narrated)
    if name in ("ocf-metainf-inc", "pkg-spine-unknown", "pkg-version-backward"):
        status, events, _ = run(raudio, ["speak", path, "--output", "null"])
        return status == 0 and bool(spoken(events)), "speak: opens and reads (exit %d)" % status
    if name == "pkg-lang_but_not_content":
        status, events, _ = run(raudio, ["speak", path, "--output", "null"])
        languages = {event.get("language") for event in of_type(events, "utterance")}
        return status == 0 and languages == {"en"}, "speak: the content is read in English, not the package's fr (%s)" % sorted(languages)
    if name == "pkg-spine-duplicate-item-rendering":
        status, events, _ = run(raudio, ["speak", path, "--output", "null"])
        repeated = [text for text in spoken(events) if "occurs three times" in text]
        return status == 0 and len(repeated) == 3, "speak: the repeated document is read 3 times (%d)" % len(repeated)
    if name == "pkg-spine-duplicate-item-hyperlink":
        locator = json.dumps({"href": "EPUB/content_002.xhtml", "type": "application/xhtml+xml"})
        status, events, _ = run(raudio, ["speak", path, "--output", "null", "--from", locator])
        repeated = [text for text in spoken(events) if "occurs three times" in text]
        return status == 0 and len(repeated) == 3, "speak from a link to the document: from its first occurrence (%d of 3 read)" % len(repeated)
    if name == "pkg-spine-nonlinear-activation":
        status, _, _ = run(raudio, ["speak", path, "--output", "null"])
        # The non-linear item: the spine's itemref with linear="no".
        idref = re.search(r'<itemref[^>]*idref="([^"]*)"[^>]*linear="no"', opf) or re.search(r'<itemref[^>]*linear="no"[^>]*idref="([^"]*)"', opf)
        items = dict(re.findall(r'<item[^>]*id="([^"]*)"[^>]*href="([^"]*)"', opf))
        href = items.get(idref.group(1)) if idref else None
        if not href:
            return False, "no non-linear item found"
        opf_folder = os.path.dirname(next(entry for entry in book.namelist() if entry.endswith(".opf")))
        locator = json.dumps({"href": os.path.join(opf_folder, href), "type": "application/xhtml+xml", "locations": {"progression": 0}})
        reached_status, reached, _ = run(raudio, ["speak", path, "--output", "null", "--from", locator])
        first = (of_type(reached, "utterance") or [{}])[0].get("locator", {}).get("href", "")
        return status == 0 and reached_status == 0 and first.endswith(href), \
            "speak: the non-linear document is reached by going to it (%s)" % first
    if name == "pkg-spine-order":
        status, events, _ = run(raudio, ["speak", path, "--output", "null"])
        hrefs = []
        for event in of_type(events, "utterance"):
            href = event["locator"]["href"]
            if not hrefs or hrefs[-1] != href:
                hrefs.append(href)
        idrefs = re.findall(r'<itemref[^>]*idref="([^"]*)"', opf)
        items = dict(re.findall(r'<item[^>]*id="([^"]*)"[^>]*href="([^"]*)"', opf))
        spine = [items[idref] for idref in idrefs if idref in items]
        heard = [os.path.basename(href) for href in hrefs]
        return status == 0 and heard == [os.path.basename(href) for href in spine], "speak: documents read in spine order (%s)" % heard
    if name == "pkg-spine-order-svg":
        status, events, _ = run(raudio, ["speak", path, "--output", "null"])
        pages = [text for text in spoken(events) if text.startswith("Page ")]
        return status == 0 and pages == ["Page 1", "Page 2", "Page 3", "Page 4"], "speak: the SVG pages' text, in spine order (%s)" % pages
    if name in ("pub-cmt-mp3", "pub-cmt-opus"):
        status, events, _ = run(raudio, ["speak", path, "--output", "null"])
        clip = "aud/001." + name.rsplit("-", 1)[1]
        media = [event for event in of_type(events, "utterance") if (event.get("media") or {}).get("href", "").endswith(clip)]
        return status == 0 and len(media) == 1, "speak: the page's audio clip (%s) is played in place (%d played)" % (clip, len(media))
    if name == "pub-xml-non-validating_comment":
        status, speech, _ = run(raudio, ["speak", path, "--output", "null"])
        read = {event["locator"]["href"] for event in of_type(speech, "utterance")}
        return status == 0 and not any("nav" in os.path.basename(href) for href in read), \
            "speak: the commented-out itemref (the nav doc) is not read (%s)" % sorted(read)
    if name == "pub-xml-non-validating_unclosed":
        status, events, stderr = run(raudio, ["speak", path, "--output", "null"])
        said = [event for event in of_type(events, "warning") + of_type(events, "error") if ".xhtml" in (event.get("message") or "")]
        return bool(said), "speak: the ill-formed document is reported, naming it (%d warning/error)" % len(said)
    return None, "no check written for this test"


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 64
    raudio, corpus = sys.argv[1], sys.argv[2]
    folder = os.path.join(corpus, FOLDER)
    if not os.path.isdir(folder):
        print("w3c-conformance: no %s in the corpus" % FOLDER, file=sys.stderr)
        return 0
    rows, regressions, stale = [], [], []
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".epub"):
            continue
        name = file[:-len(".epub")]
        if name in NOT_APPLICABLE:
            rows.append((name, "not applicable", NOT_APPLICABLE[name]))
            continue
        try:
            passed, what = check(name, os.path.join(folder, file), raudio)
        except Exception as error:  # a crash of the check is a failure of the test, said
            passed, what = False, "the check failed: %s" % error
        if passed is None:
            rows.append((name, "not checked", what))
            regressions.append(name)
        elif passed:
            rows.append((name, "pass", what))
            if name in KNOWN_FAILURES:
                stale.append(name)
        elif name in KNOWN_FAILURES:
            rows.append((name, "fail (known)", "%s; %s" % (what, KNOWN_FAILURES[name])))
        else:
            rows.append((name, "FAIL", what))
            regressions.append(name)
    applicable = [row for row in rows if row[1] != "not applicable"]
    passing = [row for row in rows if row[1] == "pass"]
    print("\n## W3C EPUB 3.3 reading-system tests\n")
    print("Written by `make conformance` (`scripts/w3c-conformance.py`): each test of w3c/epub-tests in the corpus, what its")
    print("description asks of a reading system that reads aloud, run with raudio and checked. Tests of what is only seen")
    print("are not applicable.\n")
    print("**%d tests, %d applicable: %d pass, %d fail.**\n" % (len(rows), len(applicable), len(passing), len(applicable) - len(passing)))
    print("| test | result | what was checked |\n|---|---|---|")
    for name, result, what in rows:
        print("| %s | %s | %s |" % (name, result, what.replace("|", "\\|")))
    print("w3c-conformance: %d applicable, %d pass" % (len(applicable), len(passing)), file=sys.stderr)
    for name in regressions:
        print("w3c-conformance: %s fails (it is not a known failure)" % name, file=sys.stderr)
    for name in stale:
        print("w3c-conformance: %s passes now: take it out of KNOWN_FAILURES" % name, file=sys.stderr)
    return 1 if regressions or stale else 0


if __name__ == "__main__":
    sys.exit(main())
