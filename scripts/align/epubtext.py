# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading EPUBs for the alignment evaluation: package paths, spine, SMIL clips, and text offsets.

A sentence is named by where its text starts in its document (the document's text with every run of white space
made one space), not by an id: `raudio render` and `raudio align` wrap sentences in spans of their own, and a
publisher's SMIL points at ids of the publisher's, but the text of a page is the same character for character in
all of them, so the offset of a sentence's first character names it in each.
"""

import posixpath
import re
import xml.etree.ElementTree as ET
import zipfile

XHTML = "http://www.w3.org/1999/xhtml"
OPS = "http://www.idpf.org/2007/ops"
OPF = "http://www.idpf.org/2007/opf"
SMIL = "http://www.w3.org/ns/SMIL"
CONTAINER = "urn:oasis:names:tc:opendocument:xmlns:container"

NOTE_TYPES = {"footnote", "endnote", "rearnote", "note", "footnotes", "endnotes", "rearnotes"}


def clock_seconds(value):
    """Seconds of a SMIL clock value (`0:00:29.268`, `00:29.268`, `29.268s`, `1.5h`, `120ms`)."""
    value = value.strip()
    match = re.fullmatch(r"([0-9.]+)(h|min|s|ms)?", value)
    if match:
        number = float(match.group(1))
        return number * {"h": 3600, "min": 60, "s": 1, "ms": 0.001, None: 1}[match.group(2)]
    parts = [float(part) for part in value.split(":")]
    seconds = 0.0
    for part in parts:
        seconds = seconds * 60 + part
    return seconds


class Package:
    """An EPUB's package document: its folder inside the ZIP, manifest, spine, and the Media Overlays it lists."""

    def __init__(self, path):
        self.path = path
        self.zip = zipfile.ZipFile(path)
        container = ET.fromstring(self.zip.read("META-INF/container.xml"))
        rootfile = container.find(f".//{{{CONTAINER}}}rootfile")
        self.opf_path = rootfile.get("full-path")
        self.base = posixpath.dirname(self.opf_path)
        opf = ET.fromstring(self.zip.read(self.opf_path))
        self.manifest = {}
        for item in opf.find(f"{{{OPF}}}manifest"):
            self.manifest[item.get("id")] = {
                "href": self.resolve(self.base, item.get("href")),
                "media_type": item.get("media-type"),
                "media_overlay": item.get("media-overlay"),
            }
        self.spine = [self.manifest[ref.get("idref")]["href"] for ref in opf.find(f"{{{OPF}}}spine")
                      if ref.get("idref") in self.manifest]
        self.language = None
        language = opf.find(f".//{{http://purl.org/dc/elements/1.1/}}language")
        if language is not None:
            self.language = language.text.strip()
        self._texts = {}

    @staticmethod
    def resolve(base, href):
        href = href.split("#", 1)[0]
        return posixpath.normpath(posixpath.join(base, href)) if base else posixpath.normpath(href)

    def overlays(self):
        """The SMIL of each spine document, in spine order: (document path, SMIL path)."""
        by_href = {item["href"]: item for item in self.manifest.values()}
        result = []
        for href in self.spine:
            overlay = by_href[href]["media_overlay"]
            if overlay and overlay in self.manifest:
                result.append((href, self.manifest[overlay]["href"]))
        return result

    def clips(self, smil_path):
        """Every `par` of a SMIL in document order: (document path, fragment, audio path, clipBegin, clipEnd)."""
        root = ET.fromstring(self.zip.read(smil_path))
        folder = posixpath.dirname(smil_path)
        result = []
        for par in root.iter(f"{{{SMIL}}}par"):
            text = par.find(f"{{{SMIL}}}text")
            audio = par.find(f"{{{SMIL}}}audio")
            if text is None or audio is None:
                continue
            src = text.get("src")
            document, _, fragment = src.partition("#")
            begin = clock_seconds(audio.get("clipBegin", "0"))
            end = audio.get("clipEnd")
            result.append((self.resolve(folder, document), fragment, self.resolve(folder, audio.get("src")),
                           begin, clock_seconds(end) if end else None))
        return result

    def text(self, document):
        """The document's DocumentText (cached)."""
        if document not in self._texts:
            self._texts[document] = DocumentText(self.zip.read(document))
        return self._texts[document]


class DocumentText:
    """A content document's body text with white space collapsed, the offset where each id's text starts, and the
    extent of each note (`epub:type` footnote, endnote, rearnote...)."""

    def __init__(self, data):
        root = ET.fromstring(data)
        body = root.find(f"{{{XHTML}}}body")
        if body is None:
            body = root
        self.chunks = []
        self.length = 0
        self.pending_space = False
        self.starts = {}
        self.ends = {}
        self.notes = []
        self._walk(body)
        self.string = "".join(self.chunks)

    def _append(self, text):
        if not text:
            return
        for index, piece in enumerate(re.split(r"\s+", text)):
            if index > 0:
                self.pending_space = True
            if piece:
                if self.pending_space and self.length > 0:
                    self.chunks.append(" ")
                    self.length += 1
                self.pending_space = False
                self.chunks.append(piece)
                self.length += len(piece)

    def _position(self):
        """The offset of the next character (a pending space belongs before it)."""
        return self.length + (1 if self.pending_space and self.length > 0 else 0)

    def _walk(self, element):
        identifier = element.get("id")
        start = self._position()
        types = set((element.get(f"{{{OPS}}}type") or "").split())
        self._append(element.text)
        for child in element:
            self._walk(child)
            self._append(child.tail)
        if identifier is not None:
            self.starts[identifier] = start
            self.ends[identifier] = self.length
        if types & NOTE_TYPES:
            self.notes.append((start, self.length))

    def span(self, identifier):
        """(start, end) of the text of the element with this id, or None."""
        if identifier not in self.starts:
            return None
        return self.starts[identifier], self.ends[identifier]
