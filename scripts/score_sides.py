#!/usr/bin/env python3
"""Leading sides against a book key: for the key's main persons (and armies) with a side, is the
leading member_of (army_of) target of relations.csv that side (its canonical name or an alias)?

    scripts/score_sides.py OUTDIR BOOK-key.tsv [--all] [-v]

A key row's names (canonical + aliases) are looked up as relation sources; the row with the highest
count among them leads (relations.csv lists a source's rows count first). --all scores every row
with a side, not only main ones. Prints right / labelled / rows for persons and armies.
"""
import argparse
import csv
import io
import sys


def read(path):
    with open(path, encoding='utf-8-sig') as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('outdir')
    ap.add_argument('key')
    ap.add_argument('--all', action='store_true')
    ap.add_argument('-v', '--verbose', action='store_true')
    a = ap.parse_args()
    key = list(csv.DictReader(io.StringIO(read(a.key)), delimiter='\t'))
    facs = {}
    for k in key:
        if k['type'] == 'faction':
            c = k['canonical'].strip()
            facs[c] = {c} | {x for x in (k.get('aliases') or '').split('|') if x}
    rel = list(csv.DictReader(io.StringIO(read(f'{a.outdir}/relations.csv'))))
    lead = {}
    for r in rel:
        if r['relation'] in ('member_of', 'army_of'):
            n = int(r['count'])
            if r['source'] not in lead or n > lead[r['source']][1]:
                lead[r['source']] = (r['target'], n)
    for t, relname in (('person', 'member_of'), ('army', 'army_of')):
        rows = [k for k in key if k['type'] == t and k['side'].strip()
                and (a.all or (k['main'] or '').strip().lower() in ('yes', 'y', '1', 'true'))]
        right = labelled = 0
        wrong = []
        for k in rows:
            names = {k['canonical'].strip()} | {x for x in (k.get('aliases') or '').split('|') if x}
            cands = [lead[n] for n in names if n in lead]
            if not cands:
                wrong.append(f"{k['canonical']}:-")
                continue
            labelled += 1
            side = max(cands, key=lambda c: (c[1], c[0]))[0]
            want = facs.get(k['side'].strip(), {k['side'].strip()})
            if side in want:
                right += 1
            else:
                wrong.append(f"{k['canonical']}:{side}(want {k['side']})")
        print(f"{'main ' if not a.all else ''}{t}s {relname}: {right}/{len(rows)} right "
              f"({labelled} labelled) = {right / max(len(rows), 1):.3f}")
        if a.verbose and wrong:
            print('  ' + ' '.join(wrong))
    return 0


if __name__ == '__main__':
    sys.exit(main())
