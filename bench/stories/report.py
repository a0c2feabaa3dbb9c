#!/usr/bin/env python3
"""report.py: the tables of RESULTS.md from simulate.py's score and churn files.

Usage: python3 bench/stories/report.py DIR
  DIR holds lineages.scores.tsv and quality.scores.tsv (simulate.py --tsv), the matching *.churn.tsv
  (--churn-tsv) where there are some, and end_to_end.sql's *.e2e.scores.tsv where there are some.
"""
import collections
import csv
import glob
import os
import sys

# textfp_track's defaults: no method (minhash_v1), method => 'simhash' (simhash_v1), preset => 'simhash_idf_v1'
FP = [('mh', 0.46875, 'MinHash minhash_v1, J >= 0.46875'), ('sh', 11, 'SimHash simhash_v1, d <= 11'),
      ('shi', 13, 'SimHash simhash_idf_v1, d <= 13')]
E2E = {'mh': 'MinHash (no method)', 'sh': "method => 'simhash'", 'shi': "preset => 'simhash_idf_v1'"}
CT = [('mh', 'MinHash minhash_v1, J >= 0.46875'), ('sh', 'SimHash simhash_v1, d <= 11'),
      ('shi', 'SimHash simhash_idf_v1, d <= 13')]


def load(path):
    rows = []
    with open(path, encoding='utf-8') as f:
        for r in csv.DictReader(f, delimiter='\t'):
            r['t'] = float(r['t'])
            rows.append(r)
    return rows


def find(rows, method, t, rule, group):
    for r in rows:
        if r['method'] == method and abs(r['t'] - t) < 1e-9 and r['rule'] == rule and r['group'] == group:
            return r
    return None


def rules_at(method, t):
    """The rules shown per threshold, in table order."""
    j = method == 'mh'
    loose = round(t - 0.05, 2) if j else t + 2
    m = 0.05 if j else 2
    return ['components', 'star', 'best', 'best-orig', f'best+orig({t:g})', f'best+orig({loose:g})',
            f'best+par({t:g})', f'best+margin({m:g})', f'best+orig({t:g})+margin({m:g})',
            'bound:own-lineage', 'diag:best,earlier-time', f'diag:best+orig({t:g}),earlier-time',
            f'diag:best+orig({t:g}),all-pairs']


def generic(rule, method, t):
    """A rule's name with t written as t, so that rows of several fingerprints line up."""
    j = method == 'mh'
    loose = round(t - 0.05, 2) if j else t + 2
    m = 0.05 if j else 2
    return rule.replace(f'({t:g})', '(t)').replace(f'({loose:g})', "(t')").replace(f'margin({m:g})', 'margin(m)')


def f4(r, k):
    return f"{float(r[k]):.4f}" if r and r[k] not in ('', 'nan') else ''


def table_defaults(rows, group, fps, title):
    print(f'\n{title}\n')
    print('| rule | ' + ' | '.join(f'{name}: ARI | P | R | stories | largest' for _, _, name in fps) + ' |')
    print('|---|' + '---:|---:|---:|---:|---:|' * len(fps))
    names = [generic(r, fps[0][0], fps[0][1]) for r in rules_at(fps[0][0], fps[0][1])]
    for i, gname in enumerate(names):
        cells = []
        for m, t, _ in fps:
            r = find(rows, m, t, rules_at(m, t)[i], group)
            cells += [f4(r, 'ari'), f4(r, 'precision'), f4(r, 'recall'), r['stories'] if r else '',
                      r['largest'] if r else '']
        print(f'| {gname} | ' + ' | '.join(cells) + ' |')


def table_sets(rows, groups, fps, title, rules=('components', 'star', 'best', 'best+orig(t)', 'bound:own-lineage')):
    print(f'\n{title}\n')
    print('| fingerprint | rule | ' + ' | '.join(groups) + ' |')
    print('|---|---|' + '---:|' * len(groups))
    for m, t, name in fps:
        for rule in rules:
            rule_t = rule.replace('(t)', f'({t:g})')
            cells = [f4(find(rows, m, t, rule_t, g), 'ari') for g in groups]
            if any(cells):
                print(f'| {name} | {rule} | ' + ' | '.join(cells) + ' |')


def table_sweep(rows, group, fps, title):
    print(f'\n{title}\n')
    rules = ['components', 'star', 'best', 'best+orig(t)']
    print('| fingerprint | t | ' + ' | '.join(f'{r}: ARI' for r in rules)
          + ' | best+orig(t): precision | recall | stories | largest | bound: ARI |')
    print('|---|---:|' + '---:|' * (len(rules) + 5))
    for m, t0, name in fps:
        name = name.split(',')[0]
        ts = sorted({r['t'] for r in rows if r['method'] == m})
        for t in ts:
            cells = [f4(find(rows, m, t, rule.replace('(t)', f'({t:g})'), group), 'ari') for rule in rules]
            r = find(rows, m, t, f'best+orig({t:g})', group)
            b = find(rows, m, t, 'bound:own-lineage', group)
            cells += [f4(r, 'precision'), f4(r, 'recall'), r['stories'] if r else '', r['largest'] if r else '',
                      f4(b, 'ari')]
            tt = f'**{t:g}**' if abs(t - t0) < 1e-9 else f'{t:g}'
            print(f'| {name} | {tt} | ' + ' | '.join(cells) + ' |')


def table_e2e(path, groups, title):
    rows = {}
    with open(path, encoding='utf-8') as f:
        for r in csv.DictReader(f, delimiter='\t'):
            rows[(r['name'], r['grp'])] = r
    names = [n for n in E2E if any(k[0] == n for k in rows)]
    print(f'\n{title}\n')
    print('| group | texts | lineages | ' + ' | '.join(f'{E2E[n]}: ARI | P | R | largest' for n in names) + ' |')
    print('|---|---:|---:|' + '---:|---:|---:|---:|' * len(names))
    for g in groups:
        first = next((rows[(n, g)] for n in names if (n, g) in rows), None)
        if not first:
            continue
        cells = []
        for n in names:
            r = rows.get((n, g))
            cells += [f"{float(r['ari']):.4f}", f"{float(r['precision']):.4f}", f"{float(r['recall']):.4f}",
                      r['largest']] if r else ['', '', '', '']
        print(f"| {g} | {first['texts']} | {first['lineages']} | " + ' | '.join(cells) + ' |')


def table_e2e_modes(path, groups, title):
    """cluster_table's components and star against the registration's stories, ARI per group."""
    rows = {}
    with open(path, encoding='utf-8') as f:
        for r in csv.DictReader(f, delimiter='\t'):
            rows[(r['name'], r['grp'])] = r
    print(f'\n{title}\n')
    print('| fingerprint | how | ' + ' | '.join(groups) + ' |')
    print('|---|---|' + '---:|' * len(groups))
    for m, name in CT:
        for how, key in (('cluster_table components', m + '/components'), ('cluster_table star', m + '/star'),
                         ('textfp_stories', m)):
            cells = [f"{float(rows[(key, g)]['ari']):.4f}" if (key, g) in rows else '' for g in groups]
            if any(cells):
                print(f'| {name} | {how} | ' + ' | '.join(cells) + ' |')


def table_churn(paths, title):
    print(f'\n{title}\n')
    print('| set | fingerprint | rule | trials | texts whose story changes: mean | p90 | max | of them: within t of '
          'the text | further in its story | elsewhere | texts whose story is only renamed |')
    print('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|')
    for name, path in paths:
        by = collections.OrderedDict()
        with open(path, encoding='utf-8') as f:
            for r in csv.DictReader(f, delimiter='\t'):
                by.setdefault((r['method'], r['rule']), []).append(r)
        for (m, rule), cs in by.items():
            ch = sorted(int(c['changed']) for c in cs)
            s = lambda k: sum(int(c[k]) for c in cs)
            print(f"| {name} | {m} | {rule} | {len(cs)} | {sum(ch) / len(ch):.2f} | {ch[int(0.9 * (len(ch) - 1))]} | "
                  f"{ch[-1]} | {s('within_t')} | {s('in_story')} | {s('beyond')} | {s('renamed')} |")


def main():
    d = sys.argv[1]
    lin = load(os.path.join(d, 'lineages.scores.tsv'))
    qual = load(os.path.join(d, 'quality.scores.tsv'))
    lin_sets = ['all', 'en+zh', 'lang:en', 'lang:zh', 'lang:ja', 'set:clang', 'set:guile', 'set:automake',
                'set:lua', 'set:edu-en', 'set:edu-zh', 'set:edu-ja']
    qual_sets = ['all', 'sets:quality-reporting', 'sets:quality-tuning', 'lang:en', 'lang:zh']
    table_defaults(lin, 'all', FP, '### Natural lineages, all sets, preset thresholds')
    table_defaults(lin, 'en+zh', FP, '### Natural lineages, English and Chinese (all but edu-ja), preset thresholds')
    table_sets(lin, lin_sets, FP, '### Natural lineages: ARI per set, preset thresholds')
    table_defaults(qual, 'all', FP, '### bench/quality families, both splits, preset thresholds')
    table_sets(qual, qual_sets, FP, '### bench/quality families: ARI per split and language, preset thresholds')
    table_sweep(lin, 'all', FP, '### Threshold sweep: natural lineages, all')
    table_sweep(lin, 'en+zh', FP, '### Threshold sweep: natural lineages, English and Chinese')
    table_sweep(qual, 'all', FP, '### Threshold sweep: bench/quality families, both splits')
    for c, groups in (('lineages', lin_sets), ('quality', qual_sets)):
        path = os.path.join(d, f'{c}.e2e.scores.tsv')
        if os.path.exists(path):
            table_e2e(path, groups, f'### End to end: textfp_stories() of {c} tracked at the defaults')
            table_e2e_modes(path, groups, f'### End to end: ARI of cluster_table and textfp_stories, {c}')
    churns = [(os.path.basename(p).split('.')[0], p) for p in sorted(glob.glob(os.path.join(d, '*.churn.tsv')))]
    if churns:
        table_churn(churns, '### What one text changes (churn)')


if __name__ == '__main__':
    main()
