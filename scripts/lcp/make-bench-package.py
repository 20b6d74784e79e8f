#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Packs one MP3 twice for `make bench` (scripts/bench-lcp.sh): as a clear Readium audiobook, and as an LCP
audiobook (.lcpa) of the basic profile whose licence is signed with EDRLab's published 2026 TEST provider key
(../shared/corpus/lcp), so that it chains to the embedded test root. The crypto is OpenSSL's command line (Debian's
openssl); JSON and ZIP are Python's standard library. The passphrase is written to PASSPHRASE_FILE.

Usage: make-bench-package.py MP3 CORPUS_LCP_DIR OUT_DIR
Writes OUT_DIR/clear.audiobook, OUT_DIR/bench.lcpa and OUT_DIR/passphrase.txt.
"""
import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile


def aes256cbc(key: bytes, data: bytes) -> bytes:
    """IV + AES-256-CBC of data with PKCS#7 padding (a case of the W3C padding LCP readers accept)."""
    iv = os.urandom(16)
    out = subprocess.run(["openssl", "enc", "-aes-256-cbc", "-K", key.hex(), "-iv", iv.hex()],
                         input=data, capture_output=True, check=True).stdout
    return iv + out


def make_licence(lcp_dir: str, licence_id: str, passphrase: str, content_key: bytes, rights: dict) -> dict:
    """A basic-profile licence for content_key, signed with the published 2026 TEST provider key of lcp_dir
    (also used by scripts/readalong/page-test.py for its LCP EPUB)."""
    user_key = hashlib.sha256(passphrase.encode()).digest()
    der = subprocess.run(["openssl", "x509", "-in", os.path.join(lcp_dir, "test-provider-2026-cert.pem"), "-outform", "DER"],
                         capture_output=True, check=True).stdout
    licence = {
        "id": licence_id, "issued": "2026-12-01T00:00:00Z", "updated": "2026-12-01T00:00:00Z",
        "provider": "https://provider.example",
        "encryption": {
            "profile": "http://readium.org/lcp/basic-profile",
            "content_key": {"algorithm": "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
                            "encrypted_value": base64.b64encode(aes256cbc(user_key, content_key)).decode()},
            "user_key": {"algorithm": "http://www.w3.org/2001/04/xmlenc#sha256", "text_hint": "bench",
                         "key_check": base64.b64encode(aes256cbc(user_key, licence_id.encode())).decode()},
        },
        "links": [{"rel": "hint", "href": "https://provider.example/hint"},
                  {"rel": "publication", "href": "https://provider.example/bench.lcpa", "type": "application/audiobook+lcp"}],
        "user": {"id": "bench"},
        "rights": rights,
    }
    canonical = json.dumps(licence, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", os.path.join(lcp_dir, "test-provider-2026-key.pem")],
                               input=canonical, capture_output=True, check=True).stdout
    licence["signature"] = {"algorithm": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
                            "certificate": base64.b64encode(der).decode(), "value": base64.b64encode(signature).decode()}
    return licence


def main() -> None:
    mp3, lcp_dir, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    passphrase = "bench"
    content_key = os.urandom(32)
    licence = make_licence(lcp_dir, "raudio-bench-0001", passphrase, content_key, {"print": 0, "copy": 0})
    audio = open(mp3, "rb").read()
    track = {"href": "audio/book.mp3", "type": "audio/mpeg"}
    manifest = {"@context": "https://readium.org/webpub-manifest/context.jsonld",
                "metadata": {"@type": "http://schema.org/Audiobook", "title": "Bench"}, "readingOrder": [track]}
    with zipfile.ZipFile(os.path.join(out_dir, "clear.audiobook"), "w", zipfile.ZIP_STORED) as package:
        package.writestr("manifest.json", json.dumps(manifest))
        package.writestr("audio/book.mp3", audio)
    track["properties"] = {"encrypted": {"scheme": "http://readium.org/2014/01/lcp",
                                         "profile": "http://readium.org/lcp/basic-profile",
                                         "algorithm": "http://www.w3.org/2001/04/xmlenc#aes256-cbc"}}
    with zipfile.ZipFile(os.path.join(out_dir, "bench.lcpa"), "w", zipfile.ZIP_STORED) as package:
        package.writestr("manifest.json", json.dumps(manifest))
        package.writestr("license.lcpl", json.dumps(licence))
        package.writestr("audio/book.mp3", aes256cbc(content_key, audio))
    with open(os.path.join(out_dir, "passphrase.txt"), "w") as file:
        file.write(passphrase + "\n")


if __name__ == "__main__":
    main()
