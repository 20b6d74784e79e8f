# SPDX-License-Identifier: GPL-3.0-or-later
# The listening state (issue 14), sourced by scripts/bench.sh: a store of 10,000 books, the start-up it
# adds to `raudio play`, the cost of saving positions against the client CPU of playing, its size.

bench_state() {
    section_begin "Listening state (issue 14)" \
        "\`raudio-bench state-store\` fills a store in \`build/bench/state\` with 10,000 books (each with a saved position; then 3 bookmarks each, measured apart) through the same \`ListeningStateStore\` raudio uses, times 500 position saves and 20 opens + book lookups, and reports the files' size after a checkpoint. The start-up figure compares whole \`raudio play\` processes on the sample book with that store and without state (\`RAUDIO_NO_STATE=1\`) in one hyperfine run. The save cost is per second of audio at one save every 15 s, against the client CPU per audio second measured into PulseAudio in the audio section of this run."
    local startup_figure="start-up added by a store of 10,000 books (whole \`raudio play\` process with the store vs without state)"
    local save_figure="CPU of saving the position every 15 s, against the client CPU of \`raudio play\` into PulseAudio"
    local size_figure="size of the store for 10,000 books (database + WAL after a checkpoint)"
    local store="$WORK/state" file="$LOGS/state-store.json"
    local fill_command="$(quote "$(shown "$BENCH")" state-store "$(shown "$store")" --books 10000)"
    if ! "$BENCH" state-store "$store" --books 10000 >"$file" 2>"$LOGS/state-store.err"; then
        local reason="raudio-bench state-store failed: $(tail -1 "$LOGS/state-store.err")"
        not_measured "$startup_figure" "≤ 5 ms" "$reason" "$fill_command"
        not_measured "$save_figure" "≤ 1 %" "$reason" "$fill_command"
        not_measured "$size_figure" "≤ 10 MB" "$reason" "$fill_command"
        return 0
    fi
    bench_state_startup "$startup_figure" "$store" "$file"
    bench_state_saves "$save_figure" "$file" "$fill_command"
    local bytes with_bookmarks
    bytes=$(json_get "$file" bytes)
    with_bookmarks=$(json_get "$file" bytesWithBookmarks)
    local megabytes
    megabytes=$(calc "$bytes / 1048576")
    row "$size_figure" "≤ 10 MB" "$megabytes MB ($(calc "$with_bookmarks / 1048576") MB with 30,000 bookmarks; filled in $(calc "$(json_get "$file" fillSeconds)") s)" \
        "$(of_target "$megabytes" 10): $(at_most "$megabytes" 10)" "$fill_command"
}

bench_state_startup() {
    local figure="$1" store="$2" file="$3" target="≤ 5 ms"
    local sample="$ROOT/samples/gull-rock.audiobook"
    local without="env RAUDIO_NO_STATE=1 $(quote "$RAUDIO") play $(quote "$sample") --from start --duration 0.05 --output null"
    local with="env RAUDIO_NO_STATE=0 RAUDIO_STATE_DIR=$(quote "$store") $(quote "$RAUDIO") play $(quote "$sample") --from start --duration 0.05 --output null"
    local command="hyperfine -N -w 3 -r 30 '$(shown "$without")' '$(shown "$with")'"
    if [[ -n "$(missing_tools hyperfine)" ]] || ! hyperfine -N -w 3 -r 30 --export-json "$LOGS/state-startup.json" "$without" "$with" >"$LOGS/state-startup.log" 2>&1; then
        not_measured "$figure" "$target" "hyperfine failed or is missing, see $(shown "$LOGS")/state-startup.log" "$command"
        return 0
    fi
    local values
    values=$(python3 - "$LOGS/state-startup.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
medians = [statistics.median(r["times"]) * 1000 for r in results]
print(medians[0], medians[1], medians[1] - medians[0])
PY
) || { not_measured "$figure" "$target" "could not read hyperfine's results" "$command"; return 0; }
    local without_ms with_ms added
    read -r without_ms with_ms added <<<"$values"
    row "$figure" "$target" \
        "+$(calc "$added") ms (with the store $(calc "$with_ms") ms, without $(calc "$without_ms") ms, medians of 30 processes); in-process open + lookup + record $(calc "$(json_get "$file" openAndLookupMs.median)") ms" \
        "$(of_target "$(awk -v a="$added" 'BEGIN { print (a < 0) ? 0 : a }')" 5): $(at_most "$added" 5)" "$command"
}

bench_state_saves() {
    local figure="$1" file="$2" command="$3" target="≤ 1 %"
    local save_ms
    save_ms=$(json_get "$file" saveMs.median)
    if [[ -z "${PULSE_CLIENT_CPU:-}" ]]; then
        not_measured "$figure" "$target" "the audio section's client CPU figure did not run; one save takes $(calc "$save_ms") ms" "$command"
        return 0
    fi
    # Seconds of CPU per audio second spent saving (one save per 15 s), as a share of the client CPU.
    local share
    share=$(calc "($save_ms / 1000 / 15) / $PULSE_CLIENT_CPU * 100")
    row "$figure" "$target" "$share % (one save $(calc "$save_ms") ms, median of 500; client CPU $PULSE_CLIENT_CPU s per audio second)" \
        "$(of_target "$share" 1): $(at_most "$share" 1)" "$command"
}
