#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Kills `raudio play` with SIGKILL at random moments, many times, while it saves its position every
# 50 ms into one listening-state store, then checks the store with SQLite's PRAGMA integrity_check.
#
# Usage: scripts/state-kill-stress.sh RAUDIO_BINARY [KILLS]   (default 1000 kills)
# Exit 0 when the store is intact and still usable, 1 otherwise.
set -uo pipefail
RAUDIO="${1:?usage: state-kill-stress.sh RAUDIO_BINARY [KILLS]}"
KILLS="${2:-1000}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="$(mktemp -d /tmp/raudio-kill-stress.XXXXXX)"
trap 'rm -rf "$STATE"' EXIT
export RAUDIO_STATE_DIR="$STATE" RAUDIO_SAVE_INTERVAL=0.05
BOOKS=("$ROOT/samples/gull-rock.audiobook" "$ROOT/samples/lighthouse.epub")

for kill_number in $(seq 1 "$KILLS"); do
    book="${BOOKS[$((RANDOM % 2))]}"
    command=play
    [[ "$book" == *.epub ]] && command=speak
    "$RAUDIO" "$command" "$book" --output null --realtime --interval 0.05 >/dev/null 2>&1 </dev/null &
    pid=$!
    # Between 20 ms and 1.2 s: during the opening, the first saves, or mid-write.
    sleep "$(awk -v ms=$((20 + RANDOM % 1180)) 'BEGIN { printf "%.3f", ms / 1000 }')"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    (( kill_number % 100 == 0 )) && echo "state-kill-stress: $kill_number kills" >&2
done

result=$(python3 - "$STATE/state.sqlite3" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
check = db.execute("PRAGMA integrity_check").fetchone()[0]
books = db.execute("SELECT count(*) FROM book").fetchone()[0]
saved = db.execute("SELECT count(*) FROM book WHERE locator IS NOT NULL").fetchone()[0]
print(check, books, saved)
PY
)
read -r check books saved <<<"$result"
history=$("$RAUDIO" history | wc -l)
echo "state-kill-stress: $KILLS SIGKILLs; integrity_check: $check; $books books ($saved with a saved position); raudio history lists $history"
[[ "$check" == "ok" && "$history" == "$books" ]]
