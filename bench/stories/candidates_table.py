#!/usr/bin/env python3
"""candidates_table.py DIR NAME...: candidates.sh's end-to-end ARIs as Markdown tables (DIR/NAME/<set>.e2e.scores.tsv)."""
import csv
import sys

d, names = sys.argv[1], sys.argv[2:]


def load(name, corpus):
    with open(f'{d}/{name}/{corpus}.e2e.scores.tsv', encoding='utf-8') as f:
        return {(r['name'], r['grp']): r for r in csv.DictReader(f, delimiter='\t')}


def cell(s, key):
    r = s.get(key)
    return f"{float(r['ari']):.4f}" if r else '-'


lg = ['all', 'en+zh', 'lang:ja', 'set:automake', 'set:clang', 'set:edu-en', 'set:edu-zh', 'set:edu-ja', 'set:guile', 'set:lua']
print('Natural lineages, `textfp_stories` ARI (largest story, precision / recall of all):\n')
print('| candidate | ' + ' | '.join(lg) + ' | largest | P / R |')
print('|---|' + '---:|' * (len(lg) + 2))
for n in names:
    s = load(n, 'lineages')
    a = s[('mh', 'all')]
    print(f'| {n} | ' + ' | '.join(cell(s, ('mh', g)) for g in lg)
          + f" | {a['largest']} | {float(a['precision']):.4f} / {float(a['recall']):.4f} |")
print('\nbench/quality families and cluster_table on the same fingerprints (ARI, all texts; largest):\n')
print('| candidate | families: stories | en | zh | lineages: components | star | families: components | star |')
print('|---|---:|---:|---:|---:|---:|---:|---:|')
for n in names:
    s, q = load(n, 'lineages'), load(n, 'quality')
    def cl(x, m):
        r = x[(m, 'all')]
        return f"{float(r['ari']):.4f} ({r['largest']})"
    print(f'| {n} | {cl(q, "mh")} | {cell(q, ("mh", "lang:en"))} | {cell(q, ("mh", "lang:zh"))} | '
          f'{cl(s, "mh/components")} | {cl(s, "mh/star")} | {cl(q, "mh/components")} | {cl(q, "mh/star")} |')
