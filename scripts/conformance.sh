#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make conformance`: runs raudio over every file of the corpus (and any extra directory) and fails on
# a crash (exit by signal), a hang (time limit), an exit code outside the documented set, or a
# non-zero exit without a message on stderr. Writes the table to docs/CONFORMANCE.md, then the W3C EPUB 3.3
# reading-system tests of the corpus as an audio reader takes them (scripts/w3c-conformance.py), which fails on a
# test that fails and is not a known failure.
#
# Usage: scripts/conformance.sh RAUDIO_BINARY [EXTRA_DIRECTORY...]
# Environment:
#   RAUDIO_CORPUS              the shared corpus (default ../shared/corpus beside the project root)
#   RAUDIO_CONFORMANCE_OUTPUT  where to write the table (default docs/CONFORMANCE.md)
#   RAUDIO_CONFORMANCE_JOBS    files run at once (default 2)
#   RAUDIO_CONFORMANCE_LIMIT   seconds allowed per command (default 60)
# Exit: 0 when every run conforms, 1 when one does not, 64 for bad usage.
set -uo pipefail
# Every run starts where asked, not where an earlier run left the book (no listening state).
export RAUDIO_NO_STATE=1

RAUDIO="${1:?usage: conformance.sh RAUDIO_BINARY [EXTRA_DIRECTORY...]}"
shift
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 64
[[ -x "$RAUDIO" ]] || { echo "conformance: $RAUDIO is not an executable" >&2; exit 64; }
RAUDIO="$(cd "$(dirname "$RAUDIO")" && pwd)/$(basename "$RAUDIO")"
CORPUS="${RAUDIO_CORPUS:-$ROOT/../shared/corpus}"
OUTPUT="${RAUDIO_CONFORMANCE_OUTPUT:-$ROOT/docs/CONFORMANCE.md}"
JOBS="${RAUDIO_CONFORMANCE_JOBS:-2}"
LIMIT="${RAUDIO_CONFORMANCE_LIMIT:-60}"
WORK="$ROOT/build/conformance"
DIRECTORIES=()
[[ -d "$CORPUS" ]] && DIRECTORIES+=("$CORPUS")
for extra in "$@"; do
    [[ -d "$extra" ]] || { echo "conformance: $extra is not a directory" >&2; exit 64; }
    DIRECTORIES+=("$extra")
done
[[ ${#DIRECTORIES[@]} -gt 0 ]] || { echo "conformance: no corpus at $CORPUS and no directory given" >&2; exit 64; }
rm -rf "$WORK" && mkdir -p "$WORK/rows" || exit 64

# run_one FILE: every command that applies to FILE; one row file per command in $WORK/rows.
# Each row: file<TAB>command<TAB>outcome<TAB>exit code<TAB>first line of stderr.
run_one() {
    local file="$1" id kind commands=() command status outcome message
    id=$(printf '%s' "$file" | md5sum | cut -c1-12)
    case "${file,,}" in
        *.epub) kind=epub ;;
        *) kind=other ;;
    esac
    commands+=("info")
    if [[ $kind == epub ]]; then
        commands+=("text" "speak")
        # play an EPUB only when it has media overlays or audio in its reading order
        if "$RAUDIO" info "$file" 2>/dev/null | python3 -c '
import json, sys
def links(value):
    if isinstance(value, dict):
        if "href" in value and "type" in value: yield value
        for item in value.values(): yield from links(item)
    elif isinstance(value, list):
        for item in value: yield from links(item)
try:
    manifest = json.load(sys.stdin)
except Exception:
    sys.exit(1)
types = [l.get("type") or "" for l in links(manifest)]
sys.exit(0 if any(t.startswith("audio/") or t == "application/smil+xml" for t in types) else 1)'; then
            commands+=("play")
        fi
    else
        commands+=("play")
    fi
    for command in "${commands[@]}"; do
        local args=("$command" "$file")
        [[ $command == play || $command == speak ]] && args+=(--output null --duration 20)
        timeout --kill-after=5 "$LIMIT" "$RAUDIO" "${args[@]}" </dev/null >/dev/null 2>"$WORK/$id.$command.err"
        status=$?
        message=$(grep -v '^[[:space:]]*$' "$WORK/$id.$command.err" | head -n 1 | cut -c1-160)
        if [[ $status -eq 124 || $status -eq 137 ]]; then
            outcome="FAIL: hang (over ${LIMIT} s)"
        elif [[ $status -gt 128 ]]; then
            outcome="FAIL: crash (signal $((status - 128)))"
        elif [[ ! " 0 64 65 66 69 70 73 74 " == *" $status "* ]]; then
            outcome="FAIL: undocumented exit code"
        elif [[ $status -ne 0 && -z "$message" ]]; then
            outcome="FAIL: no message"
        elif [[ $status -eq 0 ]]; then
            outcome="ok"
        else
            outcome="refused"
        fi
        printf '%s\t%s\t%s\t%s\t%s\n' "$file" "$command" "$outcome" "$status" "$message" >"$WORK/rows/$id.$command"
    done
}
export -f run_one
export RAUDIO WORK LIMIT

start=$(date +%s)
find "${DIRECTORIES[@]}" -type f \
    ! -name '*.md' ! -name '*.txt' ! -name '*.json' ! -path '*/licenses/*' ! -path '*/schema/*' -print0 \
    | sort -z | xargs -0 -n 1 -P "$JOBS" bash -c 'run_one "$1"' _
elapsed=$(( $(date +%s) - start ))

rows=$(cat "$WORK"/rows/* | sort)
files=$(cut -f1 <<<"$rows" | sort -u | wc -l)
runs=$(wc -l <<<"$rows")
failures=$(awk -F'\t' '$3 ~ /^FAIL/' <<<"$rows" | wc -l)
ok=$(awk -F'\t' '$3 == "ok"' <<<"$rows" | wc -l)
refused=$(awk -F'\t' '$3 == "refused"' <<<"$rows" | wc -l)

mkdir -p "$(dirname "$OUTPUT")"
{
    printf '# Corpus conformance\n\n'
    printf 'Written by `make conformance` (`scripts/conformance.sh`): every file of the corpus through `raudio info`, '
    printf '`raudio text` and `raudio speak` (EPUBs) and `raudio play` (audio, and EPUBs with media overlays or audio), '
    printf 'with `--output null --duration 20`, a release build, %s s allowed per run. ' "$LIMIT"
    printf 'A run fails on a signal exit, a time-out, an exit code outside {0, 64, 65, 66, 69, 70, 73, 74}, or a '
    printf 'non-zero exit without a message on stderr; "refused" is a documented non-zero exit with its message.\n\n'
    printf '**%s files, %s runs: %s ok, %s refused, %s failed** (%s s wall time, %s at once).\n\n' \
        "$files" "$runs" "$ok" "$refused" "$failures" "$elapsed" "$JOBS"
    printf '| file | command | outcome | exit | first line of stderr |\n|---|---|---|---|---|\n'
    while IFS=$'\t' read -r file command outcome status message; do
        shown="${file#"$CORPUS"/}"
        message="${message//|/\\|}"
        message="${message//\`/\'}"
        printf '| %s | %s | %s | %s | %s |\n' "$shown" "$command" "$outcome" "$status" "${message:+\`$message\`}"
    done <<<"$rows"
} >"$OUTPUT"

printf 'conformance: %s files, %s runs: %s ok, %s refused, %s failed (%s s); table in %s\n' \
    "$files" "$runs" "$ok" "$refused" "$failures" "$elapsed" "${OUTPUT#"$ROOT"/}" >&2
# The W3C EPUB 3.3 reading-system tests as an audio reader takes them: their own section of the table.
w3c_status=0
if [[ -d "$CORPUS" ]]; then
    python3 "$ROOT/scripts/w3c-conformance.py" "$RAUDIO" "$CORPUS" >>"$OUTPUT" || w3c_status=$?
fi
if [[ $failures -gt 0 ]]; then
    awk -F'\t' '$3 ~ /^FAIL/ { printf "conformance: %s: %s %s (exit %s) %s\n", $3, $2, $1, $4, $5 }' <<<"$rows" >&2
    exit 1
fi
[[ $w3c_status -eq 0 ]] || exit 1
exit 0
