# SPDX-License-Identifier: GPL-3.0-or-later
# The IPC transports and the read-along page (issue 16), sourced by scripts/bench.sh: a command's round trip
# over the unix socket, a `range` event to its highlight painted in Chromium, and the CPU 10 WebSocket
# clients add (scripts/readalong/bench-ipc.py measures; this turns its JSON into rows).

IPC_BOOK="$CORPUS/epub/idpf-epub3-samples/wasteland.epub"

bench_ipc() {
    section_begin "IPC and the read-along page (issue 16)" \
        "\`raudio play\` of the sample audiobook and \`raudio speak\` of wasteland.epub (corpus) in real time to the null output, release build. Round trip: 500 \`volume\` commands written one at a time to \`--ipc unix:PATH\`, each timed to its \`ack\`. Paint: \`--web\` page in headless Chromium (chromedriver) with a unix-socket client beside it; each \`range\` event's arrival on the socket against the page's next animation frame after it set the highlight (same machine clock). Clients: user+system CPU of the whole \`raudio speak --speed 3 --web\` process (from \`wait4(2)\`) over ${RAUDIO_BENCH_IPC_SECONDS} s, alone and with 10 WebSocket clients reading every event, medians of ${RAUDIO_BENCH_IPC_RUNS} runs each."
    local ack_figure="command to \`ack\` over the unix socket" paint_figure="\`range\` event written to its highlight painted in Chromium"
    local clients_figure="CPU 10 WebSocket clients add to \`raudio speak\`"
    local command
    command="python3 scripts/readalong/bench-ipc.py --raudio $(shown "$RAUDIO") --book $(shown "$IPC_BOOK") --audiobook samples/gull-rock.audiobook"
    local reason=""
    [[ -f "$IPC_BOOK" ]] || reason="no corpus book at $(shown "$IPC_BOOK")"
    [[ -z "$reason" && -n "$(missing_tools chromium chromedriver)" ]] && reason="missing: $(missing_tools chromium chromedriver)"
    if [[ -z "$reason" ]]; then
        python3 "$ROOT/scripts/readalong/bench-ipc.py" --raudio "$RAUDIO" --book "$IPC_BOOK" --audiobook "$ROOT/samples/gull-rock.audiobook" \
            --runs "$RAUDIO_BENCH_IPC_RUNS" --seconds "$RAUDIO_BENCH_IPC_SECONDS" >"$LOGS/ipc.json" 2>"$LOGS/ipc.err" \
            || reason="bench-ipc.py failed, see $(shown "$LOGS")/ipc.err"
    fi
    if [[ -n "$reason" ]]; then
        not_measured "$ack_figure" "≤ 0.5 ms" "$reason" "$command"
        not_measured "$paint_figure" "≤ 20 ms" "$reason" "$command"
        not_measured "$clients_figure" "≤ 5 %" "$reason" "$command"
        return 0
    fi
    local ack p90 count
    ack=$(calc "$(json_get "$LOGS/ipc.json" ack.median_ms)")
    p90=$(calc "$(json_get "$LOGS/ipc.json" ack.p90_ms)")
    row "$ack_figure" "≤ 0.5 ms" "$ack ms (90th percentile $p90 ms, 500 round trips; mpv's JSON IPC 0.19 ms here, issue 16)" "$(at_most "$ack" 0.5)" "$command --only ack"
    local paint
    paint=$(calc "$(json_get "$LOGS/ipc.json" paint.median_ms)")
    p90=$(calc "$(json_get "$LOGS/ipc.json" paint.p90_ms)")
    count=$(json_get "$LOGS/ipc.json" paint.count)
    row "$paint_figure" "≤ 20 ms" "$paint ms (90th percentile $p90 ms, $count words)" "$(at_most "$paint" 20)" "$command --only paint"
    local added alone clients
    added=$(calc "$(json_get "$LOGS/ipc.json" clients.added_percent)")
    alone=$(calc "$(json_get "$LOGS/ipc.json" clients.alone_s)")
    clients=$(calc "$(json_get "$LOGS/ipc.json" clients.clients_s)")
    row "$clients_figure" "≤ 5 %" "$added % ($clients s with 10 clients against $alone s alone, CPU seconds over ${RAUDIO_BENCH_IPC_SECONDS} s)" \
        "$(at_most "$added" 5)" "$command --only clients"
}
