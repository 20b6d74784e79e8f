#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make align-check: make the evaluation set (scripts/align/make-align-set.py, cached under build/align-set), align
# every book and variant of it with `raudio align BOOK.epub AUDIO... --to epub3 OUT.epub`, score each against its
# truth (scripts/align/score.py) and write the table to build/align-check.md; then EPUBCheck and the SMIL text
# references of each book's base output (scripts/align/output-check.py), appended to it.
# Usage: align-check.sh RAUDIO [ci|full]
set -euo pipefail

raudio=$(realpath "$1")
subset=${2:-full}
corpus=${RAUDIO_CORPUS:-../shared/corpus}
here=$(cd "$(dirname "$0")" && pwd)
set_folder=build/align-set/$subset
aligned=build/align-check/$subset

python3 "$here/make-align-set.py" --raudio "$raudio" --subset "$subset" --out build/align-set --corpus "$corpus"
rm -rf "$aligned"
mkdir -p "$aligned"

python3 - "$set_folder/index.json" <<'EOF' > "$aligned/jobs"
import json, sys
for book in json.load(open(sys.argv[1]))["books"]:
    for variant in book["variants"]:
        print(book["name"], variant)
EOF

while read -r book variant; do
    mkdir -p "$aligned/$book"
    audio=()
    while IFS= read -r file; do audio+=("$set_folder/$book/$variant/audio/$file"); done < <(
        python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["audio"]))' \
            "$set_folder/$book/$variant/truth.json")
    out="$aligned/$book/$variant.epub"
    start=$(date +%s%N)
    if "$raudio" align "$set_folder/$book/book.epub" "${audio[@]}" --to epub3 "$out" --alignment "$aligned/$book/$variant.alignment.json" \
        > "$aligned/$book/$variant.events" 2> "$aligned/$book/$variant.stderr" < /dev/null; then
        echo "$book $variant: aligned in $(( ($(date +%s%N) - start) / 1000000 )) ms"
    else
        status=$?
        { echo "raudio align exited with status $status:"; tail -c 400 "$aligned/$book/$variant.stderr"; } \
            > "$aligned/$book/$variant.failed"
        echo "$book $variant: raudio align failed (status $status), see $aligned/$book/$variant.stderr"
    fi
done < "$aligned/jobs"

python3 "$here/score.py" --set "$set_folder" --aligned "$aligned" --markdown build/align-check.md \
    --json build/align-check.json
# The base variant of each book under EPUBCheck and the browser's resolution of its SMIL text references
# (scripts/align/output-check.py), appended to the table.
pairs=()
while read -r book variant; do
    [[ "$variant" == base && -f "$aligned/$book/base.epub" ]] && pairs+=("$set_folder/$book/book.epub:$aligned/$book/base.epub")
done < "$aligned/jobs"
if ((${#pairs[@]})); then
    status=0
    python3 "$here/output-check.py" "$raudio" --markdown build/align-output-check.md "${pairs[@]}" || status=$?
    if [[ -f build/align-output-check.md ]]; then
        { echo; cat build/align-output-check.md; } >> build/align-check.md
    fi
    ((status == 2)) && echo "align-check: the output checks could not run (EPUBCheck, chromium or chromedriver missing)"
fi
echo "align-check: the table is in build/align-check.md"
