#!/usr/bin/env python3
"""Grows a fieldnotes site (the bundled one by default) to at least N research notes, in whole
rounds of copies of its notes (so every copy's links land), under new ids: copy k of note `x` is `x-k`, titled `<title> (k)`, and every note id it
names (in `related`, in body links) becomes that note's copy k too, so each round of copies
links among itself as the originals do. Everything else (clients, capabilities, guides,
observations, site.yaml) is copied as it is.

    bench/grow_site.py OUT --notes N [--site DIR]

Python 3.8+, standard library only.
"""

import argparse
import os
import re
import shutil


def title_of(text):
    m = re.search(r"^title: (.*)$", text, re.M)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--notes", type=int, required=True)
    ap.add_argument("--site", default=os.path.join(os.path.dirname(__file__), ".."))
    a = ap.parse_args()
    shutil.copytree(os.path.join(a.site, "content"), os.path.join(a.out, "content"))
    shutil.copy(os.path.join(a.site, "site.yaml"), os.path.join(a.out, "site.yaml"))
    research = os.path.join(a.out, "content", "research")
    originals = {}
    for name in sorted(os.listdir(research)):
        if name.endswith(".md"):
            with open(os.path.join(research, name)) as f:
                originals[name[:-3]] = f.read()
    ids = sorted(originals, key=len, reverse=True)
    # An id is a whole word of kebab case: not followed or preceded by more of one.
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    count, k = len(originals), 1
    while count < a.notes:
        for nid, text in originals.items():
            title = title_of(text)
            copy = pattern.sub(lambda m: f"{m.group(1)}-{k}", text)
            if title:
                copy = copy.replace(title, f"{title} ({k})")
            with open(os.path.join(research, f"{nid}-{k}.md"), "w") as f:
                f.write(copy)
            count += 1
        k += 1
    print(f"{count} notes in {a.out}")


if __name__ == "__main__":
    main()
