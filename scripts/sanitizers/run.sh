#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the test suite under AddressSanitizer (with LeakSanitizer) and/or ThreadSanitizer.
#
# usage: scripts/sanitizers/run.sh [address|thread|all] [swift test options, e.g. --filter X]
# Each sanitizer builds into its own scratch path (.build-asan, .build-tsan). Tests run serialized
# (--no-parallel): the real-time audio tests need the cores. Under ThreadSanitizer RAUDIO_TSAN=1
# makes the PulseAudio tests skip themselves with a message (libpulse is not instrumented); the
# render, navigator and engine-thread tests run with the null and WAV outputs. Under AddressSanitizer
# RAUDIO_ASAN=1 lifts the resident-memory bounds of tests (shadow memory and quarantine fill RSS).
# Every suppression is in scripts/sanitizers/*.supp, each with the reason it is there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
SWIFT=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}
which=${1:-all}; shift || true
here=$PWD/scripts/sanitizers
export SWIFT_BACKTRACE=enable=no

run_address() {
    echo "== AddressSanitizer + LeakSanitizer: swift test --sanitize=address $*"
    RAUDIO_ASAN=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
    LSAN_OPTIONS=suppressions=$here/lsan.supp:print_suppressions=0 \
        "$SWIFT" test --sanitize=address --scratch-path .build-asan --no-parallel "$@"
}

run_thread() {
    echo "== ThreadSanitizer: swift test --sanitize=thread $*"
    RAUDIO_TSAN=1 TSAN_OPTIONS=suppressions=$here/tsan.supp:halt_on_error=0:second_deadlock_stack=1 \
        "$SWIFT" test --sanitize=thread --scratch-path .build-tsan --no-parallel "$@"
}

case $which in
    address) run_address "$@" ;;
    thread) run_thread "$@" ;;
    all)
        status=0
        run_address "$@" || { status=1; echo "== AddressSanitizer pass FAILED"; }
        run_thread "$@" || { status=1; echo "== ThreadSanitizer pass FAILED"; }
        exit $status ;;
    *) echo "usage: $0 [address|thread|all] [swift test options]" >&2; exit 2 ;;
esac
