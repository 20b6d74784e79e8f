#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make locators`: resolves every locator raudio emits for the corpus EPUBs and the sample EPUB in headless
# Chromium, as a visual navigator would (scripts/locators/browser-check.py), and writes the figures as the
# section "## Locators in a browser" of docs/CONFORMANCE.md (replacing it; the rest is make conformance's).
#
# Usage: scripts/locators/run.sh RAUDIO_BINARY
# Environment:
#   RAUDIO_CORPUS           the shared corpus (default ../shared/corpus beside the project root)
#   RAUDIO_LOCATORS_OUTPUT  the file whose section to write (default docs/CONFORMANCE.md)
# Exit: that of browser-check.py (0 all pass, 1 a book under its threshold, 2 set-up error).
set -euo pipefail
# Every run starts where asked, not where an earlier run left the book (no listening state).
export RAUDIO_NO_STATE=1
RAUDIO="${1:?usage: run.sh RAUDIO_BINARY}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
CORPUS="${RAUDIO_CORPUS:-$ROOT/../shared/corpus}"
OUTPUT="${RAUDIO_LOCATORS_OUTPUT:-$ROOT/docs/CONFORMANCE.md}"
SECTION="$ROOT/build/locators/section.md"
mkdir -p "$(dirname "$SECTION")"

books=(samples/lighthouse.epub)
if [[ -d "$CORPUS" ]]; then
    while IFS= read -r book; do books+=("$book"); done < <(find "$CORPUS" -name '*.epub' | LC_ALL=C sort)
fi
# The event streams too: speech on the sample and two corpus books (English with inline markup, Arabic),
# narration on the media-overlay books that raudio can play (audio present, or spoken where it is missing).
speak=(samples/lighthouse.epub)
narrate=()
for name in epub/idpf-epub3-samples/wasteland.epub epub/idpf-epub3-samples/regime-anticancer-arabic.epub; do
    [[ -f "$CORPUS/$name" ]] && speak+=("$CORPUS/$name")
done
for name in epub/w3c-epub-tests/mol-audio.epub epub/daisy/epub30-test-0320-media-overlays.PARTIAL-AUDIO.epub \
            epub/w3c-epub-tests/mol-navigation.epub epub/w3c-epub-tests/mol-tts_single.epub \
            epub/epubcheck-edge/mediaoverlays-minimal-valid.epub; do
    [[ -f "$CORPUS/$name" ]] && narrate+=("$CORPUS/$name")
done
# Books raudio render wrote (EPUB 3 with Media Overlays, word by word): every SMIL text reference, as
# `raudio play` reports it, resolved like any other narration, and the highlight of each shown in its page.
RENDERED="$ROOT/build/locators/rendered"
highlight=()
rm -rf "$RENDERED" && mkdir -p "$RENDERED"
for source in samples/lighthouse.epub "$CORPUS/epub/idpf-epub3-samples/hefty-water.epub" \
              "$CORPUS/epub/w3c-epub-tests/pkg-spine-order-svg.epub"; do
    [[ -f "$source" ]] || continue
    out="$RENDERED/rendered-$(basename "$source")"
    if "$RAUDIO" render "$source" --granularity word --to epub3 "$out" --cache "$RENDERED/cache" >/dev/null 2>"$RENDERED/render.err"; then
        narrate+=("$out")
        highlight+=("$out")
    else
        echo "locators: raudio render $source failed: $(tail -1 "$RENDERED/render.err")" >&2
        exit 1
    fi
done
arguments=(--raudio "$RAUDIO" --markdown "$SECTION" --self-test)
for book in "${speak[@]}"; do arguments+=(--speak "$book"); done
for book in "${narrate[@]}"; do arguments+=(--narrate "$book"); done
for book in "${highlight[@]}"; do arguments+=(--highlight "$book"); done
status=0
python3 scripts/locators/browser-check.py "${arguments[@]}" "${books[@]}" || status=$?
if [[ -s "$SECTION" ]]; then
    # Replace the section (from its heading to the next "## " heading or the end), or append it.
    python3 - "$OUTPUT" "$SECTION" <<'PYTHON'
import os, sys
output, section = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
lines = open(output, encoding="utf-8").read().split("\n") if os.path.exists(output) else []
heading = "## Locators in a browser"
if heading in lines:
    start = lines.index(heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    lines = lines[:start] + lines[end:]
text = "\n".join(lines).rstrip("\n")
with open(output, "w", encoding="utf-8") as handle:
    handle.write((text + "\n\n" if text else "") + section)
PYTHON
fi
exit "$status"
