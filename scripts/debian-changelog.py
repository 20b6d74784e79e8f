#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes CHANGELOG.md as a Debian changelog (debian/changelog format) on stdout, for make-deb.sh.

Each `## VERSION (YYYY-MM-DD)` entry becomes one Debian entry; its paragraph and `- ` items become `*`
items, wrapped at 78 columns, with the Markdown emphasis and code marks removed.

Usage: scripts/debian-changelog.py CHANGELOG.md "Name <email>"
"""
import datetime
import re
import sys
import textwrap


def entries(markdown):
    """Yields (version, date, [item text]) for each `## ` entry, newest first as in the file."""
    current = None
    for line in markdown.splitlines():
        heading = re.match(r"^## (\S+) \((\d{4}-\d{2}-\d{2})\)", line)
        if heading:
            if current:
                yield current
            current = (heading.group(1), heading.group(2), [])
        elif current is not None:
            text = re.sub(r"[*`]", "", line.strip())
            if not text:
                current[2].append("")
            elif text.startswith("- ") or not current[2] or current[2][-1] == "":
                current[2].append(text[2:] if text.startswith("- ") else text)
            else:
                current[2][-1] += " " + text
    if current:
        yield current


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: debian-changelog.py CHANGELOG.md 'Name <email>'")
    with open(sys.argv[1], encoding="utf-8") as file:
        markdown = file.read()
    maintainer = sys.argv[2]
    found = False
    for version, date, items in entries(markdown):
        found = True
        print(f"raudio ({version}) unstable; urgency=medium\n")
        for item in (item for item in items if item):
            print(textwrap.fill(item, width=78, initial_indent="  * ", subsequent_indent="    "))
        when = datetime.datetime.strptime(date, "%Y-%m-%d").replace(tzinfo=datetime.timezone.utc)
        print(f"\n -- {maintainer}  {when.strftime('%a, %d %b %Y %H:%M:%S %z')}\n")
    if not found:
        sys.exit(f"{sys.argv[1]}: no '## VERSION (YYYY-MM-DD)' entry")


if __name__ == "__main__":
    main()
