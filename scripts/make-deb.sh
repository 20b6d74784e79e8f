#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make deb`: builds build/deb/raudio_VERSION_ARCH.deb with dpkg-deb from a release binary, then runs lintian.
#
# The package's tree is what `scripts/install.sh install --debian` puts under /usr (binary, voice presets,
# man pages, completions in Debian's places), with the binary stripped, plus Debian's own files:
# /usr/share/doc/raudio/copyright (machine-readable, from LICENSE and THIRD_PARTY.md), changelog.gz (Debian's
# format, made from CHANGELOG.md). The package needs no lintian override: it is clean as it is. The
# version is the binary's own (`raudio --version`, RAudioVersion.current); `Depends` is computed by
# dpkg-shlibdeps from the libraries the binary links, plus the packages of the libraries it loads with
# dlopen but always needs (eSpeak NG, libpulse, libsystemd; found from the sonames in Sources/C*/*Loader.c);
# `Recommends` names the packages of the FFmpeg libraries raudio loads with dlopen (which dpkg-shlibdeps
# cannot see), found with dpkg-query from the sonames in FFmpegLibrary.swift.
#
# Usage: scripts/make-deb.sh RAUDIO_BINARY GENERATE_MANUAL
# Prints the path of the .deb on its last line. Fails if lintian reports an error or a warning.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

binary="${1:?usage: make-deb.sh RAUDIO_BINARY GENERATE_MANUAL}"
generate_manual="${2:?usage: make-deb.sh RAUDIO_BINARY GENERATE_MANUAL}"
say() { echo "make-deb: $*" >&2; }

for tool in dpkg-deb dpkg-shlibdeps lintian; do
    command -v "$tool" >/dev/null || { say "$tool is missing: run make deps (it installs dpkg-dev and lintian)"; exit 69; }
done
[[ -x "$binary" ]] || { say "$binary is not an executable: run make release"; exit 66; }

maintainer="The raudio project <raudio@example.org>"
version=$("$binary" --version)
architecture=$(dpkg --print-architecture)
name="raudio_${version}_${architecture}"
out=build/deb
tree="$out/$name"
rm -rf "$tree" "$out/$name.deb"
mkdir -p "$tree/DEBIAN"

PREFIX=/usr DESTDIR="$tree" RAUDIO_BINARY="$binary" GENERATE_MANUAL="$generate_manual" \
    bash scripts/install.sh install --debian
# As dh_strip does: no debugging symbols, no .comment or .note sections (the Swift metadata sections stay).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$tree/usr/bin/raudio"
"$tree/usr/bin/raudio" --version >/dev/null || { say "the stripped binary does not run"; exit 70; }

doc="$tree/usr/share/doc/raudio"
install -d "$doc"
install -m 0644 README.md THIRD_PARTY.md "$doc/"
python3 scripts/debian-changelog.py CHANGELOG.md "$maintainer" | gzip -9n >"$doc/changelog.gz"
{
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: raudio"
    echo "Comment: The libraries raudio uses, with their licences, are listed in"
    echo " /usr/share/doc/raudio/THIRD_PARTY.md. The Swift standard library, Foundation and"
    echo " swift-foundation-icu linked into the binary are Apache-2.0 with the Swift Runtime"
    echo " Library Exception (ICU: Unicode-3.0); ZIPFoundation is MIT;"
    echo " swift-argument-parser, swift-atomics, swift-collections and swift-system are"
    echo " Apache-2.0 with the Runtime Library Exception; swift-nio is Apache-2.0."
    echo
    echo "Files: *"
    echo "Copyright: 2026 The raudio project"
    echo "License: GPL-3+"
    echo
    echo "License: GPL-3+"
    echo " This program is free software: you can redistribute it and/or modify it under the terms"
    echo " of the GNU General Public License as published by the Free Software Foundation, either"
    echo " version 3 of the License, or (at your option) any later version."
    echo " ."
    echo " On Debian systems, the complete text of the GNU General Public License version 3 can be"
    echo " found in /usr/share/common-licenses/GPL-3."
} >"$doc/copyright"

# Depends: what the binary links, as dpkg-shlibdeps reads it (it needs a debian/control to run in).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: raudio\n\nPackage: raudio\nArchitecture: any\n' >"$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "$OLDPWD/$tree/usr/bin/raudio" 2>"$work/shlibdeps.err" | sed -n 's/^shlibs:Depends=//p') \
    || { cat "$work/shlibdeps.err" >&2; say "dpkg-shlibdeps failed"; exit 70; }
[[ -n "$depends" ]] || { say "dpkg-shlibdeps found no dependencies"; exit 70; }
# Packed relative relocations (DT_RELR, Package.swift's linker flags) need glibc 2.36 (GLIBC_ABI_DT_RELR),
# which dpkg-shlibdeps does not count: raise its libc6 version to that when it asks less.
if readelf -d "$tree/usr/bin/raudio" | grep -q '(RELR)'; then
    libc_version=$(grep -oE 'libc6 \(>= [^)]+\)' <<<"$depends" | sed -E 's/libc6 \(>= (.*)\)/\1/' | head -n 1)
    if [[ -z "$libc_version" ]]; then
        depends="$depends, libc6 (>= 2.36)"
    elif dpkg --compare-versions "$libc_version" lt 2.36; then
        depends=$(sed -E 's/libc6 \(>= [^)]+\)/libc6 (>= 2.36)/' <<<"$depends")
    fi
fi
# And the libraries raudio needs but loads with dlopen on first use instead of linking them (eSpeak NG,
# libpulse, libsystemd: each Sources/C*/*Loader.c names its soname in a `#define SONAME`), which
# dpkg-shlibdeps cannot see: required all the same, so in Depends.
for soname in $(sed -n 's/^#define SONAME "\(.*\)"$/\1/p' Sources/C*/*.c); do
    package=$(dpkg-query -S "*/$soname" 2>/dev/null | head -n 1 | cut -d: -f1)
    [[ -n "$package" ]] || { say "no installed package holds $soname (make deps installs it)"; exit 69; }
    grep -qE "(^|, )$package( |,|$)" <<<"$depends" || depends="$depends, $package"
done

# Recommends: the packages holding the first soname of each FFmpeg library FFmpegLibrary.swift dlopens.
# Neither FFmpeg nor libcurl is linked, so dpkg-shlibdeps cannot see them.
recommends=()
for soname in $(grep -o '("libav[a-z]*", \["[^"]*"' Sources/RAudioEngine/Decoders/FFmpegLibrary.swift | sed 's/.*\["//; s/"$//'); do
    package=$(dpkg-query -S "*/$soname" 2>/dev/null | head -n 1 | cut -d: -f1)
    [[ -n "$package" ]] || { say "no installed package holds $soname (make deps installs FFmpeg)"; exit 69; }
    recommends+=("$package")
done
# And libcurl's, which CurlLibrary.swift dlopens for remote publications (the first soname it tries).
curl_soname=$(grep -o 'sonames = \["[^"]*"' Sources/RAudioEngine/HTTP/CurlLibrary.swift | sed 's/.*\["//; s/"$//')
package=$(dpkg-query -S "*/$curl_soname" 2>/dev/null | head -n 1 | cut -d: -f1)
[[ -n "$package" ]] || { say "no installed package holds $curl_soname (make deps installs libcurl)"; exit 69; }
recommends+=("$package")
recommends_line=$(IFS=,; echo "${recommends[*]}" | sed 's/,/, /g')

chmod -R u=rwX,go=rX "$tree"
(cd "$tree" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$tree/DEBIAN/md5sums"
chmod 0644 "$tree/DEBIAN/md5sums"
installed_size=$(du -sk --exclude=DEBIAN "$tree" | cut -f1)
cat >"$tree/DEBIAN/control" <<EOF
Package: raudio
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: $recommends_line
Section: sound
Priority: optional
Description: headless audiobook and text-to-speech player for Readium publications
 raudio plays Readium audiobooks (.audiobook, RWPM manifests, W3C Audiobooks,
 folders of audio files, lone M4B, MP3, Opus, Ogg and FLAC files) through
 PulseAudio, reads EPUBs aloud with eSpeak NG, and plays EPUB 3 Media Overlays,
 reporting where it is as Readium locators.
 .
 Programs drive it through JSON-lines events and commands on stdout and stdin;
 people use its terminal player or the desktop's media keys (MPRIS). It
 remembers where each book was left, with bookmarks and a sleep timer.
EOF

dpkg-deb --root-owner-group -Zxz --build "$tree" "$out/$name.deb" >/dev/null
say "built $out/$name.deb (Depends: $depends; Recommends: $recommends_line)"

# lintian as the Debian archive runs it; any error or warning fails the build. Its notes (--display-info)
# are left out: hardening-no-bindnow and -fortify-functions (Swift's driver links without -z now and the C shims have
# no fortifiable calls), voices/README.md beside the presets (it documents their format, where they are),
# and spelling in the strings of the statically linked Swift runtime and ICU.
status=0
report=$(lintian --fail-on error,warning "$out/$name.deb" 2>&1) || status=$?
grep -v "running with root privileges" <<<"$report" >&2 || true
(( status == 0 )) || { say "lintian found errors or warnings (above)"; exit 1; }
say "lintian: no errors or warnings"
echo "$out/$name.deb"
