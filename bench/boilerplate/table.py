#!/usr/bin/env python3
"""table.py: score.py's lines as README.md's Markdown table.   python3 table.py scores.tsv [method ...]"""
import sys

rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
head, rows = rows[0], rows[1:]
want = sys.argv[2:]
if want:
    by = {r[0]: r for r in rows}
    rows = [by[w] for w in want if w in by]
ix = {h: i for i, h in enumerate(head)}
cols = [('variant', 'method'), ('largest stories', 'top5'), ('recall', 'recall_copy'), ('small', 'recall_small'),
        ('recall by strength 0/1/2/3', 'recall_s0123'), ('pair P', 'pair_prec'), ('pair R', 'pair_rec'),
        ('ARI', 'ari'), ('tmpl', 'tmpl_together'), ('near', 'near_mean'), ('false', 'near_false_mean'),
        ('en / zh', 'near_en/zh'), ('p99', 'near_p99'), ('max', 'near_max'), ('empty', 'null_fp')]
print('| ' + ' | '.join(c for c, _ in cols) + ' |')
print('|' + '|'.join('---' if c in ('variant', 'largest stories', 'recall by strength 0/1/2/3') else '---:' for c, _ in cols) + '|')
for r in rows:
    print('| ' + ' | '.join(('`%s`' % r[ix[k]]) if k == 'method' else r[ix[k]].replace(',', ', ') for _, k in cols) + ' |')
