# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by scripts/bench.sh and scripts/soak.sh: the generated 10-hour test audiobook.

# make_long_book BOOK_DIR LOG_FILE: writes to BOOK_DIR (once; reused when its manifest exists) a 10-hour
# audiobook of 100 distinct 6-minute tracks (sine tones of different pitches, 8 kb/s mono MP3) with its
# manifest.json; sox and lame write their messages to LOG_FILE. Returns non-zero when a tool fails.
make_long_book() {
    local book="$1" log="$2"
    [[ -s "$book/manifest.json" ]] && return 0
    echo "generating $book (once; 100 tracks of 6 minutes)" >&2
    local tmp="$book.tmp" index name entries="" frequency
    rm -rf "$tmp" && mkdir -p "$tmp" || return 1
    for index in $(seq 1 100); do
        name=$(printf 'track-%03d.mp3' "$index")
        frequency=$((200 + 7 * index))
        sox -n -r 8000 -c 1 -b 16 -t raw -e signed - synth 360 sine "$frequency" vol 0.3 2>>"$log" \
            | lame --quiet -r -s 8 --bitwidth 16 --signed --little-endian -m m -b 8 - "$tmp/$name" \
            2>>"$log" || return 1
        entries+="${entries:+,}{\"href\":\"$name\",\"type\":\"audio/mpeg\",\"title\":\"Track $index\",\"duration\":360}"
    done
    cat >"$tmp/manifest.json" <<JSON
{"@context":"https://readium.org/webpub-manifest/context.jsonld",
 "metadata":{"@type":"http://schema.org/Audiobook","conformsTo":"https://readium.org/webpub-manifest/profiles/audiobook",
  "identifier":"urn:raudio:bench:10h","title":"raudio benchmark: ten hours","language":"en","duration":36000},
 "readingOrder":[$entries]}
JSON
    rm -rf "$book" && mv "$tmp" "$book"
}
