#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Validate OPDS 2 documents against the OPDS schemas of the shared corpus, offline.

Usage: opds-validate.py SCHEMA-DIR feed|authentication FILE...
SCHEMA-DIR is ../shared/corpus/schema (its opds/ and webpub-manifest/ schemas are registered by their $id).
Exit status: 0 when every file is valid, 1 when one is not, 2 on usage errors. Needs the Python packages
jsonschema (4.18 or later) and referencing, as ../shared/tools/readium-validate does (whose loading this follows:
the upstream BCP-47 patterns' ECMA-262 named groups "(?<name>" are rewritten "(?P<name>" for Python's re).
"""
import glob, json, os, re, sys

try:
    from jsonschema import Draft7Validator
    from referencing import Registry, Resource
except ImportError:
    sys.exit("opds-validate needs the Python packages jsonschema and referencing")

ECMA_GROUP = re.compile(r"\(\?<(?![=!])")
SCHEMAS = {
    "feed": "https://drafts.opds.io/schema/feed.schema.json",
    "authentication": "https://drafts.opds.io/schema/authentication.schema.json",
}

def load(schema_dir):
    resources, by_name = [], {}
    for path in glob.glob(os.path.join(schema_dir, "**", "*.json"), recursive=True):
        try:
            doc = json.loads(ECMA_GROUP.sub("(?P<", open(path, encoding="utf-8").read()))
        except ValueError:
            continue
        if isinstance(doc, dict) and "$id" in doc:
            resources.append((doc["$id"], Resource.from_contents(doc)))
            if "/opds/" in path:
                by_name[os.path.basename(path).split(".")[0]] = doc
    return Registry().with_resources(resources), by_name

def main(argv):
    if len(argv) < 4 or argv[2] not in SCHEMAS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    registry, by_name = load(argv[1])
    schema = by_name.get(argv[2])
    if schema is None:
        print("no %s schema in %s" % (argv[2], argv[1]), file=sys.stderr)
        return 2
    validator = Draft7Validator(schema, registry=registry)
    ok = True
    for path in argv[3:]:
        doc = json.load(open(path, encoding="utf-8"))
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        print(("valid    " if not errors else "INVALID  ") + path)
        for e in errors[:8]:
            print("    ", "/".join(map(str, e.path)) or "(root)", "-", e.message[:200])
        ok &= not errors
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main(sys.argv))
