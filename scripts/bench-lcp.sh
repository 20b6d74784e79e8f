# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by scripts/bench.sh: bench_lcp, what LCP decryption adds to playing (issue 48): the 60-minute MP3 of the
# audio section packed twice by scripts/lcp/make-bench-package.py, as a clear Readium audiobook and as an .lcpa whose
# licence is signed with EDRLab's published 2026 test provider key; both played to the null output as fast as they
# decode, their user + system CPU seconds compared (medians of RUNS runs, taken in turn).

bench_lcp() {
    section_begin "LCP-protected audiobooks (decryption's cost)" \
        "\`raudio play\` of the 60-minute 128 kb/s MP3 to the null output, packed as a clear Readium audiobook and as an LCP audiobook (basic profile, AES-256-CBC, decrypted by the 16-byte blocks each read needs), \`RAUDIO_LCP_OFFLINE=1\` (no status fetch). The figure is the whole process's user + system CPU, licence check included."
    local figure="CPU of playing the LCP audiobook / the clear one"
    local target="≤ 1.05x (decryption adds ≤ 5 %)"
    local dir="$WORK/lcp"
    local command="$(quote "$TIME" -f "%U %S" "$(shown "$RAUDIO")" play "$(shown "$dir")/bench.lcpa" --passphrase-file "$(shown "$dir")/passphrase.txt" --output null --no-state) vs the same of clear.audiobook"
    if ! has_command lcp; then
        not_measured "$figure" "$target" "this raudio has no lcp command" "$command"
        return 0
    fi
    if ! make_long_mp3 || ! python3 "$ROOT/scripts/lcp/make-bench-package.py" "$MP3_60" "$CORPUS/lcp" "$dir" >"$LOGS/lcp-package.log" 2>&1; then
        not_measured "$figure" "$target" "could not make the packages, see $(shown "$LOGS")/lcp-package.log" "$command"
        return 0
    fi
    local clear=() protected=() run cpu
    for ((run = 1; run <= RUNS; run++)); do
        for kind in clear protected; do
            local args=(play "$dir/clear.audiobook" --output null --no-state)
            [[ $kind == protected ]] && args=(play "$dir/bench.lcpa" --passphrase-file "$dir/passphrase.txt" --output null --no-state)
            if ! RAUDIO_LCP_OFFLINE=1 "$TIME" -f "%U %S" -o "$LOGS/lcp-$kind.cpu" "$RAUDIO" "${args[@]}" >"$LOGS/lcp-$kind.out" 2>"$LOGS/lcp-$kind.err" </dev/null; then
                not_measured "$figure" "$target" "raudio play failed, see $(shown "$LOGS")/lcp-$kind.err" "$command"
                return 0
            fi
            cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$LOGS/lcp-$kind.cpu")
            [[ $kind == clear ]] && clear+=("$cpu") || protected+=("$cpu")
        done
    done
    local clear_median clear_low clear_high protected_median protected_low protected_high ratio
    read -r clear_median clear_low clear_high <<<"$(stats "${clear[@]}")"
    read -r protected_median protected_low protected_high <<<"$(stats "${protected[@]}")"
    ratio=$(calc "$protected_median / $clear_median")
    row "$figure" "$target" \
        "LCP $(calc "$protected_median") s ($(calc "$protected_low")-$(calc "$protected_high")), clear $(calc "$clear_median") s ($(calc "$clear_low")-$(calc "$clear_high")), $RUNS runs each" \
        "${ratio}x: $(at_most "$ratio" 1.05)" "$command"
}
