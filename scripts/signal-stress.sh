#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Stops raudio with SIGTERM at random moments and checks each run ends cleanly (not in CI).
#
# Usage: scripts/signal-stress.sh RUNS MAX_DELAY_MS RAUDIO_COMMAND...
#   e.g. scripts/signal-stress.sh 40 1500 .build/release/raudio speak samples/lighthouse.epub --output null --realtime
# Each run starts the command, waits a random 0..MAX_DELAY_MS, sends SIGTERM, and requires exit status 0
# and a last stdout line that is a `state` event `stopped`. Prints each bad run and "N bad of RUNS";
# exits 1 when any run was bad. A signal before `main` runs (the first ~25 ms) still takes the default
# action (exit 143): see docs/events.md.
set -uo pipefail
# Every run starts where asked, not where an earlier run left the book (no listening state).
export RAUDIO_NO_STATE=1
runs=${1:?usage: signal-stress.sh RUNS MAX_DELAY_MS RAUDIO_COMMAND...}
max_ms=${2:?usage: signal-stress.sh RUNS MAX_DELAY_MS RAUDIO_COMMAND...}
shift 2
work=$(mktemp -d /tmp/raudio-signal-stress.XXXXXX)
trap 'rm -rf "$work"' EXIT
bad=0
for run in $(seq 1 "$runs"); do
    "$@" >"$work/out" 2>"$work/err" </dev/null &
    pid=$!
    delay=$(awk -v r="$RANDOM" -v max="$max_ms" 'BEGIN { printf "%.3f", (r % (max + 1)) / 1000 }')
    sleep "$delay"
    kill -TERM "$pid" 2>/dev/null
    wait "$pid"
    status=$?
    last=$(tail -n 1 "$work/out")
    if [[ $status -ne 0 ]] || ! grep -q '"type":"state"' <<<"$last" || ! grep -q '"state":"stopped"' <<<"$last"; then
        bad=$((bad + 1))
        echo "run $run: SIGTERM after $delay s: exit $status, last line: ${last:0:160}"
    fi
done
echo "$bad bad of $runs"
[[ $bad -eq 0 ]]
