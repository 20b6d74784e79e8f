#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make install` and `make uninstall` (and `make deb`, which installs into its package tree).
#
# Installs, under DESTDIR/PREFIX:
#   bin/raudio                                     the binary given (RAUDIO_BINARY)
#   share/raudio/voices/                           the voice presets (raudio finds them from bin/../share/raudio)
#   share/raudio/web/                              the read-along page that `play/speak --web` serves
#   share/raudio/piper/worker.py                   the worker that speaks neural Piper voices (its Python
#                                                  environment comes from `make install-piper`, from PyPI)
#   share/raudio/aligner/worker.py                 raudio align's forced-alignment worker (its Python environment,
#                                                  SoundSwallower from PyPI, in share/raudio/align-venv or RAUDIO_ALIGN_VENV)
#   share/man/man1/raudio.1, raudio.SUBCOMMAND.1   made by swift-argument-parser's generate-manual tool
#   share/bash-completion/completions/raudio       made by `raudio --generate-completion-script bash`
#   share/zsh/site-functions/_raudio               ... zsh (Debian layout: share/zsh/vendor-completions)
#   share/fish/vendor_completions.d/raudio.fish    ... fish
#   share/doc/raudio/                              README, CHANGELOG, THIRD_PARTY, LICENSE (not with --debian)
# Man pages and completions are made from the binary being installed, so they always match its --help.
#
# Usage: scripts/install.sh install [--debian]   (RAUDIO_BINARY and GENERATE_MANUAL must be set)
#        scripts/install.sh uninstall             (removes exactly those files)
# Environment: PREFIX (default /usr/local), DESTDIR (default empty), RAUDIO_BINARY, GENERATE_MANUAL.
#   --debian: Debian's places and forms: zsh's vendor-completions, man pages compressed with gzip -9n,
#   no doc folder (make-deb.sh writes Debian's copyright and changelog there).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() { echo "usage: $0 install [--debian] | uninstall" >&2; exit 64; }
say() { echo "install: $*" >&2; }

action="${1:-}"
debian=0
case "$action" in
    install) [[ "${2:-}" == "--debian" ]] && debian=1 ;;
    uninstall) ;;
    *) usage ;;
esac

PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
if [[ "$PREFIX" != /* ]]; then
    say "PREFIX must be an absolute path, not '$PREFIX'"
    exit 64
fi
root="$DESTDIR$PREFIX"
bin_dir="$root/bin"
data_dir="$root/share/raudio"
man_dir="$root/share/man/man1"
bash_dir="$root/share/bash-completion/completions"
zsh_dir="$root/share/zsh/site-functions"
(( debian )) && zsh_dir="$root/share/zsh/vendor-completions"
fish_dir="$root/share/fish/vendor_completions.d"
doc_dir="$root/share/doc/raudio"

if [[ "$action" == uninstall ]]; then
    rm -f "$bin_dir/raudio" "$man_dir"/raudio.1 "$man_dir"/raudio.*.1 \
        "$bash_dir/raudio" "$root/share/zsh/site-functions/_raudio" "$root/share/zsh/vendor-completions/_raudio" \
        "$fish_dir/raudio.fish"
    rm -rf "$data_dir" "$doc_dir"
    say "removed raudio from $root"
    exit 0
fi

binary="${RAUDIO_BINARY:?set RAUDIO_BINARY to the raudio binary to install (make install does)}"
generate_manual="${GENERATE_MANUAL:?set GENERATE_MANUAL to the generate-manual tool of swift-argument-parser (make install builds it)}"
for tool in "$binary" "$generate_manual"; do
    if [[ ! -x "$tool" ]]; then
        say "$tool is not an executable; build it first (make release)"
        exit 66
    fi
done

# The date in the man pages: the newest CHANGELOG.md entry's, so the pages of one version never change.
release_date=$(sed -n 's/^## [^ ]* (\([0-9-]*\)).*/\1/p' CHANGELOG.md | head -n 1)
release_date="${release_date:-$(date -u +%Y-%m-%d)}"

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/man"
"$generate_manual" "$binary" --multi-page --date "$release_date" --output-directory "$staging/man" \
    --authors "The raudio project"
# generate-manual separates the paragraphs of a discussion with empty lines, which mdoc does not allow
# (groff warns, lintian's groff-message): a paragraph break in mdoc is .Pp.
sed -i 's/^$/.Pp/' "$staging"/man/*.1
# whatis (lexgrog, man -k) reads one word per name: a subcommand's page is named "raudio.play" in its NAME
# section, as its file is, while its synopsis keeps the words typed, "raudio play".
for page in "$staging"/man/raudio.*.1; do
    spaced=$(sed -n 's/^\.Nm "\(.*\)"$/\1/p' "$page" | head -n 1)
    [[ "$spaced" == *" "* ]] || continue
    sed -i -e "/^\.Sh NAME\$/,/^\.Sh /s/^\.Nm \"$spaced\"\$/.Nm ${spaced// /.}/" \
        -e "/^\.Sh SYNOPSIS\$/,\$s/^\.Nm\$/.Nm \"$spaced\"/" "$page"
done
for shell in bash zsh fish; do
    "$binary" --generate-completion-script "$shell" >"$staging/raudio.$shell"
done
# A completion file is sourced, not run: no #! line (Debian's policy, lintian's bash-completion-with-hashbang).
sed -i '1{/^#!/d}' "$staging/raudio.bash"

install -d "$bin_dir" "$data_dir/voices" "$data_dir/web" "$data_dir/piper" "$data_dir/aligner" "$man_dir" "$bash_dir" "$zsh_dir" "$fish_dir"
install -m 0755 "$binary" "$bin_dir/raudio"
install -m 0644 voices/*.json voices/README.md "$data_dir/voices/"
install -m 0644 web/*.html web/*.css web/*.js "$data_dir/web/"
install -m 0644 piper/worker.py "$data_dir/piper/"
install -m 0644 aligner/worker.py "$data_dir/aligner/"
for page in "$staging"/man/*.1; do
    if (( debian )); then
        gzip -9n <"$page" >"$man_dir/$(basename "$page").gz"
        chmod 0644 "$man_dir/$(basename "$page").gz"
    else
        install -m 0644 "$page" "$man_dir/"
    fi
done
install -m 0644 "$staging/raudio.bash" "$bash_dir/raudio"
install -m 0644 "$staging/raudio.zsh" "$zsh_dir/_raudio"
install -m 0644 "$staging/raudio.fish" "$fish_dir/raudio.fish"
if (( ! debian )); then
    install -d "$doc_dir"
    install -m 0644 README.md CHANGELOG.md THIRD_PARTY.md LICENSE "$doc_dir/"
fi
say "installed raudio $("$binary" --version) into $root"
