#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""browser-check: does every locator raudio emits designate exactly the spoken text in a real browser?

For each EPUB, run `raudio text BOOK --unit U` (and, with --speak/--narrate, collect the locators of
`raudio speak` and `raudio play` event streams), serve the book's files on 127.0.0.1 with the media
types its package declares, load each content document in headless Chromium through WebDriver, and
resolve every locator with web/resolver.js (Readium's rule: the cssSelector element,
then before+highlight+after, then the highlight alone; exact when the range's text is the highlight).

Usage:
  scripts/locators/browser-check.py --raudio PATH [--unit sentence,word] [--speak BOOK]...
      [--narrate BOOK]... [--highlight BOOK]... [--min 99.5] [--samples-min 100] [--markdown OUT] [--self-test] BOOK...

Prints one line per book and source, then `locators: N passed, M failed` where a passed check is one
book/source at or above its threshold. Exit status 0 when all pass, 1 when one fails, 2 on a set-up
error (no chromium, no chromedriver, no raudio). Needs only the Python standard library.
"""

import argparse
import collections
import http.server
import json
import mimetypes
import os
import posixpath
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from webdriver import Browser, SetupError, free_port  # noqa: E402
# The page's own resolver (web/resolver.js), run in each content document.
RESOLVER = open(os.path.join(HERE, "..", "..", "web", "resolver.js"), encoding="utf-8").read() + \
    "\nreturn RAudioResolver.statuses(document, arguments[0]);"
MISS_EXAMPLES = 3

# Documents where a miss is not the locator's fault, with the reason the report gives. Their misses
# are listed but left out of the percentage; their exact locators still count.
KNOWN_CAUSES = {
    ("SmokeTestFXL.epub", "xhtml/scripting-005.xhtml"):
        "the page's own script replaces its text once it runs, so the served text is not the shown text",
}
# Outcomes that say the browser could not show the page at all (malformed XHTML it refuses to render):
# nothing there can be highlighted, by any locator.
UNRENDERED = "unrendered"


# ---------------------------------------------------------------- the book's files


class Book:
    """The files of an EPUB (ZIP or folder) and the media types its package declares."""

    def __init__(self, path):
        self.path = path
        self.zip = zipfile.ZipFile(path) if os.path.isfile(path) else None
        self.media_types = {}
        try:
            container = ET.fromstring(self.read("META-INF/container.xml"))
            for rootfile in container.iter("{urn:oasis:names:tc:opendocument:xmlns:container}rootfile"):
                opf_path = rootfile.get("full-path")
                opf = ET.fromstring(self.read(opf_path))
                base = posixpath.dirname(opf_path)
                for item in opf.iter("{http://www.idpf.org/2007/opf}item"):
                    href = urllib.parse.unquote(item.get("href", "").split("#")[0])
                    full = posixpath.normpath(posixpath.join(base, href))
                    self.media_types[full] = item.get("media-type", "")
                break
        except Exception:
            pass  # a book raudio reads but this parser does not: types fall back to the extension

    def read(self, name):
        if self.zip is not None:
            return self.zip.read(name)
        with open(os.path.join(self.path, name), "rb") as handle:
            return handle.read()

    def media_type(self, name):
        declared = self.media_types.get(name)
        if declared:
            return declared
        if name.endswith((".xhtml", ".xht")):
            return "application/xhtml+xml"
        return mimetypes.guess_type(name)[0] or "application/octet-stream"


class Server:
    """Serves the books under /<number>/<path in the book> on 127.0.0.1."""

    def __init__(self):
        self.books = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path).lstrip("/")
                number, _, name = path.partition("/")
                try:
                    book = server.books[int(number)]
                    body = book.read(name)
                except Exception:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", book.media_type(name))
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def add(self, book):
        self.books.append(book)
        return "http://127.0.0.1:%d/%d/" % (self.httpd.server_port, len(self.books) - 1)

    def close(self):
        self.httpd.shutdown()


# ---------------------------------------------------------------- locators


def text_locators(raudio, book, unit):
    result = subprocess.run([raudio, "text", book, "--unit", unit, "--skip", ""],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    if result.returncode != 0:
        return None, result.stderr.decode(errors="replace").strip().splitlines()[-1:]
    lines = result.stdout.decode().splitlines()
    return [json.loads(line)["locator"] for line in lines if line.strip()], []


def event_locators(raudio, command, book):
    """The text locators of a speak or play event stream (utterance, range and state events), once each."""
    arguments = [raudio, command, book, "--output", "null"]
    if command == "speak":
        arguments += ["--skip", ""]
    result = subprocess.run(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, timeout=1800)
    if result.returncode != 0:
        return None, result.stderr.decode(errors="replace").strip().splitlines()[-1:]
    seen, locators = set(), []
    for line in result.stdout.decode().splitlines():
        event = json.loads(line)
        locator = event.get("locator")
        if not locator or "text" not in locator and event.get("type") not in ("utterance", "range"):
            continue
        key = json.dumps(locator, sort_keys=True)
        if key not in seen:
            seen.add(key)
            locators.append(locator)
    return locators, []


def negative_controls(locators):
    """Broken copies that a sound resolver must not report exact."""
    controls = []
    for locator in locators[::7]:
        quote = locator.get("text") or {}
        highlight = quote.get("highlight")
        if not highlight:
            continue
        wrong_text = json.loads(json.dumps(locator))
        wrong_text["text"] = {"highlight": highlight + "\u2603"}
        controls.append(wrong_text)
        wrong_element = json.loads(json.dumps(locator))
        wrong_element.setdefault("locations", {})["cssSelector"] = "html > body > no-such-element"
        controls.append(wrong_element)
    return controls


def resolve_all(browser, base, locators):
    by_href = collections.OrderedDict()
    for position, locator in enumerate(locators):
        by_href.setdefault(locator["href"].split("#")[0], []).append(position)
    results = [None] * len(locators)
    for href, positions in by_href.items():
        browser.open(base + href)  # a Readium href is already a URL path
        outcomes = browser.run(RESOLVER, [locators[position] for position in positions])
        for position, outcome in zip(positions, outcomes):
            results[position] = outcome
    return results


# ---------------------------------------------------------------- highlights of a rendered book

# In a content document: for each id, whether the Media Overlay's active class changes how the element looks
# (its background, fill or colour as computed), with the stylesheet the document links.
HIGHLIGHT = r"""
const [ids, active] = arguments;
// SVG paints no background but under its outermost element: there, only the fill (and colour) can show.
const look = element => {
    const s = getComputedStyle(element);
    const paintsBackground = element.namespaceURI !== "http://www.w3.org/2000/svg" || element.localName === "svg";
    return [paintsBackground ? s.backgroundColor : "", s.fill, s.color].join("|");
};
return ids.map(id => {
    const element = document.getElementById(id);
    if (!element) return "missing";
    const before = look(element);
    element.classList.add(active);
    const after = look(element);
    element.classList.remove(active);
    return before === after ? "unchanged" : "visible";
});
"""
OPF = "{http://www.idpf.org/2007/opf}"
SMIL = "{http://www.w3.org/ns/SMIL}"


def overlay_targets(book):
    """The book's media:active-class and, per content document, the ids its SMIL `text` elements point at."""
    container = ET.fromstring(book.read("META-INF/container.xml"))
    opf_path = next(container.iter("{urn:oasis:names:tc:opendocument:xmlns:container}rootfile")).get("full-path")
    opf = ET.fromstring(book.read(opf_path))
    active = next(((meta.text or "").strip() for meta in opf.iter(OPF + "meta") if meta.get("property") == "media:active-class"), None)
    targets = collections.OrderedDict()
    for item in opf.iter(OPF + "item"):
        if item.get("media-type") != "application/smil+xml":
            continue
        smil_path = posixpath.normpath(posixpath.join(posixpath.dirname(opf_path), urllib.parse.unquote(item.get("href"))))
        for text in ET.fromstring(book.read(smil_path)).iter(SMIL + "text"):
            document, _, fragment = text.get("src", "").partition("#")
            if not document:
                continue
            fragment = urllib.parse.unquote(fragment)
            path = posixpath.normpath(posixpath.join(posixpath.dirname(smil_path), urllib.parse.unquote(document)))
            ids = targets.setdefault(path, [])
            if fragment and fragment not in ids:
                ids.append(fragment)
    return active, targets


def check_highlights(browser, base, book_path, active_class=None):
    """Counts of `visible`, `unchanged` and `missing` over every element a SMIL of the book points at, given
    the package's active class (or `active_class`: the self-test gives one no stylesheet styles)."""
    active, targets = overlay_targets(Book(book_path))
    active = active_class or active
    counts, examples = collections.Counter(), []
    if not active:
        counts["no media:active-class"] += 1
        return counts, examples
    for path, ids in targets.items():
        browser.open(base + urllib.parse.quote(path))
        for element_id, outcome in zip(ids, browser.run(HIGHLIGHT, ids, active)):
            counts[outcome] += 1
            if outcome != "visible" and len(examples) < MISS_EXAMPLES:
                examples.append("%s#%s %s" % (path, element_id, outcome))
    return counts, examples


# ---------------------------------------------------------------- report


class Tally:
    def __init__(self, book, source, threshold):
        self.book, self.source, self.threshold = book, source, threshold
        self.counts = collections.Counter()
        self.examples = collections.defaultdict(list)
        self.refused = None
        self.excused = collections.Counter()
        self.sampled = None  # (k, all): one locator in k of all was resolved

    def add(self, locator, outcome):
        status = outcome["s"]
        href = locator.get("href", "").split("#")[0]
        cause = KNOWN_CAUSES.get((os.path.basename(self.book), href))
        if status == UNRENDERED:
            cause = "the browser refuses to render this malformed XHTML"
        if cause and status not in ("exact", "element"):
            self.excused["%s: %s (%s)" % (href, cause, status)] += 1
            return
        self.counts[status] += 1
        if status not in ("exact", "element") and len(self.examples[status]) < MISS_EXAMPLES:
            self.examples[status].append((locator, outcome.get("got")))

    @property
    def total(self):
        return sum(self.counts.values())

    @property
    def good(self):
        return self.counts["exact"] + self.counts["element"]

    @property
    def percent(self):
        return 100.0 * self.good / self.total if self.total else 100.0

    @property
    def passed(self):
        return self.refused is None and self.percent + 1e-9 >= self.threshold

    def line(self):
        name = "%s (%s)" % (os.path.basename(self.book), self.source)
        if self.refused is not None:
            return "skip %s: raudio refuses the book (make conformance checks that): %s" % (name, self.refused)
        misses = ", ".join("%s %d" % (status, count) for status, count in sorted(self.counts.items())
                           if status not in ("exact", "element"))
        excused = "".join("; %d left out, %s" % (count, why) for why, count in sorted(self.excused.items()))
        if self.total == 0 and self.excused:
            return "ok   %s: no locator to check%s" % (name, "".join("; %d left out, %s" % (count, why) for why, count in sorted(self.excused.items())))
        sampled = "; one in %d of %d resolved" % self.sampled if self.sampled else ""
        return "%s %s: %.2f %% of %d exact (%d element-only)%s%s%s" % (
            "ok  " if self.passed else "FAIL", name, self.percent, self.total, self.counts["element"],
            "; " + misses if misses else "", excused, sampled)


def markdown(tallies, arguments, controls=None):
    out = ["## Locators in a browser", "",
           "Generated by `make locators` (scripts/locators/browser-check.py): every locator `raudio text`",
           "emits (`--unit sentence` and `word`, `--skip \"\"`), and those of the `speak` and `play` event",
           "streams listed below, resolved in headless Chromium by web/resolver.js (the read-along page's resolver), which follows",
           "Readium's rule: the element `locations.cssSelector` selects, then `before + highlight + after`",
           "in its textContent, then the highlight alone. *Exact*: the DOM Range built there has the",
           "highlight's text. *Element*: a locator without a text quote (image, math) whose selector",
           "matches exactly one element. Threshold: %.1f %% per book and source, %.1f %% on the samples."
           % (arguments.min, arguments.samples_min),
           "Left out of the percentage, and named in the row: locators in a page the browser refuses to",
           "render, and misses in a page whose own script rewrites its text (KNOWN_CAUSES in the script).",
           "A row that says \"one in k\" resolved every k-th of its locators, in order (`--sample`; CI samples"
           " the word runs of the largest books, `make locators` resolves all).", "",
           "| book | source | locators | exact or element | % | misses |",
           "|---|---|---:|---:|---:|---|"]
    for tally in tallies:
        if tally.refused is not None:
            out.append("| %s | %s | – | – | – | raudio refuses the book: %s |" % (
                os.path.basename(tally.book), tally.source, tally.refused.replace("|", "\\|")))
            continue
        misses = ", ".join("%s %d" % (status, count) for status, count in sorted(tally.counts.items())
                           if status not in ("exact", "element"))
        excused = "".join("; %d left out: %s" % (count, why) for why, count in sorted(tally.excused.items()))
        sampled = "; one in %d of %d resolved" % tally.sampled if tally.sampled else ""
        out.append("| %s | %s | %d | %d | %.2f | %s%s%s |" % (
            os.path.basename(tally.book), tally.source, tally.total, tally.good, tally.percent,
            misses or "none", excused.replace("|", "\\|"), sampled))
    if controls is not None:
        out += ["", "Self-test (negative controls): %d of %d broken copies of these locators (a character added to"
                " the highlight, or a selector that selects nothing) came out exact, or targets of rendered books came out"
                " highlighted by a class no stylesheet styles; must be 0." % controls]
    out += ["", "Where the text is found matters as much as what: `LocatorQuoteCorpusTests` and",
            "`SpeechLocatorQuoteCorpusTests` check without a browser that the first place the quote occurs in",
            "the element is the one meant, in reading order."]
    examples = [tally for tally in tallies if tally.examples]
    if examples:
        out += ["", "### Misses (first examples of each kind)", ""]
        for tally in examples:
            for status, items in sorted(tally.examples.items()):
                for locator, got in items:
                    quote = locator.get("text") or {}
                    out.append("- %s (%s), %s: `%s` in `%s` %s" % (
                        os.path.basename(tally.book), tally.source, status,
                        json.dumps(quote.get("highlight"), ensure_ascii=False)[:80],
                        locator.get("href"),
                        "(range text: %s)" % json.dumps(got, ensure_ascii=False)[:80] if got else ""))
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--raudio", required=True)
    parser.add_argument("--unit", default="sentence,word")
    parser.add_argument("--speak", action="append", default=[], help="also check `raudio speak BOOK`")
    parser.add_argument("--narrate", action="append", default=[], help="also check `raudio play BOOK`")
    parser.add_argument("--highlight", action="append", default=[],
                        help="also check that the media:active-class shows on every element a SMIL of BOOK points at")
    parser.add_argument("--min", type=float, default=99.5)
    parser.add_argument("--samples-min", type=float, default=100.0)
    parser.add_argument("--samples", default="samples", help="books under this folder use --samples-min")
    parser.add_argument("--markdown")
    parser.add_argument("--self-test", action="store_true",
                        help="also resolve broken copies of the locators; any exact one fails the run")
    parser.add_argument("--sample", type=int, default=int(os.environ.get("RAUDIO_LOCATORS_SAMPLE", "0") or 0),
                        help="resolve at most this many locators of a book and source: every k-th, in order (default: all; "
                             "CI sets RAUDIO_LOCATORS_SAMPLE for the word runs of the largest books)")
    parser.add_argument("books", nargs="*")
    arguments = parser.parse_args()

    if not os.access(arguments.raudio, os.X_OK):
        print("browser-check: no raudio at %s" % arguments.raudio, file=sys.stderr)
        return 2
    jobs = [(book, "text " + unit) for book in arguments.books for unit in arguments.unit.split(",")]
    jobs += [(book, "speak") for book in arguments.speak]
    jobs += [(book, "play") for book in arguments.narrate]

    try:
        browser = Browser()
    except SetupError as error:
        print("browser-check: %s" % error, file=sys.stderr)
        return 2
    server = Server()
    tallies, controls_exact, controls_total, highlights = [], 0, 0, []
    samples = os.path.abspath(arguments.samples) + os.sep
    try:
        bases = {}
        for book, source in jobs:
            threshold = arguments.samples_min if os.path.abspath(book).startswith(samples) else arguments.min
            tally = Tally(book, source, threshold)
            tallies.append(tally)
            if source.startswith("text "):
                locators, error = text_locators(arguments.raudio, book, source[5:])
            else:
                locators, error = event_locators(arguments.raudio, source, book)
            if locators is None:
                tally.refused = " ".join(error) or "no output"
                print(tally.line(), flush=True)
                continue
            if arguments.sample and len(locators) > arguments.sample:
                stride = -(-len(locators) // arguments.sample)
                tally.sampled = (stride, len(locators))
                locators = locators[::stride]
            if book not in bases:
                bases[book] = server.add(Book(book))
            for locator, outcome in zip(locators, resolve_all(browser, bases[book], locators)):
                tally.add(locator, outcome)
            if arguments.self_test:
                controls = negative_controls(locators)
                outcomes = resolve_all(browser, bases[book], controls)
                controls_total += len(controls)
                controls_exact += sum(1 for outcome in outcomes if outcome["s"] in ("exact", "element"))
            print(tally.line(), flush=True)
        for book in arguments.highlight:
            if book not in bases:
                bases[book] = server.add(Book(book))
            counts, examples = check_highlights(browser, bases[book], book)
            total = sum(counts.values())
            highlights.append((book, counts, examples))
            print("%s: highlight: %d of %d overlay targets visibly highlighted%s" % (
                os.path.basename(book), counts["visible"], total, "; " + ", ".join(examples) if examples else ""), flush=True)
            if arguments.self_test:
                counts, _ = check_highlights(browser, bases[book], book, active_class="raudio-no-such-class")
                controls_total += sum(counts.values())
                controls_exact += counts["visible"]
    finally:
        browser.close()
        server.close()

    if arguments.markdown:
        with open(arguments.markdown, "w", encoding="utf-8") as handle:
            handle.write(markdown(tallies, arguments, (controls_exact, controls_total) if arguments.self_test else None))
            if highlights:
                handle.write("\n### The highlight of rendered books\n\nEvery element a SMIL of the book points at, in its page with the"
                             " stylesheet the page links, given the package's `media:active-class`: *visible* when its"
                             " computed background, fill or colour changes. Must be all.\n\n| book | targets | visible | not |\n|---|---:|---:|---|\n")
                for book, counts, examples in highlights:
                    handle.write("| %s | %d | %d | %s |\n" % (os.path.basename(book), sum(counts.values()), counts["visible"],
                                                             "; ".join(examples) or "none"))
    checked = [tally for tally in tallies if tally.refused is None]
    passed = sum(1 for tally in checked if tally.passed)
    failed = len(checked) - passed
    for book, counts, _ in highlights:
        if counts["visible"] == 0 or counts["visible"] != sum(counts.values()):
            failed += 1
        else:
            passed += 1
    if arguments.self_test:
        print("self-test: %d of %d broken locators came out exact, or highlights with a class no stylesheet styles came out"
              " visible (must be 0)" % (controls_exact, controls_total))
        if controls_exact or controls_total == 0:
            failed += 1
    print("locators: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
