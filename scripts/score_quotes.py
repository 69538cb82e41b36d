#!/usr/bin/env python3
"""Scores quotes.csv against a quote key (`quote_start<TAB>speaker<TAB>note`, `?` = the text does
not say who speaks).

    scripts/score_quotes.py OUTDIR KEY.tsv [--book-key BOOK-key.tsv] [--chapter N]

OUTDIR is an `analyze` output folder. Key rows are matched in order to the quotations of one
chapter (--chapter, or the chapter where most key rows match) whose text starts with quote_start.
A speaker is right when its names (the entities.csv row: entity, aliases, original, variants) meet
the key speaker's names (the book key's canonical + aliases, when --book-key is given); for a `?`
row, right when the speaker is empty. Prints:
  explicit: right / rows with method explicit (or alias) among matched key rows
  overall:  right / all key rows (an unmatched key row counts as wrong)
  unknown:  share of matched rows left without a speaker
"""
import argparse
import csv
import io
import os
import sys


def read(path):
    with open(path, encoding='utf-8-sig') as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('outdir')
    ap.add_argument('key')
    ap.add_argument('--book-key')
    ap.add_argument('--chapter', type=int)
    ap.add_argument('-v', '--verbose', action='store_true')
    a = ap.parse_args()

    quotes = list(csv.DictReader(io.StringIO(read(os.path.join(a.outdir, 'quotes.csv')))))
    entities = list(csv.DictReader(io.StringIO(read(os.path.join(a.outdir, 'entities.csv')))))
    key = [r for r in csv.DictReader(io.StringIO(read(a.key)), delimiter='\t')]

    names = {}
    for e in entities:
        ns = {e['entity'], e['original']}
        for col in ('aliases', 'variants'):
            ns |= {x for x in (e.get(col) or '').split('|') if x}
        names[e['entity']] = ns
    book = {}
    if a.book_key:
        for r in csv.DictReader(io.StringIO(read(a.book_key)), delimiter='\t'):
            if (r.get('type') or '').strip() == 'person':
                c = r['canonical'].strip()
                book[c] = {c} | {x for x in (r.get('aliases') or '').split('|') if x}

    def match(chapter_rows):
        out, i = [], 0
        for k in key:
            start = k['quote_start'].strip()
            j = next((j for j in range(i, len(chapter_rows)) if chapter_rows[j]['quote'].startswith(start)), None)
            if j is None:
                out.append(None)
            else:
                out.append(chapter_rows[j])
                i = j + 1
        return out

    by_chapter = {}
    for q in quotes:
        by_chapter.setdefault(int(q['chapter']), []).append(q)
    if a.chapter is not None:
        chapter = a.chapter
    else:
        chapter = max(by_chapter, key=lambda c: (sum(m is not None for m in match(by_chapter[c])), -c))
    matched = match(by_chapter.get(chapter, []))

    def right(k, q):
        want = k['speaker'].strip()
        got = q['speaker'] if q else ''
        if want == '?':
            return q is not None and got == ''
        if not got:
            return False
        mine = names.get(got, {got})
        theirs = book.get(want, {want})
        return bool(mine & theirs)

    n = len(key)
    ok = sum(right(k, q) for k, q in zip(key, matched))
    exp = [(k, q) for k, q in zip(key, matched) if q and q['method'] in ('explicit', 'alias')]
    exp_ok = sum(right(k, q) for k, q in exp)
    found = sum(q is not None for q in matched)
    unknown = sum(1 for q in matched if q is not None and q['speaker'] == '')
    key_unknown = sum(1 for k in key if k['speaker'].strip() == '?')
    print(f'chapter {chapter}: {found}/{n} key quotations matched')
    print(f'explicit: {exp_ok}/{len(exp)} = {exp_ok / max(len(exp), 1):.3f}')
    by_method = {}
    for k, q in zip(key, matched):
        m = q['method'] if q else 'unmatched'
        t = by_method.setdefault(m, [0, 0])
        t[0] += right(k, q)
        t[1] += 1
    print('by method: ' + ', '.join(f'{m} {r}/{t}' for m, (r, t) in sorted(by_method.items())))
    print(f'overall: {ok}/{n} = {ok / max(n, 1):.3f}')
    print(f'unknown: {unknown}/{found} = {unknown / max(found, 1):.3f} left without a speaker '
          f'(the key has {key_unknown}/{n} = {key_unknown / max(n, 1):.3f} `?`)')
    if a.verbose:
        for k, q in zip(key, matched):
            if not right(k, q):
                got = f"{q['speaker'] or '-'} ({q['method']})" if q else 'unmatched'
                print(f"  {k['quote_start']}: key {k['speaker']}, got {got}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
