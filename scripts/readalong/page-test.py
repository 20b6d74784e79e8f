#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""page-test: raudio's read-along page (`--web`) in a real browser, headless Chromium driven by chromedriver.

Every check runs the real raudio binary, which serves the page and the publication, speaking or playing to the
null output in real time, and a real Chromium showing the page:

  live        while `raudio speak BOOK --web` speaks, the text the page highlights for each `range` event is the
              event's word: 100 % on the sample EPUB, >= 99.5 % on each corpus book (English, French, Arabic
              right-to-left, Japanese vertical); every miss is listed
  resolve     every `utterance` and `range` locator of a whole `raudio speak` stream, resolved and highlighted by
              the page's own code without playing (same thresholds)
  click       clicking a sentence in the page moves speech there (the next utterance is that sentence)
  controls    play/pause, the speed menu and next chapter send their commands; the chapter list follows
  reconnect   the page reconnects by itself when raudio restarts on the same port
  two-pages   two pages at once both follow every word
  narration   `raudio play` of an EPUB with media overlays: each `par` read is shaded in the page and given the
              book's active class, the document its playback-active class
  svg         `raudio speak` of a spine of SVG pages: each text spoken is highlighted exactly in the drawing
  audiobook   `raudio play book.audiobook --web`: the cover, the chapter list and the position are shown
  voice       `raudio speak` without --voice: the voice box shows the voice in use (the `settings` event's)
  cover       a book without a cover: no request for one and no broken image, over several loads of the page;
              a book with one (the sample with a PNG declared `cover`): shown once loaded
  seek        the audiobook view shows elapsed / total; clicking its bar and dragging it move the position there,
              the Right arrow on it 10 s on
  volume      the volume slider sends `volume` (a `settings` event follows); a `volume` from stdin moves it, and
              a page opened afterwards shows it (the `hello`'s settings)
  bookmarks   the page's Bookmark button makes one, listed at once and after a reload (`bookmarks`); clicking it,
              or Enter on it, goes back there; in speech, one lists the sentence it quotes and a click goes back to it
  refusals    another Host (DNS rebinding) gets 403; a resource outside the package 404
  documents   a lone text file (Project Gutenberg's layout) and an HTML page read aloud: every locator highlighted
              exactly (100 %), the text shown as the paragraphs its locators select
  copy        an LCP EPUB whose licence allows copying 60 characters: a copy out of the page is counted by raudio
              (25 allowed, 35 left), one of 36 refused whole, the page saying why

Usage: page-test.py --raudio PATH [--corpus DIR] [--only NAME,...] [--screenshot FILE] [--seconds S]
Prints one line per check, then `readalong: N passed, M failed`. Exit 0 when all pass, 1 when one fails,
2 on a set-up error (no chromium or chromedriver, no raudio). Needs only the Python standard library.
"""

import argparse
import base64
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "locators"))
from webdriver import Browser, SetupError, free_port  # noqa: E402

SAMPLE_EPUB = os.path.join(ROOT, "samples", "lighthouse.epub")
SAMPLE_AUDIOBOOK = os.path.join(ROOT, "samples", "gull-rock.audiobook")
CORPUS_BOOKS = [  # (path in the corpus, what it covers)
    ("epub/idpf-epub3-samples/wasteland.epub", "English, inline markup"),
    ("epub/idpf-epub3-samples/sous-le-vent.epub", "French"),
    ("epub/idpf-epub3-samples/regime-anticancer-arabic.epub", "Arabic, right to left"),
    ("epub/idpf-epub3-samples/kusamakura-japanese-vertical-writing.AUDIO-MISSING.epub", "Japanese, vertical"),
]
NARRATED_BOOK = "epub/w3c-epub-tests/mol-audio.epub"
SVG_BOOK = "epub/w3c-epub-tests/pkg-spine-order-svg.epub"
MEDIA_BOOK = "epub/w3c-epub-tests/pub-cmt-mp3.epub"
CORPUS_MINIMUM = 99.5


class Failure(Exception):
    pass


class Player:
    """raudio with `--web`, its events collected from stdout, commands written to stdin."""

    def __init__(self, raudio, arguments, port=0, state_dir=None):
        environment = dict(os.environ, RAUDIO_NO_STATE="1")
        if state_dir:  # a listening state of its own (bookmarks), never the user's
            del environment["RAUDIO_NO_STATE"]
            arguments = arguments + ["--state-dir", state_dir]
        self.process = subprocess.Popen(
            [raudio] + arguments + ["--web", "--web-port", str(port), "--json", "--no-mpris"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        self.events, self.stderr = [], []
        self.lock = threading.Lock()
        threading.Thread(target=self._read_events, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.url = self.wait_for(lambda event: event["type"] == "listening" and "page" in event, 20)["page"]

    def _read_events(self):
        for line in self.process.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                self.events.append(event)

    def _read_stderr(self):
        for line in self.process.stderr:
            self.stderr.append(line.decode(errors="replace").rstrip())

    def of_type(self, kind):
        with self.lock:
            return [event for event in self.events if event.get("type") == kind]

    def wait_for(self, predicate, seconds, start=0):
        deadline = time.time() + seconds
        while time.time() < deadline:
            with self.lock:
                for event in self.events[start:]:
                    if predicate(event):
                        return event
            if self.process.poll() is not None and time.time() > deadline - seconds + 1:
                with self.lock:
                    found = [event for event in self.events[start:] if predicate(event)]
                if found:
                    return found[0]
                raise Failure("raudio exited (%s): %s" % (self.process.returncode, " | ".join(self.stderr[-3:])))
            time.sleep(0.05)
        raise Failure("raudio: no such event within %d s; stderr: %s" % (seconds, " | ".join(self.stderr[-3:])))

    def send(self, line):
        try:
            self.process.stdin.write((line + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def quit(self):
        self.send("quit")
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise Failure("raudio did not quit within 15 s")


class Page:
    """The read-along page in the browser's current window."""

    def __init__(self, browser, url):
        self.browser = browser
        browser.open(url)
        self.wait(lambda: self.state("connected") and self.state("hellos") > 0, 15, "the page did not connect")

    def state(self, name):
        return self.browser.run("return window.raudioPage && window.raudioPage[arguments[0]];", name)

    def wait(self, condition, seconds, message):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if condition():
                return
            time.sleep(0.1)
        raise Failure(message)


def page_log(browser):
    """What the page in the current window did with each `range` event: the word, the status, the text highlighted."""
    return browser.run("return window.raudioPage.log.map(e => ({highlight: e.highlight, status: e.status, painted: e.painted}));")


def compare(range_events, log, minimum, label):
    """Lines describing the page's highlights against raudio's `range` events; raises Failure under minimum."""
    if not log:
        raise Failure("%s: the page highlighted no word" % label)
    expected = range_events[-len(log):]
    if len(expected) != len(log):
        raise Failure("%s: the page logged %d words, raudio sent %d" % (label, len(log), len(range_events)))
    misses = []
    for index, (event, entry) in enumerate(zip(expected, log)):
        word = event["locator"].get("text", {}).get("highlight")
        if entry["highlight"] != word:
            raise Failure("%s: event %d out of step: page had %r, raudio sent %r" % (label, index, entry["highlight"], word))
        if word is None:
            # An image or another element without text (its alternative text is spoken): the page must find
            # the element, as Readium does; there is no text to highlight.
            if entry["status"] != "element":
                misses.append("element %s not found (%s)" % (event["locator"]["locations"].get("cssSelector"), entry["status"]))
        elif entry["painted"] != word:
            misses.append("%r highlighted as %r (%s) in %s" % (word, entry["painted"], entry["status"], event["locator"]["href"]))
    percent = 100.0 * (len(log) - len(misses)) / len(log)
    line = "%s: %d of %d words highlighted exactly (%.2f %%)" % (label, len(log) - len(misses), len(log), percent)
    for miss in misses[:20]:
        line += "\n    miss: " + miss
    if percent < minimum:
        raise Failure(line)
    return line


# ---------------------------------------------------------------- the checks


def check_live(browser, raudio, book, minimum, seconds, label):
    player = Player(raudio, ["speak", book, "--output", "null", "--realtime", "--speed", "3"])
    try:
        Page(browser, player.url)
        deadline = time.time() + seconds
        while time.time() < deadline and player.process.poll() is None:
            time.sleep(0.25)
        if player.process.poll() is None:
            player.quit()
        time.sleep(0.5)  # the last events reach the page
        log = page_log(browser)
        return compare(player.of_type("range"), log, minimum, label)
    finally:
        if player.process.poll() is None:
            player.process.kill()


def check_resolve(browser, raudio, book, minimum, label):
    rendered = subprocess.run([raudio, "speak", book, "--output", "null", "--json", "--no-mpris"],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              timeout=900, env=dict(os.environ, RAUDIO_NO_STATE="1"))
    events = [json.loads(line) for line in rendered.stdout.decode().splitlines() if line.startswith("{")]
    locators = [event["locator"] for event in events if event.get("type") in ("utterance", "range")]
    if not locators:
        raise Failure("%s: raudio speak gave no locators (exit %d)" % (label, rendered.returncode))
    player = Player(raudio, ["speak", book, "--output", "null", "--realtime"])
    try:
        player.send("pause")
        Page(browser, player.url)
        results = browser.run_async(
            "const done = arguments[arguments.length - 1]; window.raudioPage.check(arguments[0]).then(done);", locators)
    finally:
        player.quit()
    misses = ["%r: %s, highlighted %r (%s)" % (locator.get("text", {}).get("highlight"), result["status"], result["painted"], locator["href"])
              for locator, result in zip(locators, results) if not exact(locator, result)]
    percent = 100.0 * (len(locators) - len(misses)) / len(locators)
    line = "%s: %d of %d utterance and range locators highlighted exactly by the page (%.2f %%)" % (
        label, len(locators) - len(misses), len(locators), percent)
    for miss in misses[:20]:
        line += "\n    miss: " + miss
    if percent < minimum:
        raise Failure(line)
    return line


GUTENBERG_TEXT = """The Project Gutenberg eBook of The Last Lamp

Title: The Last Lamp

Author: The raudio project

*** START OF THE PROJECT GUTENBERG EBOOK THE LAST LAMP ***

CHAPTER 1. The Storm.

On the last night of October, Mara climbed the hundred and twelve steps
of the lighthouse. The wind pushed at the windows like a tired animal,
and the sea below was black and loud.

At nine o'clock the great lamp flickered once, and then it went out.

CHAPTER 2. The Ship.

Far out on the water, a small ship was looking for the light. Its captain
had sailed these rocks for thirty years -- and he was afraid.

*** END OF THE PROJECT GUTENBERG EBOOK THE LAST LAMP ***

The licence, which is not read aloud.
"""

HTML_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>The Last Lamp</title></head>
<body>
<h1 id="storm">The Storm</h1>
<p>On the last night of October, Mara climbed the <em>hundred and twelve</em> steps.<br>
The wind pushed at the windows like a tired animal.</p>
<img src="lamp.png" alt="">
<h1 id="ship">The Ship</h1>
<p>Far out on the water, a small ship was looking for the light.</p>
</body>
</html>
"""


# A web page as most are, not XML: attributes without quotes, paragraphs and list items left open, a table
# without its tbody, entities, a script. raudio reads it with libxml2's HTML parser; the browser with its own.
TAG_SOUP_PAGE = """<!DOCTYPE html>
<html lang=en>
<head><meta charset=utf-8><title>Tag soup</title>
<script>if (a < b && c) { document.title = "<p>x</p>"; }</script></head>
<body>
<nav><ul><li><a href=/>Home</a><li><a href=/about>About</a></ul></nav>
<h1 id=top>The keeper's log</h1>
<p>The lamp was lit at dusk&nbsp;on the first night, &copy; the keeper.
<p>Second entry, left open, with <b>bold</b> and <i>italic</i> words.
<p>Third entry, with a picture <img src=lamp.png alt="the lamp at night"> and a<br>line break.
<table><tr><td>Wind<td>North-east<tr><td>Sea<td>Rough</table>
<p>Last entry &amp; the end of the log.
<div class=signature>Written at Gull Rock.</div>
</body>
</html>
"""


def check_documents(browser, raudio):
    """A lone text file and HTML page read aloud: every locator highlighted exactly in the page, the text shown
    as the paragraphs its locators select."""
    folder = tempfile.mkdtemp(prefix="raudio-page-documents-")
    try:
        lines = []
        for name, content in [("last-lamp.txt", GUTENBERG_TEXT), ("last-lamp.html", HTML_PAGE), ("tag-soup.html", TAG_SOUP_PAGE)]:
            path = os.path.join(folder, name)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(content)
            lines.append(check_resolve(browser, raudio, path, 100.0, "resolve, %s" % name))
        return "\n      ".join(lines)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def exact(locator, result):
    """Whether the page highlighted exactly the locator's text (found its element, for one without text)."""
    highlight = locator.get("text", {}).get("highlight")
    return result["status"] == "element" if highlight is None else result["painted"] == highlight


TARGET_SENTENCE = "She watched it until the rain hid everything."


def check_click(browser, raudio):
    player = Player(raudio, ["speak", SAMPLE_EPUB, "--output", "null", "--realtime"])
    try:
        page = Page(browser, player.url)
        page.wait(lambda: len(page.state("sentences") or []) > 0, 15, "no sentence shown")
        # Where the sentence is on the screen: the frame's offset plus the sentence's first box in the frame.
        point = browser.run("""
            const frame = document.getElementById('content');
            const doc = frame.contentDocument;
            const outcome = RAudioResolver.resolve(doc, {href: '', locations: {cssSelector: '#p2'}, text: {highlight: arguments[0]}});
            if (!outcome.range) return null;
            const box = outcome.range.getClientRects()[0], at = frame.getBoundingClientRect();
            return [Math.round(at.left + box.left + box.width / 2), Math.round(at.top + box.top + box.height / 2)];""",
                            TARGET_SENTENCE)
        if not point:
            raise Failure("click: the target sentence is not in the page")
        start = len(player.events)
        browser.click_at(point[0], point[1])
        event = player.wait_for(lambda e: e["type"] == "utterance" and e["locator"]["text"].get("highlight") == TARGET_SENTENCE, 10, start)
        skipped = [e["text"] for e in player.of_type("utterance")][:-1]
        return "click: clicking %r at %s moved speech there (%d utterances before it)" % (event["text"], point, len(skipped))
    finally:
        player.quit()


def check_controls(browser, raudio):
    """The page's buttons and speed menu send their commands: pause, play, speed, next chapter."""
    player = Player(raudio, ["speak", SAMPLE_EPUB, "--output", "null", "--realtime"])
    try:
        page = Page(browser, player.url)
        page.wait(lambda: len(page.state("log") or []) > 0, 15, "controls: no word highlighted")
        steps = []
        start = len(player.events)
        browser.run("document.getElementById('toggle').click();")
        player.wait_for(lambda e: e["type"] == "state" and e["state"] == "paused", 10, start)
        steps.append("paused")
        start = len(player.events)
        browser.run("document.getElementById('toggle').click();")
        player.wait_for(lambda e: e["type"] == "state" and e["state"] == "playing", 10, start)
        steps.append("playing")
        start = len(player.events)
        browser.run("const s = document.getElementById('speed'); s.value = '1.5'; s.dispatchEvent(new Event('change'));")
        player.wait_for(lambda e: e["type"] == "settings" and e.get("speed") == 1.5, 10, start)
        steps.append("speed 1.5")
        start = len(player.events)
        browser.run("document.getElementById('chapter-next').click();")
        event = player.wait_for(lambda e: e["type"] == "chapter" and e.get("index") == 2, 10, start)
        page.wait(lambda: browser.run("return document.querySelector('#chapters li.current') && "
                                      "document.querySelector('#chapters li.current').dataset.index === '2';"), 10,
                  "controls: the chapter list does not mark chapter 2")
        steps.append("chapter 2 (%s)" % event.get("title"))
        return "controls: " + ", ".join(steps) + " from the page"
    finally:
        player.quit()


def check_reconnect(browser, raudio):
    port = free_port()
    first = Player(raudio, ["speak", SAMPLE_EPUB, "--output", "null", "--realtime"], port=port)
    page = Page(browser, first.url)
    first.quit()
    page.wait(lambda: not page.state("connected"), 10, "reconnect: the page did not see raudio stop")
    second = Player(raudio, ["speak", SAMPLE_EPUB, "--output", "null", "--realtime"], port=port)
    try:
        page.wait(lambda: page.state("connected") and page.state("hellos") >= 2, 15, "reconnect: the page did not reconnect")
        before = len(page.state("log"))
        page.wait(lambda: len(page.state("log")) > before, 15, "reconnect: no word highlighted after reconnecting")
        return "reconnect: the page reconnected to the restarted raudio and follows it again"
    finally:
        second.quit()


def check_two_pages(browser, raudio):
    player = Player(raudio, ["speak", SAMPLE_EPUB, "--output", "null", "--realtime", "--speed", "2"])
    try:
        first_window = browser.window()
        Page(browser, player.url)
        second_window = browser.new_window()
        browser.switch_to(second_window)
        Page(browser, player.url)
        player.process.wait(120)
        time.sleep(0.5)
        lines = []
        for name, window in (("first", first_window), ("second", second_window)):
            browser.switch_to(window)
            log = page_log(browser)
            lines.append(compare(player.of_type("range"), log, 100.0, "two pages, " + name))
        browser.close_window()
        browser.switch_to(first_window)
        return "two-pages: " + "; ".join(line.split(": ", 1)[1] for line in lines)
    finally:
        if player.process.poll() is None:
            player.quit()


def check_narration(browser, raudio, corpus):
    book = os.path.join(corpus, NARRATED_BOOK)
    if not os.path.exists(book):
        return None
    player = Player(raudio, ["play", book, "--output", "null", "--realtime"])
    try:
        page = Page(browser, player.url)
        page.wait(lambda: len(page.state("sentences") or []) >= 3, 30, "narration: fewer than 3 pars shown")
        shown = page.state("sentences")
        bad = [entry for entry in shown if entry["status"] not in ("exact", "element") or not (entry["painted"] or "").strip()]
        if bad:
            raise Failure("narration: %d of %d pars not shaded: %s" % (len(bad), len(shown), bad[:3]))
        # The book's media:active-class on the element read, its playback-active-class on the document (mol-css).
        unmarked = [entry for entry in shown if not entry.get("activeClass")]
        if unmarked:
            raise Failure("narration: %d of %d pars without the book's active class: %s" % (len(unmarked), len(shown), unmarked[:3]))
        active = browser.run("const d = document.getElementById('content').contentDocument;"
                             " return [d.querySelectorAll('.my-active-class').length, d.documentElement.classList.contains('my-document-playing')];")
        if active != [1, True]:
            raise Failure("narration: [elements with my-active-class, document has my-document-playing] is %s, not [1, true]" % active)
        return "narration: %d pars of %s shaded and given its active class as they were read" % (len(shown), os.path.basename(book))
    finally:
        player.quit()


def check_svg(browser, raudio, corpus):
    """An EPUB whose spine is SVG pages (W3C pkg-spine-order-svg): each text spoken is highlighted in the drawing."""
    book = os.path.join(corpus, SVG_BOOK)
    if not os.path.exists(book):
        return None
    player = Player(raudio, ["speak", book, "--output", "null", "--realtime", "--speed", "3"])
    try:
        page = Page(browser, player.url)
        page.wait(lambda: len(page.state("sentences") or []) >= 5, 30, "svg: fewer than 5 text elements shown")
        shown = page.state("sentences")
        bad = [entry for entry in shown if entry["status"] != "exact" or (entry["painted"] or "").strip() != entry["highlight"]]
        if bad:
            raise Failure("svg: %d of %d texts not highlighted exactly: %s" % (len(bad), len(shown), bad[:3]))
        return "svg: %d texts of %s highlighted in the drawing as they were spoken" % (len(shown), os.path.basename(book))
    finally:
        player.quit()


def check_media(browser, raudio, corpus):
    """A page with an <audio> element (W3C pub-cmt-mp3): raudio plays the clip in place while speaking, and the
    page outlines the element (and only it) as it plays."""
    book = os.path.join(corpus, MEDIA_BOOK)
    if not os.path.exists(book):
        return None
    player = Player(raudio, ["speak", book, "--output", "null", "--realtime"])
    try:
        page = Page(browser, player.url)
        page.wait(lambda: any(entry.get("media") for entry in page.state("sentences") or []), 30, "media: the clip never shown playing")
        shown = page.state("sentences")
        media = [entry for entry in shown if entry.get("media")]
        if media[0]["element"] != "audio" or not media[0]["media"].endswith("aud/001.mp3"):
            raise Failure("media: the clip shown as %r" % media[0])
        outlined = browser.run("""const doc = document.getElementById('content').contentDocument;
            return Array.from(doc.querySelectorAll('.raudio-media-playing')).map(e => e.localName);""")
        if outlined != ["audio"]:
            raise Failure("media: outlined while the clip plays: %r" % outlined)
        return "media: %s played in place, its <audio> outlined while it plays" % media[0]["media"]
    finally:
        player.quit()


def check_audiobook(browser, raudio):
    player = Player(raudio, ["play", SAMPLE_AUDIOBOOK, "--output", "null", "--realtime"])
    try:
        page = Page(browser, player.url)
        toc = player.wait_for(lambda e: e["type"] == "toc", 10)
        page.wait(lambda: browser.run("return !document.getElementById('audiobook').hidden && "
                                      "document.getElementById('progress').value > 0.03;"), 15, "audiobook: no position shown")
        shown = browser.run("""return {
            cover: document.getElementById('cover').naturalWidth,
            chapters: Array.from(document.querySelectorAll('#chapters li')).map(li => li.textContent),
            time: document.getElementById('time').textContent};""")
        titles = [entry["title"] for entry in toc["entries"]]
        if shown["chapters"] != titles:
            raise Failure("audiobook: chapters %r, the toc says %r" % (shown["chapters"], titles))
        if not shown["time"]:
            raise Failure("audiobook: no time shown")
        cover = "a %d-pixel-wide cover" % shown["cover"] if shown["cover"] else "no cover (the sample has none)"
        return "audiobook: %d chapters, position %r, %s" % (len(titles), shown["time"], cover)
    finally:
        player.quit()


def check_voice(browser, raudio):
    """Without --voice, the voice box shows the voice speaking (the one the `settings` event names)."""
    player = Player(raudio, ["speak", SAMPLE_EPUB, "--output", "null", "--realtime"])
    try:
        settings = player.wait_for(lambda e: e["type"] == "settings", 10)
        if not settings.get("voice"):
            raise Failure("voice: the settings event names no voice: %r" % settings)
        page = Page(browser, player.url)
        page.wait(lambda: browser.run("return !document.getElementById('voice-control').hidden;"), 10,
                  "voice: the voice box is hidden without --voice")
        shown = browser.run("return document.getElementById('voice').value;")
        if shown != settings["voice"]:
            raise Failure("voice: the box shows %r, the settings event says %r" % (shown, settings["voice"]))
        return "voice: the voice box shows %r without --voice" % shown
    finally:
        player.quit()


def cover_state(browser):
    """The cover as the page shows it: its state, whether the img is visible, its width, requests made for it."""
    return browser.run("""const image = document.getElementById('cover');
        return {state: window.raudioPage.cover, visible: !image.hidden && image.getClientRects().length > 0,
                width: image.naturalWidth, complete: image.complete, hasSource: image.hasAttribute('src'),
                requests: performance.getEntriesByType('resource').filter(r => new URL(r.name).pathname === '/cover').length};""")


def tiny_png(width, height):
    """A PNG of width x height grey pixels, made with the standard library."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def check_cover(browser, raudio, loads=5):
    """The sample audiobook has no cover: over several loads, no request for one and no broken image. A copy
    of it whose manifest declares a PNG cover: the image is shown, loaded."""
    player = Player(raudio, ["play", SAMPLE_AUDIOBOOK, "--output", "null", "--realtime"])
    try:
        for load in range(loads):
            page = Page(browser, player.url)
            page.wait(lambda: page.state("cover") in ("none", "shown", "failed"), 10,
                      "cover: load %d: the page never decided about the cover (%r)" % (load + 1, cover_state(browser)))
            time.sleep(0.3)  # a late image error would show now
            shown = cover_state(browser)
            if shown["state"] != "none" or shown["visible"] or shown["requests"] or shown["hasSource"]:
                raise Failure("cover: load %d of a book without a cover: %r" % (load + 1, shown))
    finally:
        player.quit()
    folder = tempfile.mkdtemp(prefix="raudio-page-cover-")
    try:
        book = os.path.join(folder, "gull-rock")
        shutil.copytree(os.path.join(ROOT, "samples", "gull-rock"), book)
        with open(os.path.join(book, "manifest.json")) as source:
            manifest = json.load(source)
        manifest["resources"] = manifest.get("resources", []) + [{"href": "cover.png", "type": "image/png", "rel": "cover"}]
        with open(os.path.join(book, "manifest.json"), "w") as output:
            json.dump(manifest, output)
        with open(os.path.join(book, "cover.png"), "wb") as output:
            output.write(tiny_png(64, 48))
        player = Player(raudio, ["play", os.path.join(book, "manifest.json"), "--output", "null", "--realtime"])
        try:
            page = Page(browser, player.url)
            page.wait(lambda: page.state("cover") in ("shown", "failed"), 10, "cover: the declared cover never loaded (%r)" % cover_state(browser))
            shown = cover_state(browser)
            if shown["state"] != "shown" or not shown["visible"] or shown["width"] != 64:
                raise Failure("cover: a book with a 64-pixel cover: %r" % shown)
        finally:
            player.quit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return "cover: no request and no broken image over %d loads of a book without one; a declared cover shown (64 px)" % loads


def clock(seconds):
    """The page's clock: m:ss, or h:mm:ss."""
    seconds = int(seconds)
    hours, minutes, rest = seconds // 3600, seconds // 60 % 60, seconds % 60
    return ("%d:%02d" % (hours, minutes) if hours else "%d" % minutes) + ":%02d" % rest


def drag(browser, start, end):
    """A real mouse drag (pointer actions) from one viewport point to another."""
    browser.call("POST", "/session/%s/actions" % browser.session, {"actions": [{
        "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [{"type": "pointerMove", "origin": "viewport", "x": int(start[0]), "y": int(start[1]), "duration": 0},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerMove", "origin": "viewport", "x": int((start[0] + end[0]) / 2), "y": int(end[1]), "duration": 100},
                    {"type": "pointerMove", "origin": "viewport", "x": int(end[0]), "y": int(end[1]), "duration": 100},
                    {"type": "pointerUp", "button": 0}]}]})
    browser.call("DELETE", "/session/%s/actions" % browser.session)


def press(browser, key):
    """A real key press (key actions) on the focused element; `key` is a WebDriver key code."""
    browser.call("POST", "/session/%s/actions" % browser.session, {"actions": [{
        "type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})
    browser.call("DELETE", "/session/%s/actions" % browser.session)


def bar_point(browser, fraction):
    """Viewport coordinates of `fraction` along the position bar (its track, between the thumb's half-widths)."""
    return browser.run("""const bar = document.getElementById('progress').getBoundingClientRect(), thumb = 16;
        return [bar.left + thumb / 2 + (bar.width - thumb) * arguments[0], bar.top + bar.height / 2];""", fraction)


def check_seek(browser, raudio):
    """The audiobook view: elapsed / total under the bar; a click on the bar, then a drag of it, seek there."""
    player = Player(raudio, ["play", SAMPLE_AUDIOBOOK, "--output", "null", "--realtime"])
    try:
        duration = player.wait_for(lambda e: e["type"] == "opened", 10)["publication"]["duration"]
        page = Page(browser, player.url)
        page.wait(lambda: browser.run("return document.getElementById('clock').textContent;").endswith(" / " + clock(duration)), 10,
                  "seek: no total time shown (%r; the book lasts %s)" % (browser.run("return document.getElementById('clock').textContent;"), clock(duration)))
        steps = []
        for how, fraction in (("click", 0.75), ("drag", 0.3)):
            start = len(player.events)
            if how == "click":
                browser.click_at(*bar_point(browser, fraction))
            else:
                drag(browser, bar_point(browser, 0.9), bar_point(browser, fraction))
            moved = player.wait_for(lambda e: e["type"] == "position" and abs(e["locator"]["locations"].get("totalProgression", -1) - fraction) < 0.05,
                                    8, start)
            at = moved["locator"]["locations"]["totalProgression"]
            page.wait(lambda: abs(float(browser.run("return document.getElementById('progress').value;")) - at) < 0.05, 5,
                      "seek: the bar did not follow the position after a %s" % how)
            shown = browser.run("return document.getElementById('clock').textContent;")
            steps.append("%s at %d %% -> %s (%s)" % (how, fraction * 100, clock(at * duration), shown))
        # The keyboard: Right arrow on the focused bar seeks 10 s on.
        before = player.of_type("position")[-1]["locator"]["locations"]["totalProgression"] * duration
        start = len(player.events)
        browser.run("document.getElementById('progress').focus();")
        press(browser, "\ue014")
        moved = player.wait_for(lambda e: e["type"] == "position" and 8 < e["locator"]["locations"].get("totalProgression", 0) * duration - before < 12.5,
                                8, start)
        steps.append("Right arrow %s -> %s" % (clock(before), clock(moved["locator"]["locations"]["totalProgression"] * duration)))
        sent = page.state("seeks")
        if len(sent) != 3:
            raise Failure("seek: the bar sent %r, not three seeks" % sent)
        return "seek: " + "; ".join(steps)
    finally:
        player.quit()


def check_volume(browser, raudio):
    """The volume slider sends `volume`; a `volume` from stdin moves it; a page opened later shows the volume."""
    player = Player(raudio, ["play", SAMPLE_AUDIOBOOK, "--output", "null", "--realtime"])
    try:
        page = Page(browser, player.url)
        start = len(player.events)
        browser.run("const v = document.getElementById('volume'); v.focus(); v.value = '1';")
        press(browser, "\ue012")  # Left arrow: one step down, as a listener would
        event = player.wait_for(lambda e: e["type"] == "settings" and abs(e.get("volume", 1) - 0.95) < 0.001, 10, start)
        player.send("volume 0.4")
        page.wait(lambda: browser.run("return document.getElementById('volume').value;") == "0.4", 10,
                  "volume: the slider did not follow a volume from stdin")
        label = browser.run("return document.getElementById('volume-value').textContent;")
        if label != "40 %":
            raise Failure("volume: the label says %r after volume 0.4" % label)
        page = Page(browser, player.url)  # a page opened now learns the volume from its hello
        shown = browser.run("return document.getElementById('volume').value;")
        if shown != "0.4":
            raise Failure("volume: a page opened after volume 0.4 shows %r" % shown)
        return "volume: the slider sent volume %s (settings followed), followed stdin's 0.4, a new page shows 0.4" % event["volume"]
    finally:
        player.quit()


def check_bookmarks(browser, raudio):
    """The page's Bookmark button makes one; it is listed at once and after a reload; a click on it, then Enter
    on it, go back there from later in the book."""
    state = tempfile.mkdtemp(prefix="raudio-page-state-")
    player = Player(raudio, ["play", SAMPLE_AUDIOBOOK, "--output", "null", "--realtime"], state_dir=state)
    try:
        page = Page(browser, player.url)
        player.wait_for(lambda e: e["type"] == "position" and e["locator"]["locations"].get("totalProgression", 0) > 0.05, 15)
        start = len(player.events)
        browser.run("document.getElementById('bookmark').click();")
        made = player.wait_for(lambda e: e["type"] == "bookmark", 10, start)
        mark = made["locator"]["locations"]["totalProgression"]
        page.wait(lambda: made["id"] in (page.state("bookmarks") or []), 10, "bookmarks: the bookmark made is not listed")
        page = Page(browser, player.url)
        page.wait(lambda: made["id"] in (page.state("bookmarks") or []), 10, "bookmarks: not listed after a reload")
        steps = []
        for how in ("click", "enter"):
            start = len(player.events)
            player.send("seek 0:45")
            player.wait_for(lambda e: e["type"] == "position" and e["locator"]["locations"].get("totalProgression", 0) > 0.7, 10, start)
            start = len(player.events)
            selector = "#bookmarks button[data-id='%d']" % made["id"]
            if how == "click":
                point = browser.run("""const box = document.querySelector(arguments[0]).getBoundingClientRect();
                    return [box.left + box.width / 2, box.top + box.height / 2];""", selector)
                browser.click_at(*point)
            else:
                browser.run("document.querySelector(arguments[0]).focus();", selector)
                press(browser, "\ue007")
            back = player.wait_for(lambda e: e["type"] == "position" and abs(e["locator"]["locations"].get("totalProgression", -1) - mark) < 0.04,
                                   10, start)
            steps.append("%s went to %.2f" % (how, back["locator"]["locations"]["totalProgression"]))
        label = browser.run("return document.querySelector(arguments[0]).textContent;", "#bookmarks button[data-id='%d']" % made["id"])
        audiobook = "audiobook: bookmark %d at %.2f (%r) listed, after a reload too; %s" % (made["id"], mark, label, ", ".join(steps))
    finally:
        player.quit()
    try:
        return "bookmarks: %s; speech: %s" % (audiobook, speech_bookmark(browser, raudio, state))
    finally:
        shutil.rmtree(state, ignore_errors=True)


def speech_bookmark(browser, raudio, state):
    """`raudio speak`: a bookmark quotes the sentence heard; the page lists that quote and a click goes back to it."""
    player = Player(raudio, ["speak", SAMPLE_EPUB, "--output", "null", "--realtime", "--from", "0%"], state_dir=state)
    try:
        page = Page(browser, player.url)
        heard = set()  # the predicate runs under the player's lock, on every event again each time: it counts by itself
        player.wait_for(lambda e: e["type"] == "utterance" and (heard.add(id(e)) or len(heard) >= 3), 20)
        player.send("pause")
        player.wait_for(lambda e: e["type"] == "state" and e["state"] == "paused", 10)
        start = len(player.events)
        browser.run("document.getElementById('bookmark').click();")
        made = player.wait_for(lambda e: e["type"] == "bookmark", 10, start)
        quote = made["locator"].get("text", {}).get("highlight")
        if not quote:
            raise Failure("bookmarks: speech: the bookmark quotes nothing: %r" % made)
        selector = "#bookmarks button[data-id='%d']" % made["id"]
        page.wait(lambda: browser.run("const b = document.querySelector(arguments[0]); return b && b.textContent;", selector), 10,
                  "bookmarks: speech: the bookmark made is not listed")
        label = browser.run("return document.querySelector(arguments[0]).firstChild.textContent;", selector)
        if label != " ".join(quote.split())[:80] and not (label.endswith("…") and " ".join(quote.split()).startswith(label[:-1])):
            raise Failure("bookmarks: speech: listed as %r, the bookmark quotes %r" % (label, quote))
        for _ in range(3):
            player.send("next")
        player.send("play")
        player.wait_for(lambda e: e["type"] == "utterance" and e["locator"].get("text", {}).get("highlight") != quote, 10, start)
        start = len(player.events)
        point = browser.run("""const box = document.querySelector(arguments[0]).getBoundingClientRect();
            return [box.left + box.width / 2, box.top + box.height / 2];""", selector)
        browser.click_at(*point)
        back = player.wait_for(lambda e: e["type"] == "utterance" and e["locator"].get("text", {}).get("highlight") == quote, 10, start)
        return "bookmark %d listed as %r, a click went back to it" % (made["id"], back["text"][:40])
    finally:
        player.quit()


def lcp_epub(source, lcp_dir, out, passphrase, copy):
    """An LCP EPUB made from `source`: its XHTML documents AES-256-CBC encrypted (listed in encryption.xml), a licence
    whose `rights.copy` is `copy`, signed with the published 2026 TEST provider key (scripts/lcp/make-bench-package.py)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_bench_package", os.path.join(ROOT, "scripts", "lcp", "make-bench-package.py"))
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    content_key = os.urandom(32)
    licence = maker.make_licence(lcp_dir, "raudio-page-copy", passphrase, content_key, {"copy": copy})
    references = []
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(out, "w") as package:
        for info in original.infolist():
            data = original.read(info.filename)
            if info.filename.endswith(".xhtml"):
                data = maker.aes256cbc(content_key, data)
                references.append(info.filename)
            package.writestr(info, data, compress_type=zipfile.ZIP_STORED if info.filename == "mimetype" else zipfile.ZIP_DEFLATED)
        package.writestr("META-INF/license.lcpl", json.dumps(licence))
        entries = "".join(
            '<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>'
            '<ds:KeyInfo><ds:RetrievalMethod URI="license.lcpl#/encryption/content_key" Type="http://readium.org/2014/01/lcp#EncryptedContentKey"/></ds:KeyInfo>'
            '<enc:CipherData><enc:CipherReference URI="%s"/></enc:CipherData></enc:EncryptedData>' % path for path in references)
        package.writestr("META-INF/encryption.xml",
                         '<?xml version="1.0" encoding="UTF-8"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
                         'xmlns:enc="http://www.w3.org/2001/04/xmlenc#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">%s</encryption>' % entries)


def check_copy(browser, raudio, corpus):
    """An LCP EPUB whose licence allows copying 60 characters: a copy out of the page is asked of raudio and counted
    (allowed, 60 - n left), one past what is left is refused whole and the page says why, nothing counted."""
    folder = tempfile.mkdtemp(prefix="raudio-page-copy-")
    try:
        book = os.path.join(folder, "lcp.epub")
        lcp_epub(SAMPLE_EPUB, os.path.join(corpus, "lcp"), book, "copy test", 60)
        with open(os.path.join(folder, "passphrase.txt"), "w") as output:
            output.write("copy test\n")
        player = Player(raudio, ["speak", book, "--passphrase-file", os.path.join(folder, "passphrase.txt"), "--output", "null", "--realtime"],
                        state_dir=os.path.join(folder, "state"))
        try:
            page = Page(browser, player.url)
            page.wait(lambda: len(page.state("sentences") or []) > 0, 15, "copy: no sentence shown")
            page.wait(lambda: (page.state("copyRight") or {}).get("limit") == 60, 10, "copy: the page never learnt the copy right (%r)" % page.state("copyRight"))
            copy = """
                const doc = document.getElementById('content').contentDocument;
                const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
                let node;
                while ((node = walker.nextNode()) && node.data.trim().length < arguments[0]) {}
                if (!node) return null;
                const start = node.data.search(/\\S/);
                const range = doc.createRange();
                range.setStart(node, start);
                range.setEnd(node, start + arguments[0]);
                doc.getSelection().removeAllRanges();
                doc.getSelection().addRange(range);
                const text = doc.getSelection().toString();
                const event = new ClipboardEvent('copy', {bubbles: true, cancelable: true});
                doc.dispatchEvent(event);
                return {text: text, prevented: event.defaultPrevented};"""
            first = browser.run(copy, 25)
            if not first or not first["prevented"]:
                raise Failure("copy: the page let a copy through without asking raudio: %r" % first)
            page.wait(lambda: len(page.state("copies") or []) == 1, 10, "copy: raudio's answer never came")
            answer = page.state("copies")[0]
            if not answer["allowed"] or answer["characters"] != 25 or answer["remaining"] != 35:
                raise Failure("copy: 25 characters of 60: %r" % answer)
            browser.run(copy, 36)
            page.wait(lambda: len(page.state("copies") or []) == 2, 10, "copy: raudio's second answer never came")
            refused = page.state("copies")[1]
            notice = browser.run("return document.getElementById('notice').textContent;")
            if refused["allowed"] or refused["remaining"] != 35 or "35 more characters" not in notice:
                raise Failure("copy: 36 characters with 35 left: %r, the page said %r" % (refused, notice))
        finally:
            player.quit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return "copy: an LCP book allowing 60 characters: 25 copied and counted (35 left), 36 refused whole, the page saying %r" % notice


def check_refusals(raudio):
    player = Player(raudio, ["speak", SAMPLE_EPUB, "--output", "null", "--realtime"])
    try:
        port = player.url.rstrip("/").rsplit(":", 1)[1]
        outcomes = {}
        for name, path, host in (("rebinding", "/", "attacker.example:%s" % port),
                                 ("outside", "/publication/../../etc/passwd", None),
                                 ("unknown", "/publication/EPUB/no-such.xhtml", None),
                                 ("page", "/", None)):
            request = urllib.request.Request("http://127.0.0.1:%s%s" % (port, path))
            if host:
                request.add_header("Host", host)
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    outcomes[name] = response.status
            except urllib.error.HTTPError as error:
                outcomes[name] = error.code
        expected = {"rebinding": 403, "outside": 404, "unknown": 404, "page": 200}
        if outcomes != expected:
            raise Failure("refusals: got %r, expected %r" % (outcomes, expected))
        return "refusals: another Host 403, a path outside the package 404, an unknown resource 404"
    finally:
        player.quit()


def screenshot(browser, raudio, path):
    player = Player(raudio, ["speak", SAMPLE_EPUB, "--output", "null", "--realtime"])
    try:
        browser.call("POST", "/session/%s/window/rect" % browser.session, {"width": 1100, "height": 640})
        page = Page(browser, player.url)
        page.wait(lambda: len(page.state("log") or []) >= 12, 20, "screenshot: no words highlighted")
        player.send("pause")
        time.sleep(0.5)
        image = browser.call("GET", "/session/%s/screenshot" % browser.session)
        with open(path, "wb") as output:
            output.write(base64.b64decode(image))
        return "screenshot: %s" % os.path.relpath(path, ROOT)
    finally:
        player.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--raudio", required=True)
    parser.add_argument("--corpus", default=os.environ.get("RAUDIO_CORPUS", os.path.join(ROOT, "..", "shared", "corpus")))
    parser.add_argument("--only", default="", help="comma-separated check names")
    parser.add_argument("--seconds", type=float, default=20, help="how long each corpus book is followed live")
    parser.add_argument("--screenshot", help="write a screenshot of the page to this PNG file")
    arguments = parser.parse_args()
    if not os.access(arguments.raudio, os.X_OK):
        print("page-test: no raudio at %s" % arguments.raudio, file=sys.stderr)
        return 2
    has_corpus = os.path.isdir(arguments.corpus)
    if not has_corpus:
        if os.environ.get("CI"):
            print("page-test: no corpus at %s (CI is set)" % arguments.corpus, file=sys.stderr)
            return 2
        print("page-test: no corpus at %s: corpus books skipped" % arguments.corpus)
    only = set(filter(None, arguments.only.split(",")))

    checks = [("live", lambda b: check_live(b, arguments.raudio, SAMPLE_EPUB, 100.0, 120, "live, sample"))]
    for name, what in CORPUS_BOOKS if has_corpus else []:
        book = os.path.join(arguments.corpus, name)
        label = "live, %s (%s)" % (os.path.basename(name), what)
        checks.append(("live", lambda b, book=book, label=label: check_live(b, arguments.raudio, book, CORPUS_MINIMUM, arguments.seconds, label)))
    checks.append(("resolve", lambda b: check_resolve(b, arguments.raudio, SAMPLE_EPUB, 100.0, "resolve, sample")))
    for name, what in CORPUS_BOOKS if has_corpus else []:
        book = os.path.join(arguments.corpus, name)
        checks.append(("resolve", lambda b, book=book: check_resolve(b, arguments.raudio, book, CORPUS_MINIMUM, "resolve, %s" % os.path.basename(book))))
    checks += [
        ("click", lambda b: check_click(b, arguments.raudio)),
        ("controls", lambda b: check_controls(b, arguments.raudio)),
        ("reconnect", lambda b: check_reconnect(b, arguments.raudio)),
        ("two-pages", lambda b: check_two_pages(b, arguments.raudio)),
        ("audiobook", lambda b: check_audiobook(b, arguments.raudio)),
        ("voice", lambda b: check_voice(b, arguments.raudio)),
        ("cover", lambda b: check_cover(b, arguments.raudio)),
        ("seek", lambda b: check_seek(b, arguments.raudio)),
        ("volume", lambda b: check_volume(b, arguments.raudio)),
        ("bookmarks", lambda b: check_bookmarks(b, arguments.raudio)),
        ("refusals", lambda b: check_refusals(arguments.raudio)),
        ("documents", lambda b: check_documents(b, arguments.raudio)),
    ]
    if has_corpus:
        checks.append(("narration", lambda b: check_narration(b, arguments.raudio, arguments.corpus)))
        checks.append(("svg", lambda b: check_svg(b, arguments.raudio, arguments.corpus)))
        checks.append(("media", lambda b: check_media(b, arguments.raudio, arguments.corpus)))
        checks.append(("copy", lambda b: check_copy(b, arguments.raudio, arguments.corpus)))
    if arguments.screenshot:
        checks.append(("screenshot", lambda b: screenshot(b, arguments.raudio, os.path.abspath(arguments.screenshot))))

    try:
        browser = Browser()
    except SetupError as error:
        print("page-test: %s" % error, file=sys.stderr)
        return 2
    passed = failed = 0
    try:
        for name, check in checks:
            if only and name not in only:
                continue
            started = time.time()
            try:
                line = check(browser)
                if line is None:
                    continue
                passed += 1
                print("ok    %s [%.1f s]" % (line, time.time() - started), flush=True)
            except (Failure, RuntimeError, subprocess.TimeoutExpired) as error:
                failed += 1
                print("FAIL  %s: %s [%.1f s]" % (name, error, time.time() - started), flush=True)
    finally:
        browser.close()
    print("readalong: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
