#!/usr/bin/env python3
"""The pipeline a user would otherwise write in Python, for scripts/bench.

OpenCC t2s, then jieba.posseg (HMM on) paragraph by paragraph, word counts
with their most frequent tag, the words jieba tags nr/ns/nt counted as
names, co-occurrence of those names per paragraph, and three CSV tables.
It is what zhnovel replaces, written plainly, as a user would.

    bench_baseline.py NOVEL.txt OUT_DIR

Needs `jieba` and an OpenCC binding (`opencc`, or
`opencc-python-reimplemented`), both from PyPI. Prints the word count and
the seconds taken (dictionary loading included) on stdout.
"""

import collections
import csv
import itertools
import os
import sys
import time


def main(src, out_dir):
    start = time.perf_counter()
    import jieba
    import jieba.posseg as pseg
    import opencc

    jieba.setLogLevel(60)
    jieba.initialize()
    try:
        converter = opencc.OpenCC("t2s")
    except Exception:  # some bindings want the file name
        converter = opencc.OpenCC("t2s.json")

    with open(src, encoding="utf-8-sig") as f:
        text = converter.convert(f.read())

    words = collections.Counter()
    tags = collections.defaultdict(collections.Counter)
    names = collections.Counter()
    pairs = collections.Counter()
    for paragraph in text.splitlines():
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        present = set()
        for pair in pseg.cut(paragraph):
            word, flag = pair.word, pair.flag
            if not word.strip() or not any(c.isalnum() for c in word):
                continue
            words[word] += 1
            tags[word][flag] += 1
            if flag in ("nr", "ns", "nt"):
                names[(word, flag)] += 1
                present.add((word, flag))
        for a, b in itertools.combinations(sorted(present), 2):
            pairs[(a, b)] += 1

    os.makedirs(out_dir, exist_ok=True)

    def write(name, header, rows):
        path = os.path.join(out_dir, name)
        with open(path, "w", encoding="utf-8-sig", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)

    write(
        "frequency.csv",
        ["word", "pos", "count"],
        (
            (w, tags[w].most_common(1)[0][0], n)
            for w, n in sorted(words.items(), key=lambda x: (-x[1], x[0]))
        ),
    )
    write(
        "entities.csv",
        ["entity", "type", "count"],
        ((w, t, n) for (w, t), n in sorted(names.items(), key=lambda x: (-x[1], x[0]))),
    )
    write(
        "cooccurrence.csv",
        ["source", "target", "source_type", "target_type", "count"],
        (
            (a[0], b[0], a[1], b[1], n)
            for (a, b), n in sorted(pairs.items(), key=lambda x: (-x[1], x[0]))
        ),
    )
    total = sum(words.values())
    assert total > 0, "no words counted"
    print(f"baseline words={total} names={len(names)} seconds={time.perf_counter() - start:.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
