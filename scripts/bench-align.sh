# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by scripts/bench.sh: bench_align, `raudio align` (issue 47) on a ten-hour book: Moby-Dick's first 58
# chapters read by eSpeak NG (scripts/align/make-align-set.py --subset long: made once, kept in build/align-set/long),
# aligned on the machine's cores with its wall time and peak RSS, beside the figures aeneas published (no aeneas run
# here: it is not packaged for Debian, and its 16 GB would not fit this machine).

bench_align() {
    section_begin "Syncing an audiobook with its ebook (raudio align)" \
        "\`raudio align BOOK.epub AUDIO... --to epub3 OUT.epub\` on a ten-hour book: the text of Moby-Dick's first 58 chapters, its narration made by \`raudio render\` with another eSpeak NG voice than the aligner's (\`en-gb-x-rp\`, speed 0.95), one MP3 per chapter (\`make align-set SUBSET=long\`). aeneas's figures are those it publishes (91 s per hour of audio on a netbook; about 16 GB of memory for a ten-hour file, readbeyond/aeneas#288), not measured here."
    local figure_time="align a 10-hour book, wall time on $(nproc) cores"
    local figure_rss="peak RSS aligning the 10-hour book"
    local set="$WORK/../align-set/long/moby-10h"
    local command="$(quote /usr/bin/time -v "$(shown "$RAUDIO")" align "$(shown "$set")/book.epub" "$(shown "$set")/base/audio/*.mp3" --to epub3 "$(shown "$WORK")/moby-10h-aligned.epub")"
    if ! has_command align; then
        not_measured "$figure_time" "≤ 10 min" "this raudio has no align command" "$command"
        not_measured "$figure_rss" "≤ 1 GB" "this raudio has no align command" "$command"
        return 0
    fi
    if ! python3 "$ROOT/scripts/align/make-align-set.py" --raudio "$RAUDIO" --subset long --out "$WORK/../align-set" \
        --corpus "$CORPUS" >"$LOGS/align-set.log" 2>&1; then
        not_measured "$figure_time" "≤ 10 min" "could not make the book, see $(shown "$LOGS")/align-set.log" "$command"
        not_measured "$figure_rss" "≤ 1 GB" "could not make the book" "$command"
        return 0
    fi
    local hours
    hours=$(python3 -c 'import json, sys
books = json.load(open(sys.argv[1]))["books"]
print(round(books[0]["seconds"] / 3600, 2))' "$WORK/../align-set/long/index.json")
    if ! "$TIME" -v -o "$LOGS/align-10h.time" "$RAUDIO" align "$set/book.epub" "$set"/base/audio/*.mp3 \
        --to epub3 "$WORK/moby-10h-aligned.epub" >"$LOGS/align-10h.out" 2>"$LOGS/align-10h.err" </dev/null; then
        not_measured "$figure_time" "≤ 10 min" "raudio align failed, see $(shown "$LOGS")/align-10h.err" "$command"
        not_measured "$figure_rss" "≤ 1 GB" "raudio align failed" "$command"
        return 0
    fi
    local wall rss per_hour cpu
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$LOGS/align-10h.time")
    rss=$(peak_rss_mb "$LOGS/align-10h.time")
    # User + system seconds of raudio and its eSpeak NG workers: less moved by the other builds of the machine
    # than the wall time; over the cores, the wall time the run would take on an idle 2-core machine at best.
    cpu=$(awk -F': ' '/User time \(seconds\)|System time \(seconds\)/ { s += $2 } END { print s }' "$LOGS/align-10h.time")
    per_hour=$(calc "$wall / $hours")
    row "$figure_time" "≤ 10 min (aeneas: 91 s per hour on a netbook, about 15 min for 10 h)" \
        "$(calc "$wall / 60") min for $hours h of audio ($per_hour s per hour)" "$(of_target "$wall" 600): $(at_most "$wall" 600)" "$command"
    row "CPU of aligning the 10-hour book (user + system, raudio and its workers)" "≤ $(( 600 * $(nproc) )) CPU s (10 min on each of $(nproc) cores)" \
        "$cpu CPU s for $hours h of audio ($(calc "$cpu / $hours") per hour; the load average was $(cut -d' ' -f1-3 /proc/loadavg) at the end)" \
        "$(of_target "$cpu" $(( 600 * $(nproc) ))): $(at_most "$cpu" $(( 600 * $(nproc) )))" "$command"
    row "$figure_rss" "≤ 1 GB (aeneas: about 16 GB)" "$rss MB" "$(of_target "$rss" 1024): $(at_most "$rss" 1024)" "$command"
}
