#!/usr/bin/env python3
"""strip.py: bench/corpus text with learned boilerplate removed, for fingerprinting (offline prototypes).

  python3 strip.py METHOD [options] CORPUS > stripped.tsv      (id, body; COPY text format)

CORPUS is make_textlike.pl's output (id lang site family role edit strength published_at body), read twice
(learning, then stripping), so that a million rows need not fit in memory.
Units: 'line' (a line of the stored text) or 'seg' (a line cut into sentences at . ! ? 。！？ and at ' | ').
A unit is boilerplate when, among the learning rows, it occurs in at least max(C, F x rows) rows
  - of the row's site (--scope site: the site's rows), or
  - of the whole table (--scope corpus: F x all rows), with no site;
  - and (--min-months M) in rows of at least M calendar months (a reprint family's copies come within weeks
    of its original; a site's boilerplate stays for months).
Learning rows: all rows, or (--learn-share S) the first S of them in time order, as a model built at
registration and then frozen would see them; --site-cap N: at most the first N learning rows of each site (or
of the table; a big site's first rows span days, too short for --min-months); --site-sample N: about N rows
of each site spread over its time (a fixed hash of the id picks them; a third pass counts the site's rows).  The model is applied to every row: a boilerplate unit is dropped wherever it is in the text
(--edges K: only within the first K and the last K lines).
Methods:
  learn   the above (--unit, --scope, -F, -C, --min-months, --learn-share, --site-cap, --edges)
  pos     no learning: drop the first line and the last line (position only)
  none    the text as it is (unescaped and re-escaped: checks the round trip)
Writes to stderr what was learned (units, rows touched, characters removed).
"""
import argparse
import re
import sys
from collections import Counter, defaultdict

UNESC = {'n': '\n', 't': '\t', 'r': '\r', '\\': '\\'}
SEG = re.compile(r'(?<=[.!?。！？])\s*|\s\|\s')


def unescape(s):
    return re.sub(r'\\(.)', lambda m: UNESC.get(m.group(1), m.group(1)), s)


def escape(s):
    return s.replace('\\', '\\\\').replace('\n', '\\n').replace('\t', '\\t').replace('\r', '\\r')


def units(text, unit):
    """The text as a list of lines, each a list of units (stripped), so that the kept units rebuild it."""
    if unit == 'line':
        return [[line.strip()] for line in text.split('\n')]
    return [[u.strip() for u in SEG.split(line)] for line in text.split('\n')]


def rows_of(path):
    with open(path, encoding='utf-8') as f:
        for line in f:
            c = line.rstrip('\n').split('\t')
            yield int(c[0]), c[2], unescape(c[8]), c[7][:7]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('method', choices=['learn', 'pos', 'none'])
    ap.add_argument('corpus')
    ap.add_argument('--unit', choices=['line', 'seg'], default='line')
    ap.add_argument('--scope', choices=['site', 'corpus'], default='site')
    ap.add_argument('-F', type=float, default=0.1)
    ap.add_argument('-C', type=int, default=5)
    ap.add_argument('--min-months', type=int, default=0)
    ap.add_argument('--learn-share', type=float, default=1.0)
    ap.add_argument('--site-cap', type=int, default=0)
    ap.add_argument('--site-sample', type=int, default=0)
    ap.add_argument('--edges', type=int, default=0)
    ap.add_argument('--dump', help='write the boilerplate units met while stripping (key, rows stripped, unit)')
    a = ap.parse_args()
    out = sys.stdout
    if a.method == 'none':
        for i, s, t, _ in rows_of(a.corpus):
            out.write('%d\t%s\n' % (i, escape(t)))
        return
    if a.method == 'pos':
        for i, s, t, _ in rows_of(a.corpus):
            ls = t.split('\n')
            out.write('%d\t%s\n' % (i, escape('\n'.join(ls[1:-1]) if len(ls) > 2 else t)))
        return
    total_rows = 0
    site_rows = Counter()
    with open(a.corpus, encoding='utf-8') as f:
        for line in f:
            total_rows += 1
            if a.site_sample:
                site_rows[line.split('\t', 3)[2] if a.scope == 'site' else ''] += 1
    nlearn = int(total_rows * a.learn_share)
    df = defaultdict(Counter)          # key (site) -> hash of unit -> rows
    months = defaultdict(set)          # (key, hash) -> months, for units seen twice or more
    first = {}
    nrows = Counter()
    def learning_rows():
        with open(a.corpus, encoding='utf-8') as f:
            for n, line in enumerate(f):
                if n >= nlearn:
                    return
                c = line.split('\t', 9)
                key = c[2] if a.scope == 'site' else ''
                if a.site_sample and site_rows[key] > a.site_sample:
                    # the id's fixed hash in [0, 1) below the site's rate: rows spread over the site's time
                    if ((int(c[0]) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFF) / 2.0 ** 48 >= a.site_sample / site_rows[key]:
                        continue
                yield int(c[0]), c[2], unescape(c[8].rstrip('\n')), c[7][:7]
    for i, s, t, m in learning_rows():
        key = s if a.scope == 'site' else ''
        if a.site_cap and nrows[key] >= a.site_cap:
            continue
        nrows[key] += 1
        d = df[key]
        for u in set(u for l in units(t, a.unit) for u in l if u):
            h = hash(u)                # a 64-bit hash per unit, not its text: memory (collisions negligible)
            d[h] += 1
            if a.min_months:
                if d[h] == 1:
                    first[(key, h)] = m
                else:
                    months[(key, h)].update((m, first[(key, h)]))
    bad = defaultdict(set)
    for key, d in df.items():
        floor = max(a.C, a.F * nrows[key])
        for h, n in d.items():
            if n >= floor and (not a.min_months or len(months[(key, h)]) >= a.min_months):
                bad[key].add(h)
    del df, months, first
    touched = removed = total = 0
    met = Counter()
    for i, s, t, _ in rows_of(a.corpus):
        key = s if a.scope == 'site' else ''
        b = bad.get(key, ())
        kept = []
        ls = units(t, a.unit)
        for x, l in enumerate(ls):
            edge = not a.edges or x < a.edges or x >= len(ls) - a.edges
            k = [u for u in l if u and not (edge and hash(u) in b)]
            if a.dump and len(k) < len([u for u in l if u]):
                met.update((key, u) for u in l if u and edge and hash(u) in b)
            if k:
                kept.append(' '.join(k))
        nt = '\n'.join(kept)
        total += len(t)
        if len(nt) != len(t.strip()):
            touched += 1
            removed += len(t) - len(nt)
        out.write('%d\t%s\n' % (i, escape(nt)))
    if a.dump:
        with open(a.dump, 'w', encoding='utf-8') as f:
            for (key, u), n in sorted(met.items()):
                f.write('%s\t%d\t%s\n' % (key, n, escape(u)))
    sys.stderr.write('strip.py: %d boilerplate units over %d keys, learned from %d of %d rows; %d rows touched, '
                     '%.1f%% of characters removed\n' % (sum(map(len, bad.values())), len(nrows),
                                                        sum(nrows.values()), total_rows, touched,
                                                        100.0 * removed / max(1, total)))


if __name__ == '__main__':
    main()
