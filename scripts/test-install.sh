#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make install-check` (run by `make test`): installs raudio into a temporary DESTDIR with `make install`,
# runs the installed binary (it must find the voice presets it was installed with), reads its man page,
# loads its bash completion and completes a subcommand with it, then `make uninstall` must leave no file.
#
# Usage: scripts/test-install.sh   (from anywhere; builds what make install builds)
# Exit status: 0 when everything held, 1 naming the first thing that did not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

destdir=$(mktemp -d "${TMPDIR:-/tmp}/raudio-install-check.XXXXXX")
state=$(mktemp -d "${TMPDIR:-/tmp}/raudio-install-state.XXXXXX")
trap 'rm -rf "$destdir" "$state"' EXIT
prefix=/usr/local
root="$destdir$prefix"

fail() { echo "install-check: FAILED: $*" >&2; exit 1; }
pass() { echo "install-check: ok: $*"; }

make --no-print-directory install DESTDIR="$destdir" PREFIX="$prefix" >/dev/null

# Every file in its place.
for file in bin/raudio share/raudio/voices/default.json share/raudio/voices/fr.json share/raudio/web/index.html \
    share/raudio/web/readalong.js share/raudio/web/resolver.js share/raudio/piper/worker.py share/raudio/aligner/worker.py \
    share/man/man1/raudio.1 \
    share/bash-completion/completions/raudio share/zsh/site-functions/_raudio \
    share/fish/vendor_completions.d/raudio.fish share/doc/raudio/LICENSE share/doc/raudio/THIRD_PARTY.md; do
    [[ -f "$root/$file" ]] || fail "make install did not install $prefix/$file"
done
[[ -x "$root/bin/raudio" ]] || fail "$prefix/bin/raudio is not executable"
pass "files installed under DESTDIR$prefix"

# One man page per subcommand of --help, so the pages cannot lag behind the commands.
raudio="$root/bin/raudio"
subcommands=$("$raudio" --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
[[ -n "$subcommands" ]] || fail "raudio --help lists no subcommands"
for name in $subcommands; do
    [[ -f "$root/share/man/man1/raudio.$name.1" ]] || fail "no man page for raudio $name"
done
pass "a man page for each subcommand: $(echo $subcommands)"
MANPAGER=cat MANWIDTH=80 man -l "$root/share/man/man1/raudio.1" 2>/dev/null | grep -q "audiobook" \
    || fail "man -l raudio.1 does not render its description"
for page in "$root"/share/man/man1/raudio*.1; do
    complaints=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null || true)
    [[ -z "$complaints" ]] || fail "man --warnings on $(basename "$page"): $complaints"
done
pass "man raudio renders; groff has nothing to say about any page"

# The installed binary: its version, and the voice presets it was installed with (not the source tree's).
version_output=$("$raudio" version)
expected_version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/RAudioEngine/RAudioVersion.swift)
[[ "$(head -n 1 <<<"$version_output")" == "raudio $expected_version" ]] \
    || fail "installed raudio version says '$(head -n 1 <<<"$version_output")', expected 'raudio $expected_version'"
[[ "$(tail -n 1 <<<"$version_output")" == "voice-presets $root/share/raudio/voices" ]] \
    || fail "installed raudio reads its presets from '$(tail -n 1 <<<"$version_output")', not $root/share/raudio/voices"
grep -qxF "read-along-page $root/share/raudio/web" <<<"$version_output" \
    || fail "installed raudio serves its read-along page from '$(grep read-along-page <<<"$version_output")', not $root/share/raudio/web"
grep -qxF "piper-worker $root/share/raudio/piper/worker.py" <<<"$version_output" \
    || fail "installed raudio runs the Piper worker '$(grep piper-worker <<<"$version_output")', not $root/share/raudio/piper/worker.py"
pass "raudio version: $(head -n 1 <<<"$version_output"), presets, read-along page and Piper worker from DESTDIR$prefix/share/raudio"

RAUDIO_STATE_DIR="$state" "$raudio" speak samples/lighthouse.epub --output null --duration 3 >"$state/speak.out" 2>"$state/speak.err" \
    || fail "installed raudio speak failed: $(cat "$state/speak.err")"
grep -q '"type":"utterance"\|"type": "utterance"' "$state/speak.out" || fail "installed raudio speak reported no utterance"
if grep -q "voice presets\|built-in presets" "$state/speak.err"; then fail "installed raudio speak: $(cat "$state/speak.err")"; fi
pass "installed raudio speaks the sample EPUB to null"

# Bash completion: loads, and completes a subcommand.
completion=$(bash -c 'source "$1" && COMP_WORDS=(raudio spe) && COMP_CWORD=1 && COMP_LINE="raudio spe" && COMP_POINT=${#COMP_LINE} && _raudio && echo "${COMPREPLY[*]}"' _ "$root/share/bash-completion/completions/raudio")
[[ " $completion " == *" speak "* ]] || fail "bash completion of 'raudio spe' gave '$completion', not speak"
pass "bash completion completes 'raudio spe' to speak"

# Bad input: a missing binary is named, and nothing is installed.
if RAUDIO_BINARY=/nonexistent/raudio GENERATE_MANUAL=/nonexistent/generate-manual DESTDIR="$destdir/bad" \
    bash scripts/install.sh install 2>"$state/bad.err"; then
    fail "scripts/install.sh installed a binary that does not exist"
fi
grep -q "/nonexistent/raudio" "$state/bad.err" || fail "scripts/install.sh's error does not name the missing binary"
[[ ! -e "$destdir/bad" ]] || fail "scripts/install.sh created files before failing"
pass "a missing binary is refused by name"

make --no-print-directory uninstall DESTDIR="$destdir" PREFIX="$prefix" >/dev/null
left=$(find "$destdir" -type f | sed "s|^$destdir||")
[[ -z "$left" ]] || fail "make uninstall left: $left"
pass "make uninstall removes every file"
