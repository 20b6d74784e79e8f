#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that every source file of raudio carries its licence as an SPDX line, and lists those that do not.
#
# A source file is a .swift, .c, .h, .sh, .py or .js file, plus Makefile and .ci/run, tracked by git or
# new and not ignored (so a file added on another branch is caught after a merge); samples/ keeps its own
# licence and is not checked. The line is `// SPDX-License-Identifier: GPL-3.0-or-later` (`#` for shell,
# Python and make), first in the file, or second after a line that must stay first: a `#!` shebang,
# Package.swift's `// swift-tools-version:`, or a DocC snippet's `// snippet.hide` (Snippets/*.swift: the
# licence line is then hidden from the documentation that shows the snippet).
#
# Usage: scripts/check-spdx.sh [--fix]
#   --fix   add the line to the files without it, then check again
# Exit status: 0 when every file has it, 1 listing the files that do not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

LICENSE_ID="GPL-3.0-or-later"

fix=0
case "${1:-}" in
    "") ;;
    --fix) fix=1 ;;
    *) echo "usage: $0 [--fix]" >&2; exit 64 ;;
esac

source_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard
    else
        find . -path ./.git -prune -o -path './.build*' -prune -o -path ./build -prune -o -type f -print | sed 's|^\./||'
    fi | grep -E '(\.(swift|c|h|sh|py|js)|^Makefile|^\.ci/run)$' | grep -v '^samples/' | sort -u
}

# The comment marker of a file: `#` for shell, Python and make, `//` for the others.
comment_marker() {
    case "$1" in
        *.sh | *.py | Makefile | .ci/run) echo "#" ;;
        *) echo "//" ;;
    esac
}

# How many leading lines must stay before the SPDX line: a shebang, SwiftPM's tools-version line, or
# the line that hides the start of a DocC snippet.
leading_lines() {
    local first
    first=$(head -n 1 "$1")
    if [[ "$first" == "#!"* || "$first" == "// swift-tools-version"* || "$first" == "// snippet.hide" ]]; then echo 1; else echo 0; fi
}

has_line() {
    local file=$1 position expected
    position=$(( $(leading_lines "$file") + 1 ))
    expected="$(comment_marker "$file") SPDX-License-Identifier: $LICENSE_ID"
    [[ "$(sed -n "${position}p" "$file")" == "$expected" ]]
}

add_line() {
    local file=$1 keep line temporary
    keep=$(leading_lines "$file")
    line="$(comment_marker "$file") SPDX-License-Identifier: $LICENSE_ID"
    temporary=$(mktemp)
    { head -n "$keep" "$file"; printf '%s\n' "$line"; tail -n "+$((keep + 1))" "$file"; } >"$temporary"
    chmod --reference="$file" "$temporary"
    mv "$temporary" "$file"
}

missing=()
checked=0
while IFS= read -r file; do
    [[ -f "$file" ]] || continue
    checked=$((checked + 1))
    has_line "$file" && continue
    if (( fix )) && ! grep -q "SPDX-License-Identifier" "$file"; then
        add_line "$file"
        echo "check-spdx: added the SPDX line to $file"
        has_line "$file" && continue
    fi
    missing+=("$file")
done < <(source_files)

if (( ${#missing[@]} > 0 )); then
    echo "check-spdx: ${#missing[@]} of $checked source files lack '// SPDX-License-Identifier: $LICENSE_ID' (or '#' ...) as their first line (after a shebang):" >&2
    printf '  %s\n' "${missing[@]}" >&2
    echo "check-spdx: run scripts/check-spdx.sh --fix to add it" >&2
    exit 1
fi
echo "check-spdx: all $checked source files carry SPDX-License-Identifier: $LICENSE_ID"
