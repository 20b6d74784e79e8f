#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Zips samples/<name>-epub/ into samples/<name>.epub: `mimetype` first and stored (uncompressed), as the
# EPUB OCF spec requires, then everything else deflated. Reproducible: fixed timestamps, sorted entries.
# Usage: scripts/make-sample-epub.sh [NAME]   (default: lighthouse)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
name="${1:-lighthouse}"
folder="samples/${name}-epub"
out="$PWD/samples/${name}.epub"
[ -f "$folder/mimetype" ] || { echo "make-sample-epub: $folder/mimetype is missing" >&2; exit 66; }
command -v zip >/dev/null || { echo "make-sample-epub: zip is missing (apt-get install zip)" >&2; exit 69; }
rm -f "$out"
cd "$folder"
find . -exec touch -h -d '2024-01-01 00:00:00' {} +
zip -X -q -0 "$out" mimetype
find . -type f ! -name mimetype | sed 's|^\./||' | LC_ALL=C sort | zip -X -q -9 "$out" -@
echo "wrote samples/${name}.epub"
