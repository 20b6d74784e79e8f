# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by scripts/bench.sh: the formats FFmpeg decodes (issue 13). Uses bench.sh's helpers (row,
# not_measured, hyperfine_pair, stats, calc, json_get, quote, shown, make_speech_source, loop_raw).

# FFmpeg's AAC encoder runs without perceptual noise substitution (-aac_pns 0), as encoders of real
# audiobooks do: PNS noise is drawn from a generator the decoder keeps running, so a seek could not be
# bit-exact with it (see FFmpegDecoderTests).
AAC_60="$WORK/speech-60min-aac96k-nopns.m4a"
OPUS_60="$WORK/speech-60min-opus48k.opus"
FLAC_20="$WORK/speech-20min.flac"
M4B_10H="$WORK/book-10h-100-chapters-nopns.m4b"

# make_with_ffmpeg OUTPUT SECONDS ARGUMENTS...: looped speech of SECONDS encoded by ffmpeg into OUTPUT.
make_with_ffmpeg() {
    local output="$1" seconds="$2" source
    shift 2
    [[ -s "$output" ]] && return 0
    source=$(make_speech_source) || return 1
    say "generating $(shown "$output") (once)"
    loop_raw "$source" "$seconds" \
        | ffmpeg -v error -nostdin -y -f s16le -ar 44100 -ac 2 -i - "$@" "$output.tmp.${output##*.}" \
        2>"$LOGS/make-$(basename "$output").log" || return 1
    mv "$output.tmp.${output##*.}" "$output"
}

# make_long_m4b: a 10-hour M4B of 100 six-minute chapters: one 6-minute AAC part, copied 100 times
# by ffmpeg's concat demuxer without re-encoding, with a chapter list.
make_long_m4b() {
    [[ -s "$M4B_10H" ]] && return 0
    local part="$WORK/speech-6min-aac32k-mono-nopns.m4a" list="$WORK/m4b-parts.txt" chapters="$WORK/m4b-chapters.txt" index
    make_with_ffmpeg "$part" 360 -ac 1 -c:a aac -aac_pns 0 -b:a 32k || return 1
    : >"$list"
    printf ';FFMETADATA1\ntitle=raudio benchmark: ten hours\nartist=raudio\n' >"$chapters"
    for index in $(seq 0 99); do
        printf "file '%s'\n" "$part" >>"$list"
        printf '[CHAPTER]\nTIMEBASE=1/1000\nSTART=%d\nEND=%d\ntitle=Chapter %d\n' $((index * 360000)) $(((index + 1) * 360000)) $((index + 1)) >>"$chapters"
    done
    say "generating $(shown "$M4B_10H") (once)"
    ffmpeg -v error -nostdin -y -f concat -safe 0 -i "$list" -i "$chapters" -map 0:a -map_metadata 1 -map_chapters 1 \
        -c copy -f ipod "$M4B_10H.tmp" 2>"$LOGS/make-m4b.log" || return 1
    mv "$M4B_10H.tmp" "$M4B_10H"
}

# bench_format_throughput FIGURE INPUT REFERENCE_NAME TARGET_RATIO REFERENCE_COMMAND...
bench_format_throughput() {
    local figure="$1" input="$2" reference="$3" minimum="$4"
    shift 4
    local target="≥ ${minimum}x $reference's speed"
    local ours theirs shown_command values
    ours="$(quote "$RAUDIO" play "$input" --output null)"
    theirs="$(quote "$@")"
    shown_command="hyperfine -N -w 1 -r $RUNS '$(quote "$(shown "$RAUDIO")" play "$(shown "$input")" --output null)' '$(quote "${@:1:$#-1}") $(shown "${@: -1}")'"
    if ! values=$(hyperfine_pair "format-$reference" "$ours" "$theirs"); then
        not_measured "$figure" "$target" "hyperfine failed, see $(shown "$LOGS")/format-$reference.hyperfine.log" "$shown_command"
        return 0
    fi
    local our_median our_low our_high their_median their_low their_high ratio
    read -r our_median our_low our_high their_median their_low their_high <<<"$values"
    ratio=$(calc "$their_median / $our_median")
    row "$figure" "$target" \
        "raudio $(calc "$our_median") s ($(calc "$our_low")-$(calc "$our_high")), $reference $(calc "$their_median") s ($(calc "$their_low")-$(calc "$their_high")), $RUNS runs" \
        "${ratio}x: $(at_least "$ratio" "$minimum")" "$shown_command"
}

bench_formats() {
    section_begin "Formats through FFmpeg (issue 13)" \
        "Inputs generated into \`build/bench/\` by ffmpeg from the same looped espeak-ng speech as the MP3 and Ogg inputs (AAC without PNS, as audiobook encoders make it): 60 minutes of AAC-LC 96 kb/s in M4A, 60 minutes of Opus 48 kb/s, 20 minutes of FLAC (44.1 kHz stereo); a 10-hour M4B of 100 six-minute chapters (AAC-LC 32 kb/s mono, one part copied 100 times). Reference decoders run in the same hyperfine invocation, writing to /dev/null; ratios are reference time / raudio time (higher is faster)."
    local missing
    missing=$(missing_tools ffmpeg hyperfine opusdec flac espeak-ng sox soxi)
    local aac_figure="decode-to-null throughput, 60-min AAC M4A vs ffmpeg -f null" opus_figure="decode-to-null throughput, 60-min Opus vs opusdec"
    local flac_figure="decode-to-null throughput, 20-min FLAC vs flac -d"
    local seek_figure="seek latency in a 10-hour, 100-chapter M4B once opened (seek + first 4096-frame read, 200 random frames), sample-exact"
    local first_figure="process start to first buffer handed to the output, 10-hour 100-chapter M4B (AudioNavigator, null output)"
    local rss_figure="peak RSS playing the 10-hour M4B to null"
    if [[ -n "$missing" ]]; then
        local figure
        for figure in "$aac_figure" "$opus_figure" "$flac_figure" "$seek_figure" "$first_figure" "$rss_figure"; do
            not_measured "$figure" "see the issue" "missing tools: $missing (make deps)"
        done
        return 0
    fi
    if make_with_ffmpeg "$AAC_60" 3600 -c:a aac -aac_pns 0 -b:a 96k; then
        bench_format_throughput "$aac_figure" "$AAC_60" ffmpeg 1.0 ffmpeg -v error -nostdin -i "$AAC_60" -f null -
    else
        not_measured "$aac_figure" "≥ 1.0x ffmpeg's speed" "could not make the input, see $(shown "$LOGS")"
    fi
    if make_with_ffmpeg "$OPUS_60" 3600 -c:a libopus -b:a 48k; then
        bench_format_throughput "$opus_figure" "$OPUS_60" opusdec 1.0 opusdec --quiet "$OPUS_60" /dev/null
    else
        not_measured "$opus_figure" "≥ 1.0x opusdec's speed" "could not make the input, see $(shown "$LOGS")"
    fi
    if make_with_ffmpeg "$FLAC_20" 1200 -c:a flac; then
        bench_format_throughput "$flac_figure" "$FLAC_20" flac 0.9 flac -d -s -f -o /dev/null "$FLAC_20"
    else
        not_measured "$flac_figure" "≥ 0.9x flac's speed" "could not make the input, see $(shown "$LOGS")"
    fi
    if ! make_long_m4b; then
        not_measured "$seek_figure" "median ≤ 2 ms, sample-exact" "could not make the M4B, see $(shown "$LOGS")/make-m4b.log"
        return 0
    fi
    bench_m4b_seek "$seek_figure"
    bench_m4b_first_buffer "$first_figure"
    bench_m4b_rss "$rss_figure"
}

bench_m4b_seek() {
    local figure="$1" target="median ≤ 2 ms, sample-exact"
    local command="$(quote "$(shown "$BENCH")" seek-latency "$(shown "$M4B_10H")" --repeat 200)"
    local file="$LOGS/seek-m4b.json"
    if ! "$BENCH" seek-latency "$M4B_10H" --repeat 200 >"$file" 2>"$LOGS/seek-m4b.err"; then
        not_measured "$figure" "$target" "raudio-bench seek-latency failed: $(tail -1 "$LOGS/seek-m4b.err")" "$command"
        return 0
    fi
    local median exact verdict
    median=$(json_get "$file" ms.median)
    exact=$(json_get "$file" sampleExact)
    verdict=$(awk -v m="$median" -v e="$exact" 'BEGIN { print (m <= 2 && e == "true") ? "met" : "not met" }')
    row "$figure" "$target" \
        "$(calc "$median") ms ($(calc "$(json_get "$file" ms.min)")-$(calc "$(json_get "$file" ms.max)") ms); exact at $(( $(json_get "$file" exactChecked) - $(json_get "$file" exactMismatches) ))/$(json_get "$file" exactChecked) checked frames; opening took $(calc "$(json_get "$file" openMs)") ms" \
        "$(of_target "$median" 2): $verdict" "$command"
}

bench_m4b_first_buffer() {
    local figure="$1" target="≤ 50 ms" runs="${RAUDIO_BENCH_FIRST_RUNS:-20}"
    local command="$(quote "$(shown "$BENCH")" first-buffer "$(shown "$M4B_10H")") (x $runs fresh processes)"
    local run values=() file
    for run in $(seq 1 "$runs"); do
        file="$LOGS/first-buffer-m4b-$run.json"
        if ! "$BENCH" first-buffer "$M4B_10H" >"$file" 2>"$LOGS/first-buffer-m4b.err"; then
            not_measured "$figure" "$target" "raudio-bench first-buffer failed: $(tail -1 "$LOGS/first-buffer-m4b.err")" "$command"
            return 0
        fi
        values+=("$(json_get "$file" ms)")
    done
    local median low high
    read -r median low high < <(stats "${values[@]}")
    row "$figure" "$target" \
        "$(calc "$median") ms ($(calc "$low")-$(calc "$high") ms, $runs processes; last run: main $(calc "$(json_get "$file" mainMs)") ms, open (tags, 100 chapters) $(calc "$(json_get "$file" openMs)") ms, navigator $(calc "$(json_get "$file" navigatorMs)") ms, play() to first buffer $(calc "$(json_get "$file" playToFirstBufferMs)") ms)" \
        "$(of_target "$median" 50): $(at_most "$median" 50)" "$command"
}

bench_m4b_rss() {
    local figure="$1" target="≤ 40 MB, no growth from hour 1 to the end"
    local command="$(quote /usr/bin/time -v "$(shown "$RAUDIO")" play "$(shown "$M4B_10H")" --output null) vs the same with --duration 3600"
    if ! "$TIME" -v -o "$LOGS/m4b-1h.time" "$RAUDIO" play "$M4B_10H" --output null --duration 3600 >/dev/null 2>"$LOGS/m4b-1h.err" </dev/null \
        || ! "$TIME" -v -o "$LOGS/m4b-10h.time" "$RAUDIO" play "$M4B_10H" --output null >/dev/null 2>"$LOGS/m4b-10h.err" </dev/null; then
        not_measured "$figure" "$target" "raudio play failed, see $(shown "$LOGS")/m4b-*.err" "$command"
        return 0
    fi
    local first last growth verdict
    first=$(peak_rss_mb "$LOGS/m4b-1h.time")
    last=$(peak_rss_mb "$LOGS/m4b-10h.time")
    growth=$(calc "$last - $first")
    verdict=$(awk -v l="$last" -v g="$growth" 'BEGIN { print (l <= 40 && g <= 1) ? "met" : "not met" }')
    row "$figure" "$target" "$last MB after 10 h, $first MB after 1 h (growth $growth MB)" "$(of_target "$last" 40): $verdict" "$command"
}
