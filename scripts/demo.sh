#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make demo`: plays the sample audiobook, or says what stands in the way and does the next best thing.
#
#   - `raudio play` exists and a PulseAudio server answers (`pactl info`): plays the book aloud;
#   - `raudio play` exists, no server: renders the book to build/demo/<book>.wav and says where;
#   - a raudio without `play`: prints `raudio info --human` of the book instead.
# Then it reads the sample EPUB (samples/lighthouse.epub) aloud with `raudio speak` the same way: through
# PulseAudio when a server answers, else rendered to build/demo/<epub>.wav; with the neural Piper voice
# piper:en_US-joe-medium when `raudio voices` lists it (make deps installs it), else with eSpeak NG.
# Usage: scripts/demo.sh RAUDIO_BINARY BOOK [EPUB]
set -euo pipefail

raudio="${1:?usage: demo.sh RAUDIO_BINARY BOOK [EPUB]}"
book="${2:?usage: demo.sh RAUDIO_BINARY BOOK [EPUB]}"
epub="${3:-samples/lighthouse.epub}"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf '\n== %s\n' "$*"; }

# Whether raudio has the subcommand $1. `raudio NAME --help` alone proves nothing: for an unknown NAME
# the argument parser prints the root help and exits 0, so look for the subcommand's own usage line.
has_command() {
    local help
    help=$("$raudio" "$1" --help 2>&1) || return 1
    grep -q "^USAGE: raudio $1" <<<"$help"
}

if ! has_command play; then
    say "This raudio has no play command; showing what it reads in $book instead."
    exec "$raudio" info --human "$book"
fi

speak_sample() {
    has_command speak || { say "This raudio has no speak command; skipping $epub."; return 0; }
    [ -f "$epub" ] || bash scripts/make-sample-epub.sh
    local voice=() with="eSpeak NG"
    if "$raudio" voices --language en 2>/dev/null | grep -q '"piper:en_US-joe-medium"'; then
        voice=(--voice piper:en_US-joe-medium); with="the neural Piper voice en_US-joe-medium (French passages: eSpeak NG)"
    fi
    if pactl info >/dev/null 2>&1; then
        say "Reading $epub aloud through PulseAudio with $with (Ctrl-C stops)."
        "$raudio" speak "$epub" "${voice[@]}" </dev/null >"build/demo/speak-events.jsonl"
    else
        local speech="build/demo/$(basename "${epub%.*}").wav"
        say "Rendering $epub read aloud with $with to $speech."
        "$raudio" speak "$epub" "${voice[@]}" --output "wav:$speech" </dev/null >"build/demo/speak-events.jsonl"
        say "Done: $speech"
    fi
    say "The utterances and words raudio reported are in build/demo/speak-events.jsonl."
}

mkdir -p build/demo
if pactl info >/dev/null 2>&1; then
    say "Playing $book through PulseAudio (Ctrl-C stops)."
    "$raudio" play "$book" </dev/null >"build/demo/events.jsonl" || true
    speak_sample
    exit 0
fi

out="build/demo/$(basename "${book%.*}").wav"
say "No PulseAudio server answers here (pactl info failed), so nothing can be heard."
mkdir -p "$(dirname "$out")"
say "Rendering $book to $out instead."
"$raudio" play "$book" --output "wav:$out" </dev/null >"build/demo/events.jsonl"
say "The events raudio reported are in build/demo/events.jsonl."
say "Done: $out (play it with: paplay $out, or aplay, or any audio player)."
speak_sample
