#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the sample audiobook in samples/ from the text in samples/text/, deterministically.
#
# Each text file holds one paragraph a line. Every paragraph is spoken by espeak-ng (22050 Hz mono WAV),
# the paragraphs are joined with 0.6 s of silence, then each track gets its own format and rate so that
# a player has to decode both codecs and resample between tracks:
#   01-the-storm.mp3  English  MP3 (lame VBR -V 7 -B 48, LAME gapless header) 22050 Hz mono
#   02-the-ship.ogg   English  Ogg Vorbis (oggenc -q 1)                     44100 Hz stereo
#   03-le-matin.mp3   French   MP3 (lame VBR -V 7 -B 48, LAME gapless header) 16000 Hz mono
# It then writes samples/gull-rock/manifest.json (durations measured on the decoded files, a toc entry
# with a #t= fragment where each second paragraph starts) and samples/gull-rock.audiobook, a ZIP with
# manifest.json at its root and the audio stored uncompressed, with fixed dates and permissions.
#
# Needs: espeak-ng sox lame vorbis-tools mpg123 zip python3 (scripts/install-deps.sh installs them).
# Usage: scripts/make-samples.sh   (run from anywhere; rewrites samples/gull-rock and the .audiobook)
set -euo pipefail
export LC_ALL=C.UTF-8 TZ=UTC

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
text="$root/samples/text"
book="$root/samples/gull-rock"
package="$root/samples/gull-rock.audiobook"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# stem | espeak-ng voice | title | codec | rate | channels | text file
TRACKS=(
    "01-the-storm|en|Chapter 1: The Storm|mp3|22050|1|01-the-storm.en.txt"
    "02-the-ship|en|Chapter 2: The Ship|ogg|44100|2|02-the-ship.en.txt"
    "03-le-matin|fr|Chapitre 3 : Le matin|mp3|16000|1|03-le-matin.fr.txt"
)
GAP=0.6   # seconds of silence between paragraphs

rm -rf "$book" "$package"
mkdir -p "$book"
# -D everywhere: sox dithers with random noise by default, and the samples must come out the same.
sox -D -n -r 22050 -c 1 -b 16 "$work/gap.wav" trim 0 "$GAP"

: >"$work/tracks.tsv"
for track in "${TRACKS[@]}"; do
    IFS='|' read -r stem voice title codec rate channels source <<<"$track"
    parts=()
    second_paragraph_at=""
    offset_samples=0
    n=0
    while IFS= read -r paragraph || [[ -n "$paragraph" ]]; do
        [[ -n "$paragraph" ]] || continue
        n=$((n + 1))
        if (( n > 1 )); then
            parts+=("$work/gap.wav")
            offset_samples=$((offset_samples + $(soxi -s "$work/gap.wav")))
            [[ -n "$second_paragraph_at" ]] || second_paragraph_at=$offset_samples
        fi
        espeak-ng -v "$voice" -w "$work/$stem-$n.wav" "$paragraph"
        parts+=("$work/$stem-$n.wav")
        offset_samples=$((offset_samples + $(soxi -s "$work/$stem-$n.wav")))
    done <"$text/$source"
    sox "${parts[@]}" "$work/$stem.wav"
    sox -D "$work/$stem.wav" -r "$rate" -c "$channels" "$work/$stem-final.wav"

    case "$codec" in
        mp3)
            # VBR: at these low rates a CBR frame is too small for the LAME tag that makes MP3 gapless.
            lame --quiet --noreplaygain -V 7 -B 48 --tt "$title" --ta "eSpeak NG" \
                --tl "The Last Lamp of Gull Rock" --tn "${stem%%-*}" --ty 2026 \
                "$work/$stem-final.wav" "$book/$stem.mp3"
            # Decode with gapless handling to measure what a player will play.
            mpg123 --quiet --gapless -w "$work/$stem-decoded.wav" "$book/$stem.mp3"
            decoded_samples=$(soxi -s "$work/$stem-decoded.wav")
            media_type=audio/mpeg ;;
        ogg)
            oggenc --quiet -q 1 --serial 1 -t "$title" -a "eSpeak NG" \
                -l "The Last Lamp of Gull Rock" -N "${stem%%-*}" -d 2026 \
                -o "$book/$stem.ogg" "$work/$stem-final.wav"
            decoded_samples=$(soxi -s "$book/$stem.ogg")
            media_type=audio/ogg ;;
    esac
    source_samples=$(soxi -s "$work/$stem-final.wav")
    if [[ "$decoded_samples" != "$source_samples" ]]; then
        echo "make-samples: $stem.$codec decodes to $decoded_samples samples, expected $source_samples" >&2
        exit 1
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$stem.$codec" "$media_type" "$title" "$voice" \
        "$decoded_samples" "$rate" "$second_paragraph_at" >>"$work/tracks.tsv"
done

python3 - "$work/tracks.tsv" "$book" <<'PY'
import json, os, sys

tracks_tsv, book = sys.argv[1], sys.argv[2]
SPEECH_RATE = 22050  # espeak-ng's rate: the second paragraph's offset is counted in its samples
second_titles = {
    "01-the-storm.mp3": "The lamp goes out",
    "02-the-ship.ogg": "The light on the water",
    "03-le-matin.mp3": "La lettre",
}
reading_order, toc, total = [], [], 0.0
for line in open(tracks_tsv, encoding="utf-8"):
    href, media_type, title, language, samples, rate, second_at = line.rstrip("\n").split("\t")
    duration = round(int(samples) / int(rate), 3)
    total += duration
    size = os.path.getsize(os.path.join(book, href))
    reading_order.append({
        "href": href, "type": media_type, "title": title, "language": language,
        "duration": duration, "bitrate": round(size * 8 / duration / 1000),
    })
    toc.append({
        "href": href, "title": title,
        "children": [{"href": f"{href}#t={int(second_at) / SPEECH_RATE:.2f}", "title": second_titles[href]}],
    })

manifest = {
    "@context": "https://readium.org/webpub-manifest/context.jsonld",
    "metadata": {
        "@type": "http://schema.org/Audiobook",
        "conformsTo": "https://readium.org/webpub-manifest/profiles/audiobook",
        "identifier": "urn:uuid:8ccfd066-7146-4fad-9f6f-fe780b58300c",
        "title": "The Last Lamp of Gull Rock",
        "author": "The raudio project",
        "narrator": "eSpeak NG",
        "language": ["en", "fr"],
        "published": "2026-11-22",
        "description": "A very short story in three chapters, two in English and one in French, "
                       "spoken by eSpeak NG. Made by the raudio project as its sample audiobook; CC0.",
        "duration": round(total, 3),
    },
    "links": [],
    "readingOrder": reading_order,
    "toc": toc,
}
with open(os.path.join(book, "manifest.json"), "w", encoding="utf-8") as out:
    json.dump(manifest, out, ensure_ascii=False, indent=2)
    out.write("\n")
PY

# The packaged form: fixed dates, modes and order, no extra attributes; JSON deflated, audio stored.
chmod 644 "$book"/*
touch -d '2026-11-22 00:00:00' "$book"/*
(cd "$book" && zip -q -X -D -9 "$package" manifest.json \
    && zip -q -X -D -0 "$package" $(cut -f1 "$work/tracks.tsv"))

echo "made $book and $package:"
ls -l "$book" "$package" | sed 's/^/  /'
