#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes scripts/raudio-symbol-order.txt: the functions of raudio's own binary that playing a book runs, in
# the order callgrind first meets them, for lld's --symbol-ordering-file (Package.swift). lld lays those
# functions out first and together in .text, so a process playing a book touches a few megabytes of
# contiguous code instead of pages scattered over the 22 MB of the statically linked Swift runtime,
# Foundation and raudio: the resident text is smaller (issue 13: peak RSS on the 10-hour M4B).
#
# The order is only a layout hint: a function missing from it (new code, a renamed symbol) is linked after
# the listed ones, as before; a listed name the binary lacks is ignored. Run it again after large changes
# to the playback path (the listed functions drifting away from what runs shows as a larger peak RSS in
# `make bench`).
#
# Usage: scripts/make-symbol-order.sh RAUDIO M4B MP3_MANIFEST
#   RAUDIO        a release build of raudio (make release; its debug information is stripped into a copy)
#   M4B           an AAC book in MP4 (the bench's build/bench/book-10h-100-chapters-nopns.m4b)
#   MP3_MANIFEST  a Readium audiobook of MP3 tracks (the bench's build/bench/book-10h-100-tracks/manifest.json)
# Needs valgrind (make deps). Each book plays 5 s to null under callgrind (about a minute each).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $# -ne 3 ]]; then
    echo "usage: $0 RAUDIO M4B MP3_MANIFEST" >&2
    exit 64
fi
raudio="$1" m4b="$2" mp3="$3"
for input in "$raudio" "$m4b" "$mp3"; do
    [[ -f "$input" ]] || { echo "$0: no such file: $input" >&2; exit 66; }
done
command -v valgrind >/dev/null || { echo "$0: valgrind is missing (make deps)" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF 5 of Swift 6.3's binaries: profile a copy without it (same symbols).
objcopy --strip-debug "$raudio" "$work/raudio"
for book in "$m4b" "$mp3"; do
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.$(basename "$book").out" \
        "$work/raudio" play "$book" --output null --duration 5 >/dev/null 2>"$work/valgrind.log" \
        || { tail -5 "$work/valgrind.log" >&2; exit 1; }
done

output=scripts/raudio-symbol-order.txt
{
    echo "# SPDX-License-Identifier: GPL-3.0-or-later"
    echo "# Made by scripts/make-symbol-order.sh (callgrind of \`raudio play\` on an M4B and an MP3 book): the"
    echo "# functions playback runs, laid out first in raudio's .text by lld (--symbol-ordering-file, Package.swift)."
    python3 - "$work/raudio" "$work"/callgrind.*.out <<'PYTHON'
import re, sys
# callgrind names each object (ob=, cob=) and function (fn=, cfn=) in full once, then by "(id)".
binary, seen, listed = sys.argv[1], set(), []
for path in sys.argv[2:]:
    objects, functions, current, called = {}, {}, None, None
    for line in open(path, errors="replace"):
        match = re.match(r"^(ob|cob|fn|cfn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not match:
            continue
        kind, ident, name = match.groups()
        table = objects if kind in ("ob", "cob") else functions
        if name is not None:
            table[ident] = name
        if kind == "ob":
            current, called = objects.get(ident), None
        elif kind == "cob":
            called = objects.get(ident)
        else:
            owner = current if kind == "fn" or called is None else called
            function = functions.get(ident)
            if owner == binary and function and function not in seen:
                seen.add(function)
                listed.append(function)
            if kind == "cfn":
                called = None
print("\n".join(listed))
PYTHON
} >"$output.tmp"
mv "$output.tmp" "$output"
echo "$output: $(grep -vc '^#' "$output") functions"
