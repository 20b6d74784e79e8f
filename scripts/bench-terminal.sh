# SPDX-License-Identifier: GPL-3.0-or-later
# The terminal player (issue 15), sourced by scripts/bench.sh: what the live display adds to the client
# CPU of `raudio play` into PulseAudio, and how often it draws.

# The CPU of one process to the microsecond (GNU time prints hundredths, too coarse for 0.2 s of CPU):
# runs COMMAND... and writes "USER SYSTEM" seconds from wait4(2) to FILE.
# The CPU of one process to the microsecond (GNU time prints hundredths, too coarse for 0.3 s of CPU):
# runs COMMAND... and writes "USER SYSTEM" seconds from wait4(2) to FILE; with THREADS_AT=SECONDS it
# also writes, that long after the start, each thread's name and its CPU time in nanoseconds
# (/proc/PID/task/TID/schedstat) to FILE.threads.
CPU_OF_SCRIPT='import os, subprocess, sys, time
child = subprocess.Popen(sys.argv[2:])
at = os.environ.get("THREADS_AT")
if at:
    time.sleep(float(at))
    lines = []
    for task in os.listdir(f"/proc/{child.pid}/task"):
        try:
            name = open(f"/proc/{child.pid}/task/{task}/comm").read().strip()
            nanoseconds = open(f"/proc/{child.pid}/task/{task}/schedstat").read().split()[0]
            lines.append(f"{name}\t{nanoseconds}\n")
        except OSError:
            pass
    open(sys.argv[1] + ".threads", "w").writelines(lines)
_, status, usage = os.wait4(child.pid, 0)
open(sys.argv[1], "w").write(f"{usage.ru_utime:.6f} {usage.ru_stime:.6f}\n")
sys.exit(os.waitstatus_to_exitcode(status))'

# terminal_cpu_run NAME MODE: plays 60 s of the 60-minute MP3 into the private PulseAudio daemon and
# prints its user+system CPU seconds per audio second. MODE json: events to /dev/null; MODE ui: stdout
# is a pseudo-terminal made by script(1), so the terminal player draws (its output kept in NAME.typescript).
terminal_cpu_run() {
    local name="$1" mode="$2" seconds="$TERMINAL_SECONDS"
    local play=("$RAUDIO" play "$MP3_60" --from 0 --duration "$seconds" --output pulse --no-mpris)
    if [[ "$mode" == json ]]; then
        PULSE_SERVER="unix:$PULSE_DIR/native.sock" python3 -c "$CPU_OF_SCRIPT" "$LOGS/$name.cpu" "${play[@]}" --json \
            >/dev/null 2>"$LOGS/$name.err" </dev/null || return 1
    else
        local inner
        inner="$(quote python3 -c "$CPU_OF_SCRIPT" "$LOGS/$name.cpu" "${play[@]}")"
        PULSE_SERVER="unix:$PULSE_DIR/native.sock" TERM=xterm-256color COLUMNS=80 LINES=24 THREADS_AT=$((seconds - 2)) \
            script -q -e -c "stty cols 80 rows 24; $inner" "$LOGS/$name.typescript" >/dev/null 2>"$LOGS/$name.err" </dev/null || return 1
    fi
    awk -v s="$seconds" '{ printf "%.6f", ($1 + $2) / s }' "$LOGS/$name.cpu"
}

TERMINAL_SECONDS=60

bench_terminal() {
    section_begin "Terminal player (issue 15)" \
        "$TERMINAL_SECONDS s of the 60-minute MP3 played in real time into a private PulseAudio daemon (null sink), alternately with JSON events to /dev/null and with the terminal player drawing on a pseudo-terminal (script(1), 80x24, TERM=xterm-256color); user+system CPU of the raudio process per audio second (from \`wait4(2)\`, to the microsecond), medians of $RAUDIO_BENCH_TERMINAL_RUNS runs each. Frames are counted in what the player wrote to the terminal (each frame starts by hiding the cursor)."
    local figure="CPU the live display adds to \`raudio play\` into PulseAudio"
    local share_figure="CPU of the display's own threads (drawing, keys, stderr) against the whole \`raudio play\` process"
    local frames_figure="frames drawn per second while playing (a frame only when something shown changed)"
    local command="$(quote "$(shown "$RAUDIO")" play "$(shown "$MP3_60")" --from 0 --duration "$TERMINAL_SECONDS" --output pulse --no-mpris) --json > /dev/null vs the same in script -q -c ... (a pseudo-terminal), CPU from wait4(2)"
    local reason=""
    [[ -n "$(missing_tools pulseaudio pactl lame script)" ]] && reason="missing: $(missing_tools pulseaudio pactl lame script)"
    [[ -z "$reason" ]] && { make_long_mp3 || reason="could not generate the 60-minute MP3, see $(shown "$LOGS")/make-mp3.log"; }
    [[ -z "$reason" ]] && { start_private_pulse || reason="the private PulseAudio daemon did not start, see $(shown "$LOGS")/pulse-start.log"; }
    if [[ -n "$reason" ]]; then
        not_measured "$figure" "≤ 10 %" "$reason" "$command"
        not_measured "$share_figure" "≤ 10 %" "$reason" "$command"
        not_measured "$frames_figure" "≤ 4" "$reason" "$command"
        stop_private_pulse
        return 0
    fi
    local runs="$RAUDIO_BENCH_TERMINAL_RUNS" run json=() ui=() frames=() shares=() value
    for run in $(seq 1 "$runs"); do
        value=$(terminal_cpu_run "terminal-json-$run" json) \
            || { not_measured "$figure" "≤ 10 %" "raudio play --json failed, see $(shown "$LOGS")/terminal-json-$run.err" "$command"; stop_private_pulse; return 0; }
        json+=("$value")
        value=$(terminal_cpu_run "terminal-ui-$run" ui) \
            || { not_measured "$figure" "≤ 10 %" "raudio play in a pseudo-terminal failed, see $(shown "$LOGS")/terminal-ui-$run.err" "$command"; stop_private_pulse; return 0; }
        ui+=("$value")
        shares+=("$(awk -F'\t' '{ total += $2 } $1 ~ /^raudio\.(display|keys|stderr)$/ { display += $2 } END { if (total > 0) printf "%.3f", display / total * 100 }' "$LOGS/terminal-ui-$run.cpu.threads")")
        frames+=("$(grep -o $'\e\\[?25l' "$LOGS/terminal-ui-$run.typescript" | wc -l | awk -v s="$TERMINAL_SECONDS" '{ printf "%.2f", $1 / s }')")
    done
    stop_private_pulse
    local json_median json_low json_high ui_median ui_low ui_high frames_median frames_low frames_high share_median share_low share_high
    read -r json_median json_low json_high < <(stats "${json[@]}")
    read -r ui_median ui_low ui_high < <(stats "${ui[@]}")
    read -r frames_median frames_low frames_high < <(stats "${frames[@]}")
    read -r share_median share_low share_high < <(stats "${shares[@]}")
    local added
    added=$(calc "($ui_median - $json_median) / $json_median * 100")
    local overlap=""
    awk -v a="$ui_low" -v b="$json_high" 'BEGIN { exit !(a <= b) }' && overlap="; the two ranges overlap"
    row "$figure" "≤ 10 %" \
        "$added % (display $ui_median s per audio s ($ui_low-$ui_high), JSON $json_median ($json_low-$json_high), $runs runs each$overlap)" \
        "$(at_most "$added" 10)" "$command"
    row "$share_figure" "≤ 10 %" "$share_median % ($share_low-$share_high) of the process's CPU, per-thread time from /proc/PID/task/*/schedstat $((TERMINAL_SECONDS - 2)) s into each display run" \
        "$(at_most "$share_median" 10)" "$command"
    local bytes
    bytes=$(cat "$LOGS"/terminal-ui-*.typescript | wc -c)
    row "$frames_figure" "≤ 4" "$frames_median ($frames_low-$frames_high); $(calc "$bytes / ($runs * $TERMINAL_SECONDS)") bytes written to the terminal per second" \
        "$(at_most "$frames_median" 4)" "$command"
}
