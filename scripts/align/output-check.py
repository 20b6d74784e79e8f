#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The output of `raudio align` under the checks of issue 47's "Valid and exact": EPUBCheck (no message on the
aligned EPUB that the input book did not have, compared by message ID and file, as scripts/render-epubcheck.py does)
and every SMIL text reference resolved in a browser as `raudio play` reports it (scripts/locators/browser-check.py
--narrate, at least 99.5 % exact).

Usage: output-check.py RAUDIO --markdown OUT.md BOOK.epub:ALIGNED.epub...
Exit: 0 when every pair passes both, 1 when one does not, 2 when a checker is missing.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
render_epubcheck = __import__("render-epubcheck")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("raudio")
    parser.add_argument("pairs", nargs="+", metavar="BOOK.epub:ALIGNED.epub")
    parser.add_argument("--markdown", required=True)
    parser.add_argument("--min", type=float, default=99.5)
    arguments = parser.parse_args()
    jar = render_epubcheck.epubcheck_jar()
    if not jar:
        print("output-check: no EPUBCheck (run make deps: .venv-epubcheck and Java)", file=sys.stderr)
        return 2
    pairs = [pair.rsplit(":", 1) for pair in arguments.pairs]
    # Each output under a name of its own (make align-check names them VARIANT.epub in a folder per book).
    names = [os.path.basename(os.path.dirname(os.path.abspath(aligned))) + "-" + os.path.basename(aligned) for _, aligned in pairs]
    lines = ["### EPUBCheck and the SMIL text references of align's output", "",
             "| book | aligned EPUB | EPUBCheck: the input's messages | new on the output | SMIL text references resolved |",
             "|---|---|---|---|---|"]
    failed = False
    with tempfile.TemporaryDirectory(prefix="raudio-align-output-check-") as work:
        copies = [os.path.join(work, name) for name in names]
        for (_, aligned), copy in zip(pairs, copies):
            shutil.copyfile(aligned, copy)
        markdown = os.path.join(work, "locators.md")
        check = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/locators/browser-check.py"), "--raudio",
                                os.path.abspath(arguments.raudio), "--min", str(arguments.min), "--markdown", markdown]
                               + [argument for copy in copies for argument in ("--narrate", copy)],
                               capture_output=True, text=True, env=dict(os.environ, RAUDIO_NO_STATE="1"))
        print(check.stdout, end="")
        if check.returncode == 2:
            print("output-check: browser-check could not run: " + check.stderr.strip()[-400:], file=sys.stderr)
            return 2
        failed |= check.returncode != 0
        # browser-check's lines: "BOOK (play): N locators, M exact (P %) ..." per book.
        resolved = {}
        for line in check.stdout.splitlines():
            match = re.match(r"(?:ok|FAIL) +(\S+) \(play\): (.*)", line.strip())
            if match:
                resolved[match.group(1)] = match.group(2)
        for (book, aligned), name in zip(pairs, names):
            before = render_epubcheck.epubcheck(jar, book, work)
            after = render_epubcheck.epubcheck(jar, aligned, work)
            known = {(message_id, path) for _, message_id, path, _ in before}
            new = [message for message in after if (message[1], message[2]) not in known]
            failed |= bool(new)
            lines.append(f"| {os.path.basename(os.path.dirname(book)) or book} | {os.path.relpath(aligned)} | "
                         f"{render_epubcheck.summary(before)} | {render_epubcheck.summary(new)} | "
                         f"{resolved.get(name, 'see below')} |")
            for severity, message_id, path, text in new:
                print(f"output-check: {aligned}: new {severity} {message_id} in {path}: {text}", file=sys.stderr)
        lines.append("")
        if os.path.exists(markdown):
            lines += ["The browser check (scripts/locators/browser-check.py --narrate), its table:", ""]
            lines += [line for line in open(markdown, encoding="utf-8").read().splitlines() if line.startswith("|")]
    with open(arguments.markdown, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    print(f"output-check: {'FAILED' if failed else 'passed'}; the table is in {arguments.markdown}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
