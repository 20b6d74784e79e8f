#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Copies fuzzing seeds for each raudio-fuzz target from the corpus into build/fuzz/seeds/TARGET/.

usage: seeds.py CORPUS_DIR OUT_DIR [EVENTS_MD]

Files are picked by extension; parts of EPUB archives (package, navigation, NCX, XHTML, SMIL) are
extracted too, so every target starts from real documents. Seeds larger than MAX_SEED are skipped:
libFuzzer mutates small inputs faster. Nothing here is committed; the folder is rebuilt every run.
"""
import hashlib
import pathlib
import re
import shutil
import sys
import zipfile

MAX_SEED = 256 * 1024
MAX_PER_TARGET = 400


def main():
    corpus, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    events = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else None
    if out.exists():
        shutil.rmtree(out)
    seeds = {}

    def add(target, data):
        if not data or len(data) > MAX_SEED:
            return
        bucket = seeds.setdefault(target, {})
        if len(bucket) < MAX_PER_TARGET:
            bucket[hashlib.sha1(data).hexdigest()] = data

    def classify_xml(name, data):
        lower = name.lower()
        if lower.endswith(".opf"):
            add("opf", data)
        elif lower.endswith(".ncx"):
            add("ncx", data)
        elif lower.endswith(".smil"):
            add("smil", data)
        elif lower.endswith((".xhtml", ".html", ".htm")):
            add("nav" if b"<nav" in data else "xhtml", data)

    for path in sorted(corpus.rglob("*")):
        if not path.is_file():
            continue
        lower = path.name.lower()
        data = path.read_bytes()
        if lower.endswith(".json"):
            add("locator" if "locator" in str(path).lower() else "manifest", data)
            if b"w3.org/ns/pub-context" in data or b"w3.org/ns/wp-context" in data:
                add("w3c", data)
        elif lower.endswith((".m4a", ".m4b", ".opus", ".flac", ".mp3", ".ogg", ".aax")):
            add("audiotags", data)
        elif lower.endswith((".epub", ".zip", ".zab", ".lcpa")):
            add("zip", data)
            try:
                with zipfile.ZipFile(path) as archive:
                    for info in archive.infolist():
                        if info.file_size <= MAX_SEED:
                            classify_xml(info.filename, archive.read(info))
                        if info.filename.endswith("manifest.json"):
                            add("manifest", archive.read(info))
                        if info.filename == "publication.json":
                            add("w3c", archive.read(info))
            except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError):
                pass
        else:
            classify_xml(lower, data)

    # Commands: the words and JSON forms documented in docs/events.md, and `go` with corpus locators.
    if events and events.exists():
        for text in re.findall(r"`([^`\n]+)`", events.read_text()):
            add("command", text.encode())
    for data in list(seeds.get("locator", {}).values())[:20]:
        add("command", b"go " + b" ".join(data.split()))
        add("command", b'{"command":"go","id":1,"locator":' + b" ".join(data.split()) + b"}")

    # The IPC server's connections: an upgrade request (accepted, refused, malformed), plain GETs, and
    # client frames, masked and not, fragmented, pings, closes.
    def frame(opcode, payload, fin=True, masked=True, rsv=0):
        head = bytes([(0x80 if fin else 0) | rsv << 4 | opcode])
        mask = b"\x12\x34\x56\x78"
        size = len(payload)
        length = bytes([size]) if size < 126 else bytes([126]) + size.to_bytes(2, "big")
        if not masked:
            return head + length + payload
        return head + bytes([length[0] | 0x80]) + length[1:] + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    frames = [frame(1, b'{"command":"status","id":1}'), frame(1, b'{"command":"sta', fin=False) + frame(0, b'tus"}'),
              frame(9, b"ping") + frame(8, b"\x03\xe8bye"), frame(1, b"pause", masked=False), frame(3, b"x"),
              frame(1, b"\xc3\x28"), frame(8, b"\x00\x05"), frame(2, b"\x00\x01"), frame(1, b"x" * 300, rsv=4)]
    for data in frames:
        add("websocket", data)
    upgrade = (b"GET /ws?token=fuzz-token HTTP/1.1\r\nHost: 127.0.0.1:9\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")
    add("http", upgrade + b"\r\n" + frames[0] + frames[2])
    add("http", upgrade + b"Origin: http://evil.example\r\n\r\n")
    add("http", upgrade.replace(b"dGhlIHNhbXBsZSBub25jZQ==", b"x") + b"\r\n")
    add("http", b"GET /publication/text/chapter%201.xhtml HTTP/1.1\r\nHost: localhost:9\r\nRange: bytes=0-99\r\nSec-Fetch-Site: cross-site\r\n\r\n")
    add("http", b"bytes=-500")

    for target, bucket in sorted(seeds.items()):
        folder = out / target
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in bucket.items():
            (folder / name).write_bytes(data)
        print(f"{target}: {len(bucket)} seeds")


if __name__ == "__main__":
    main()
