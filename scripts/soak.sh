#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make soak` (not in CI): long runs to the null output at full speed, sampling memory and file
# descriptors, and checking they stay flat.
#   1. a generated 10-hour, 100-track audiobook (8 kb/s mono MP3, distinct files and hrefs, made by
#      scripts/bench.sh's generator into build/bench/, reused when present) through `raudio play`;
#   2. whole corpus EPUBs through `raudio speak`: childrens-literature (3 long chapters) and
#      moby-dick-mo (144 chapters, ~9,500 utterances).
# Checks: the median RSS of the last tenth of each run within RAUDIO_SOAK_RSS_SLACK_MB (default 4) of
# the first tenth's (for the book, its first and last hours),
# no fd growth, every track transition reported (play: 100 `track` events), the last position's
# totalProgression == 1 (play). Writes docs/SOAK.md.
#
# Usage: scripts/soak.sh RAUDIO_BINARY
# Environment: RAUDIO_CORPUS, RAUDIO_SOAK_EPUBS (space-separated paths; default: the two corpus books
#   above),
#   RAUDIO_SOAK_OUTPUT (default docs/SOAK.md). Exit 0 when every check passed, 1 otherwise.
set -uo pipefail
# Every run starts where asked, not where an earlier run left the book (no listening state).
export RAUDIO_NO_STATE=1

RAUDIO="${1:?usage: soak.sh RAUDIO_BINARY}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 64
RAUDIO="$(cd "$(dirname "$RAUDIO")" && pwd)/$(basename "$RAUDIO")"
CORPUS="${RAUDIO_CORPUS:-$ROOT/../shared/corpus}"
DEFAULT_EPUBS="$(find "$CORPUS/epub" \( -name childrens-literature.epub -o -name moby-dick-mo.AUDIO-MISSING.epub \) 2>/dev/null | sort | tr '\n' ' ')"
read -r -a EPUBS <<<"${RAUDIO_SOAK_EPUBS:-${DEFAULT_EPUBS:-missing-corpus-books}}"
OUTPUT="${RAUDIO_SOAK_OUTPUT:-$ROOT/docs/SOAK.md}"
SLACK_MB="${RAUDIO_SOAK_RSS_SLACK_MB:-4}"
WORK="$ROOT/build/soak"
mkdir -p "$WORK" "$ROOT/build/bench/logs" || exit 64

# The 10-hour book of `make bench` (scripts/long-book.sh), reused when bench already made it.
BOOK="$ROOT/build/bench/book-10h-100-tracks"
source "$ROOT/scripts/long-book.sh"

# run_sampled NAME COMMAND...: runs COMMAND with stdout to $WORK/NAME.out; samples VmRSS and the fd
# count every 0.1 s into $WORK/NAME.samples ("seconds rss_kB fds"). Prints the exit status.
run_sampled() {
    local name="$1"; shift
    "$@" </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err" &
    local pid=$! start=$(date +%s.%N)
    : >"$WORK/$name.samples"
    while kill -0 "$pid" 2>/dev/null; do
        local rss fds
        rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
        fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
        [[ -n "$rss" ]] && printf '%s %s %s\n' "$(awk -v now="$(date +%s.%N)" -v start="$start" 'BEGIN { printf "%.3f", now - start }')" "$rss" "$fds" >>"$WORK/$name.samples"
        sleep 0.1
    done
    wait "$pid"
    echo $?
}

# analyse NAME KIND: checks and a report row; KIND is play or speak. Prints a markdown section,
# and "FAILED" lines on stderr for each failed check.
analyse() {
    python3 - "$WORK/$1.out" "$WORK/$1.samples" "$2" "$SLACK_MB" "$3" "$4" <<'PY'
import json, sys
out, samples_path, kind, slack, status, label = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
events = []
for line in open(out, encoding="utf-8", errors="replace"):
    try: events.append(json.loads(line))
    except Exception: pass
samples = [tuple(float(x) for x in l.split()) for l in open(samples_path) if l.strip()]
# media time of each sample: the progression of the positions, mapped by wall time isn't available;
# use the fraction of the run instead (at full speed media time is proportional to wall time).
n = len(samples)
# The first hour of ten is the first tenth of the run (media time is proportional to wall time at full
# speed). Each hour's figure is the MEDIAN of its samples: a leak raises the whole hour, while the
# transient peaks of speech (a chapter parsed, the utterances synthesized ahead) come and go within
# minutes and would make a single sample or a maximum depend on which chapter happens to be read.
# The maxima are shown per tenth in the table below, and the peak of the run is reported.
def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else float("nan")
tenth_count = max(1, n // 10)
first = median([s[1] for s in samples[:tenth_count]]) / 1024
last = median([s[1] for s in samples[-tenth_count:]]) / 1024
fds = [int(s[2]) for s in samples]
# fds: the playing track plus the next one opened ahead make the count alternate by one; growth is
# the last tenth's maximum above the maximum of the first half.
fd_first = max(fds[: max(1, n // 2)]) if fds else 0
fd_last = max(fds[-max(1, n // 10):]) if fds else 0
peak = max((s[1] for s in samples), default=0) / 1024
wall = samples[-1][0] if samples else 0
checks = []
checks.append(("exit status 0", status == 0, str(status)))
checks.append((f"RSS last hour within {slack:g} MB of first hour (medians)", abs(last - first) <= slack, f"{first:.1f} MB -> {last:.1f} MB"))
checks.append(("no fd growth (last tenth vs first half, max)", fd_last <= fd_first, f"{fd_first} -> {fd_last}"))
errors = [e for e in events if e.get("type") == "error"]
checks.append(("no error event", not errors, f"{len(errors)}"))
if kind == "play":
    tracks = [e for e in events if e.get("type") == "track"]
    checks.append(("every track reported (100 track events)", len(tracks) == 100, f"{len(tracks)}"))
    hrefs = {e.get("locator", {}).get("href") for e in tracks}
    checks.append(("distinct track hrefs", len(hrefs) == 100, f"{len(hrefs)}"))
    progressions = [e["locator"]["locations"].get("totalProgression") for e in events
                    if e.get("type") in ("position", "state") and "locator" in e and "locations" in e["locator"]]
    final = progressions[-1] if progressions else None
    checks.append(("final totalProgression == 1", final is not None and abs(final - 1) < 1e-9, f"{final}"))
    ended = any(e.get("type") == "state" and e.get("state") == "ended" for e in events)
    checks.append(("reached the end (state ended)", ended, str(ended)))
else:
    utterances = [e for e in events if e.get("type") == "utterance"]
    hrefs = []
    for e in utterances:
        h = e.get("locator", {}).get("href")
        if not hrefs or hrefs[-1] != h: hrefs.append(h)
    checks.append(("utterances spoken", len(utterances) > 0, f"{len(utterances)} in {len(set(hrefs))} resources"))
    ended = any(e.get("type") == "state" and e.get("state") == "ended" for e in events)
    checks.append(("reached the end (state ended)", ended, str(ended)))
print(f"## {label}\n")
print(f"{n} samples over {wall:.0f} s of wall time; peak RSS {peak:.1f} MB.\n")
print("| check | result | figures |\n|---|---|---|")
for name, ok, figure in checks:
    print(f"| {name} | {'pass' if ok else 'FAIL'} | {figure} |")
    if not ok: print(f"soak: FAILED: {label}: {name}: {figure}", file=sys.stderr)
tenth = max(1, n // 10)
print("\nRSS (MB, median and maximum) and open fds (maximum) per tenth of the run (for the book, each tenth is one hour of media):\n")
print("| tenth | " + " | ".join(str(i + 1) for i in range(10)) + " |\n|---" * 1 + "|---" * 10 + "|")
rows_median, rows_rss, rows_fd = [], [], []
for i in range(10):
    part = samples[i * tenth:(i + 1) * tenth] if i < 9 else samples[9 * tenth:]
    rows_median.append(f"{median([s[1] for s in part]) / 1024:.1f}" if part else "-")
    rows_rss.append(f"{max(s[1] for s in part) / 1024:.1f}" if part else "-")
    rows_fd.append(f"{max(int(s[2]) for s in part)}" if part else "-")
print("| RSS median | " + " | ".join(rows_median) + " |")
print("| RSS max | " + " | ".join(rows_rss) + " |")
print("| fds | " + " | ".join(rows_fd) + " |\n")
PY
}

failed=0
report="$WORK/report.md"
{
    printf '# Soak runs\n\nWritten by `make soak` (`scripts/soak.sh`, not part of CI) on %s, release build, ' "$(date -u +%Y-%m-%d)"
    printf 'output `null` at full speed; VmRSS and `/proc/PID/fd` sampled every 0.1 s of wall time.\n\n'
} >"$report"

if make_long_book "$BOOK" "$WORK/make-book.log"; then
    echo "soak: playing the 10-hour book" >&2
    status=$(run_sampled book "$RAUDIO" play "$BOOK/manifest.json" --output null --interval 60)
    analyse book play "$status" "raudio play: 10 hours, 100 tracks (build/bench/book-10h-100-tracks)" >>"$report" || failed=1
else
    printf '## raudio play: 10-hour book\n\nnot run: the book could not be generated (see build/soak/make-book.log)\n\n' >>"$report"
    failed=1
fi

for EPUB in "${EPUBS[@]}"; do
    name="speak-$(basename "$EPUB" .epub)"
    if [[ -f "$EPUB" ]]; then
        echo "soak: speaking $(basename "$EPUB")" >&2
        status=$(run_sampled "$name" "$RAUDIO" speak "$EPUB" --output null --interval 60)
        analyse "$name" speak "$status" "raudio speak: $(basename "$EPUB"), whole book" >>"$report" || failed=1
    else
        printf '## raudio speak\n\nnot run: %s is missing\n\n' "$EPUB" >>"$report"
        failed=1
    fi
done

cp "$report" "$OUTPUT"
grep -q '| FAIL |' "$report" && failed=1
echo "soak: report in ${OUTPUT#"$ROOT"/}" >&2
exit "$failed"
