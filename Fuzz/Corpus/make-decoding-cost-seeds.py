#!/usr/bin/env python3
"""Writes Fuzz/Corpus/FuzzDecodingCost/: Segmentify replies of issue 40's shapes, scaled to the fuzzers' input
size (20 KiB): many dynamic items of itemCount 1 naming one source, over many copies of one product (elimination
on) or over entries that are not products ({}), in the v2 form (lists by source) and the v3 form (a list per
item). A decoder that walks a shared list again for each item, or reports each product it passes over again,
costs items x entries on them. And one item over 1,000 entries `1`, each a failure the report lists: the
most a linear decoder spends on a few bytes. Run it again to change them."""
import json, pathlib

def reply(items, entries, elimination, v3, entry):
    dynamic = [{"recommendationSource": "S", "itemCount": 1} for _ in range(items)]
    params = {"instanceId": "b", "actionId": "a", "dynamicItems": dynamic}
    if elimination:
        params["elimination"] = "ELIMINATE_DUPLICATES"
    if v3:
        params["recommendedProducts"] = [[]] + [[entry] * entries for _ in range(2)] + [[] for _ in range(items - 2)]
    else:
        params["recommendedProducts"] = {"S": [entry] * entries}
    body = {"statusCode": "SUCCESS", "responses": [[{"type": "recommendProducts", "params": params}]]}
    return json.dumps(body, separators=(",", ":"))

here = pathlib.Path(__file__).resolve().parent / "FuzzDecodingCost"
here.mkdir(exist_ok=True)
copy = {"productId": "p"}
seeds = {
    "copies-of-one-product-elimination.json": reply(200, 200, True, False, copy),
    "copies-of-one-product.json": reply(200, 200, False, False, copy),
    "entries-not-products.json": reply(200, 400, False, False, {}),
    "entries-not-products-elimination.json": reply(200, 400, True, False, {}),
    "copies-of-one-product-v3.json": reply(150, 300, True, True, copy),
}
seeds["entries-listed.json"] = reply(1, 1000, False, False, 1).replace('"itemCount":1}', '"itemCount":1000}')
for name, text in seeds.items():
    assert len(text) <= 20480, (name, len(text))
    (here / name).write_text(text + "\n")
    print(name, len(text))
