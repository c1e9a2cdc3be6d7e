#!/usr/bin/env python3
"""Writes Fuzz/Corpus/SmallPayloads/: each sample of Samples/Payloads with every array cut to its first
two elements (and JSON kept inside strings, such as Segmentify's dynamicItems, cut the same way), so
seeds stay under the fuzzers' input size and each mutation runs fast. Run it again when the samples change."""
import json, pathlib

def small(value):
    if isinstance(value, list):
        return [small(v) for v in value[:2]]
    if isinstance(value, dict):
        return {k: small(v) for k, v in value.items()}
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.dumps(small(json.loads(value)), ensure_ascii=False)
        except ValueError:
            return value
    return value

here = pathlib.Path(__file__).resolve().parent
out = here / "SmallPayloads"
out.mkdir(exist_ok=True)
for path in sorted((here.parent.parent / "Samples" / "Payloads").glob("*.json")):
    text = json.dumps(small(json.loads(path.read_text())), ensure_ascii=False, indent=1)
    (out / path.name).write_text(text + "\n")
