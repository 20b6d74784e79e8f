#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make docs`: the DocC documentation of raudio's libraries (their catalogues Sources/MODULE/MODULE.docc and
# doc comments), built by swift-docc-plugin as one combined static website in OUTPUT (open OUTPUT/index.html
# through a web server, or publish the folder as it is: --transform-for-static-hosting).
#
# Fails on any DocC warning (a broken symbol link, an undocumented parameter of a documented function, a
# snippet that is not found), and says so; SwiftPM's own build warnings (pkg-config flags) are not DocC's.
#
# Usage: scripts/docs.sh SWIFT OUTPUT TARGET...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

swift="${1:?usage: docs.sh SWIFT OUTPUT TARGET...}"
output="${2:?usage: docs.sh SWIFT OUTPUT TARGET...}"
shift 2
(( $# > 0 )) || { echo "usage: docs.sh SWIFT OUTPUT TARGET..." >&2; exit 64; }

target_options=()
for target in "$@"; do target_options+=(--target "$target"); done
rm -rf "$output"
mkdir -p "$output"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$swift" package --allow-writing-to-directory "$output" generate-documentation "${target_options[@]}" \
    --enable-experimental-combined-documentation --transform-for-static-hosting --output-path "$output" \
    --warnings-as-errors >"$log" 2>&1 || status=$?
# DocC's diagnostics, without SwiftPM's pkg-config and resource notices about the dependencies.
diagnostics=$(grep -a -E "(warning|error): " "$log" | grep -a -v -E "prohibited flag\(s\)|found [0-9]+ file\(s\) which are unhandled" || true)
if (( status != 0 )) || [[ -n "$diagnostics" ]]; then
    grep -a -v -E "prohibited flag\(s\)|unhandled; explicitly declare|PrivacyInfo.xcprivacy|^\[[0-9]+/[0-9]+\]" "$log" >&2
    echo "make docs: DocC reported warnings or errors (above); the documentation must build without any" >&2
    exit 1
fi
[[ -f "$output/index.html" ]] || { echo "make docs: no $output/index.html was written" >&2; exit 1; }
echo "make docs: $(find "$output/data/documentation" -name '*.json' | wc -l) pages for $* in $output (index.html)"
