#!/usr/bin/env python3
"""classify.py: what a learned boilerplate list strips, against what the generator planted.

  python3 classify.py DUMP ORACLE_CORPUS LABELS [NAME]

DUMP: strip.py --dump's output (key, rows stripped, unit).  ORACLE_CORPUS: the same corpus made with WRAPPING=0
(make_textlike.pl: the same rows without the site's header, footer, byline, dateline and editor line).  A
stripped unit that never occurs as a unit of the oracle's texts is the generator's wrapping (planted
boilerplate); one that does is article text, counted by the role of the oracle rows holding it: template (a
template group's frame), original/copy (a planted family's text: a loss), singleton (text the Markov model
repeats: an artifact of the generator).
"""
import sys
from collections import Counter, defaultdict
import strip

dump, oracle, labels = sys.argv[1:4]
name = sys.argv[4] if len(sys.argv) > 4 else dump
units = {}
for line in open(dump, encoding='utf-8'):
    key, n, u = line.rstrip('\n').split('\t', 2)
    u = strip.unescape(u)
    units[u] = units.get(u, 0) + int(n)
roles = defaultdict(Counter)
for line in open(oracle, encoding='utf-8'):
    c = line.rstrip('\n').split('\t')
    for u in set(x for l in strip.units(strip.unescape(c[8]), 'seg') for x in l if x):
        if u in units:
            roles[u][c[4]] += 1
cls_units, cls_strips = Counter(), Counter()
examples = defaultdict(list)
for u, n in units.items():
    r = roles.get(u)
    if not r:
        c = 'wrapping'
    else:
        c = 'article text: ' + max(('original', 'copy', 'template', 'singleton'),
                                   key=lambda k: (r[k] + r['original'] if k == 'copy' else r[k]))
        c = c.replace('original', 'family').replace('copy', 'family')
    cls_units[c] += 1
    cls_strips[c] += n
    if len(examples[c]) < 4:
        examples[c].append(u[:60])
tot = sum(cls_strips.values())
for c in sorted(cls_units):
    print('%s\t%s\t%d units\t%d strips (%.1f%%)\te.g. %s' % (name, c, cls_units[c], cls_strips[c],
                                                              100.0 * cls_strips[c] / tot, ' | '.join(examples[c])))
