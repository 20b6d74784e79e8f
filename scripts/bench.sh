#!/usr/bin/env bash
# `make bench`: measures raudio against the reference tools and prints the figures for BENCHMARKS.md.
# Usage: scripts/bench.sh RAUDIO_BINARY
set -euo pipefail

# TODO(audio playback issue): the benchmarks (decode and render speed of the sample book against mpg123,
# ogg123 and sox, measured side by side with hyperfine, see ../shared/docs/PERFORMANCE.md) land with it.
echo "bench: no benchmarks yet; they land with the audio playback issue (see BENCHMARKS.md)."
exit 0
