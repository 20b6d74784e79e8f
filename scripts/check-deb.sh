#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package as a user gets it (run by .ci/run, as root): `make deb`, then `apt-get install` of the
# .deb, and from the installed package: `raudio version` (the presets it was installed with), the sample
# audiobook played and the sample EPUB spoken to the null output, `man raudio`, the bash completion loaded
# by bash-completion from Debian's place, `ldd` listing no Swift library and nothing missing, Depends naming
# the packages of the libraries raudio loads with dlopen (eSpeak NG, libpulse, libsystemd); lintian ran
# in `make deb`. Then the package is removed (purged) and must leave no raudio behind.
#
# Usage: scripts/check-deb.sh   (root, or password-less sudo, for apt-get)
# Exit status: 0 when everything held, 1 naming the first thing that did not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() { echo "check-deb: FAILED: $*" >&2; exit 1; }
pass() { echo "check-deb: ok: $*"; }
if [[ "$(id -u)" == 0 ]]; then sudo=(); else sudo=(sudo -n); fi

if dpkg-query -W -f='${Status}' raudio 2>/dev/null | grep -q "installed"; then
    fail "a raudio package is already installed; remove it first (apt-get purge raudio)"
fi

start=$SECONDS
deb=$(make --no-print-directory deb | tail -n 1)
[[ -f "$deb" && "$deb" == build/deb/raudio_*_*.deb ]] || fail "make deb printed '$deb', not a build/deb/raudio_VERSION_ARCH.deb"
pass "make deb built $deb, lintian clean ($((SECONDS - start)) s)"

start=$SECONDS
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "./$deb" >/dev/null
trap '"${sudo[@]}" apt-get purge -y -qq raudio >/dev/null 2>&1 || true' EXIT
pass "apt-get install ./$deb ($((SECONDS - start)) s)"

raudio=/usr/bin/raudio
[[ "$(command -v raudio)" == "$raudio" ]] || fail "raudio on PATH is $(command -v raudio), not the package's $raudio"
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/RAudioEngine/RAudioVersion.swift)
[[ "$deb" == "build/deb/raudio_${version}_$(dpkg --print-architecture).deb" ]] || fail "$deb is not named after version $version"
output=$(cd / && raudio version)
[[ "$(head -n 1 <<<"$output")" == "raudio $version" ]] || fail "raudio version printed '$(head -n 1 <<<"$output")'"
[[ "$(tail -n 1 <<<"$output")" == "voice-presets /usr/share/raudio/voices" ]] \
    || fail "the installed raudio reads its presets from '$(tail -n 1 <<<"$output")', not /usr/share/raudio/voices"
grep -qxF "read-along-page /usr/share/raudio/web" <<<"$output" \
    || fail "the installed raudio serves its read-along page from '$(grep read-along-page <<<"$output")', not /usr/share/raudio/web"
pass "raudio version: $(head -n 1 <<<"$output"), $(tail -n 1 <<<"$output"), read-along page in /usr/share/raudio/web"

swift_libraries=$(ldd "$raudio" | grep -iE 'swift|Foundation|libdispatch|libBlocksRuntime' || true)
[[ -z "$swift_libraries" ]] || fail "ldd lists Swift libraries: $swift_libraries"
missing=$(ldd "$raudio" | grep "not found" || true)
[[ -z "$missing" ]] || fail "libraries not found: $missing"
pass "ldd: $(ldd "$raudio" | wc -l) libraries, no Swift library, none missing"
# The libraries loaded with dlopen (not seen by dpkg-shlibdeps) are in Depends all the same.
package_depends=$(dpkg-query -W -f='${Depends}' raudio)
for soname in $(sed -n 's/^#define SONAME "\(.*\)"$/\1/p' Sources/C*/*.c); do
    package=$(dpkg-query -S "*/$soname" 2>/dev/null | grep -v '^raudio' | head -n 1 | cut -d: -f1)
    grep -qE "(^|, )$package( |,|$)" <<<"$package_depends" || fail "Depends ($package_depends) lacks $package, which holds $soname (loaded with dlopen)"
done
pass "Depends names the packages of the libraries loaded with dlopen: $package_depends"

work=$(mktemp -d)
trap '"${sudo[@]}" apt-get purge -y -qq raudio >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
book=$PWD/samples/gull-rock.audiobook
epub=$PWD/samples/lighthouse.epub
(cd "$work" && RAUDIO_NO_STATE=1 raudio play "$book" --output null >play.out 2>play.err) \
    || fail "raudio play $book failed: $(cat "$work/play.err")"
grep -q '"state":"ended"' "$work/play.out" || fail "raudio play did not reach the end of the sample audiobook"
pass "raudio play samples/gull-rock.audiobook --output null: $(grep -c '"type":"position"' "$work/play.out") positions, ended"
(cd "$work" && RAUDIO_NO_STATE=1 raudio speak "$epub" --output null >speak.out 2>speak.err) \
    || fail "raudio speak $epub failed: $(cat "$work/speak.err")"
grep -q '"state":"ended"' "$work/speak.out" || fail "raudio speak did not reach the end of the sample EPUB"
[[ ! -s "$work/speak.err" ]] || fail "raudio speak warned: $(cat "$work/speak.err")"
pass "raudio speak samples/lighthouse.epub --output null: $(grep -c '"type":"utterance"' "$work/speak.out") utterances, ended"

page=$(MANPAGER=cat MANWIDTH=80 man raudio 2>&1) || fail "man raudio: $page"
grep -q "A headless audiobook" <<<"$page" || fail "man raudio does not show raudio's page: $page"
MANPAGER=cat man raudio.speak 2>/dev/null | grep -q -- "--voice" || fail "man raudio.speak does not document --voice"
pass "man raudio, man raudio.speak"

# bash-completion loads a command's completion from /usr/share/bash-completion/completions on first use.
completion=$(bash -c 'source /usr/share/bash-completion/bash_completion && __load_completion raudio \
    && COMP_WORDS=(raudio pl) && COMP_CWORD=1 && COMP_LINE="raudio pl" && COMP_POINT=${#COMP_LINE} \
    && _raudio && echo "${COMPREPLY[*]}"')
[[ " $completion " == *" play "* ]] || fail "bash completion of 'raudio pl' gave '$completion'"
pass "bash completion loaded by bash-completion completes 'raudio pl' to play"

start=$SECONDS
"${sudo[@]}" apt-get purge -y -qq raudio >/dev/null
trap 'rm -rf "$work"' EXIT
[[ ! -e "$raudio" && ! -e /usr/share/raudio ]] || fail "apt-get purge raudio left $raudio or /usr/share/raudio"
pass "apt-get purge raudio removes it ($((SECONDS - start)) s)"
