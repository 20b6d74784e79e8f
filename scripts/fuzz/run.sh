#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every raudio-fuzz target (or those named) for FUZZ_SECONDS each; prints execs/s and coverage.
#
# usage: scripts/fuzz/run.sh BINARY CORPUS_DIR [TARGET...]
# Working files go to build/fuzz/: seeds/ (rebuilt from the corpus each run), corpus/TARGET (what
# libFuzzer found, kept between runs), crashes/TARGET (crash, timeout and out-of-memory inputs),
# logs/TARGET.log, and summary.md. Exits 1 when any target left a finding.
set -uo pipefail
binary=$1 corpus=$2; shift 2
seconds=${FUZZ_SECONDS:-60}
out=build/fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(manifest locator opf nav ncx xhtml smil zip command websocket http w3c audiotags)

python3 scripts/fuzz/seeds.py "$corpus" "$out/seeds" docs/events.md >/dev/null
mkdir -p "$out/logs"
summary=$out/summary.md
{
    echo "| target | seconds | execs | execs/s | cov | ft | corpus | findings |"
    echo "|---|---:|---:|---:|---:|---:|---:|---|"
} >"$summary"

failed=0
for target in "${targets[@]}"; do
    mkdir -p "$out/corpus/$target" "$out/crashes/$target" "$out/seeds/$target"
    log=$out/logs/$target.log
    # Mutating 256 KB XHTML seeds ran at a few execs/s; 64 KB inputs reach the same parser paths.
    max_len=65536
    [ "$target" = zip ] && max_len=262144
    [ "$target" = audiotags ] && max_len=262144
    # -timeout: an input taking 5 s is a hang; -rss_limit_mb: memory is bounded whatever the input.
    # detect_leaks=0: LeakSanitizer reports Foundation's own small leaks (see LINUX-INTEROP.md);
    # leaks in our code are looked for by `make sanitize` instead.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" "$target" \
        -max_total_time="$seconds" -max_len="$max_len" -timeout=5 -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
        -artifact_prefix="$out/crashes/$target/" "$out/corpus/$target" "$out/seeds/$target" >"$log" 2>&1
    status=$?
    stats=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov:' | tail -1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$stats")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$stats")
    units=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$stats")
    findings=$(find "$out/crashes/$target" -type f | wc -l)
    verdict=none
    if [ "$status" -ne 0 ] || [ "$findings" -gt 0 ]; then
        verdict="$findings in $out/crashes/$target (exit $status; see $log)"
        failed=1
    fi
    printf '%-9s %8s execs %6s/s  cov %-6s ft %-6s corpus %-5s findings: %s\n' \
        "$target" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${units:-?}" "$verdict"
    echo "| $target | $seconds | ${execs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | ${units:-?} | $verdict |" >>"$summary"
done
echo "summary: $summary"
exit $failed
