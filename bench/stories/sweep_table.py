#!/usr/bin/env python3
"""sweep_table.py: candidate MinHash fingerprints side by side at every threshold of a sweep: the stories' ARI
(simulate.py's best+orig(t), the registration's rule, and best, cohesion off) on the natural lineages and the
families, bench/presets' regional recall, and how many unrelated pairs sit near the threshold (the lookups' cost).

  python3 bench/stories/sweep_table.py DIR --presets PDIR [--rows LO,HI,STEP] 'NAME|OPTIONS|THRESHOLD' ...

DIR/NAME (candidates.sh's) holds, per set (lineages, quality): <set>.sweep.tsv (simulate.py --tsv with --grid full
--mh-grid), <set>.jhist.tsv and <set>.bhist.tsv (unrelated.sql), <set>.minbands.tsv (pairs.sql).  PDIR is a
bench/presets run whose ONLY included the candidates' option sets (its measures.tsv: regional recall of the
counterpart on the reporting half, g_rec, per threshold of 128).  The specs are candidates.sh's; the options name
the presets' option set (minhash k=128 ngram=N shingle=S stopwords=W chinese=C).
"""
import argparse
import collections
import csv
import math
import os

K = 128


def read_tsv(path):
    with open(path, encoding='utf-8') as f:
        return list(csv.DictReader(f, delimiter='\t'))


def sweep(path):
    """(t of 128, rule, group) -> score row of simulate.py's tsv."""
    out = {}
    for r in read_tsv(path):
        out[(round(float(r['t']) * K), r['rule'], r['group'])] = r
    return out


def hist(path):
    out = collections.Counter()
    with open(path, encoding='utf-8') as f:
        for line in f:
            v = line.rstrip('\n').split('\t')
            out[tuple(int(x) if x.lstrip('-').isdigit() else x for x in v[:-1])] += int(v[-1])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('dir')
    ap.add_argument('specs', nargs='+')
    ap.add_argument('--presets', required=True, action='append',
                    help="a bench/presets run's output directory (measures.tsv); repeat for several runs")
    ap.add_argument('--rows', default='20,48,2', help='thresholds to print, LO,HI,STEP of 128')
    ap.add_argument('--near', type=float, default=0.1, help='unrelated pairs counted at J >= t - NEAR too')
    args = ap.parse_args()
    lo, hi, step = (int(x) for x in args.rows.split(','))
    reg = {}
    for p in args.presets:
        for r in read_tsv(os.path.join(p, 'measures.tsv')):
            if r['half'] == 'report':
                reg[(r['cfg'], int(r['t']))] = (float(r['g_rec']), float(r['g_fpk']))
    for spec in args.specs:
        name, opts, thr = spec.split('|')
        o = dict(x.split('=') for x in opts.split(','))
        cfg = (f"minhash k={o.get('k', 128)} ngram={o['ngram']} shingle={o['shingle']} stopwords={o['stopwords']} "
               f"chinese={o['chinese']}")
        d = os.path.join(args.dir, name)
        lin, fam = sweep(os.path.join(d, 'lineages.sweep.tsv')), sweep(os.path.join(d, 'quality.sweep.tsv'))
        j = {c: hist(os.path.join(d, f'{c}.jhist.tsv')) for c in ('lineages', 'quality')}
        b = {c: hist(os.path.join(d, f'{c}.bhist.tsv')) for c in ('lineages', 'quality')}
        mb = {}
        for line in open(os.path.join(d, 'lineages.minbands.tsv'), encoding='utf-8'):
            t, m, rows = line.split()
            mb[round(float(t) * K)] = (int(rows), int(m))
        ntexts = {c: int(next(iter(s.values()))['texts']) for c, s in (('lineages', lin), ('quality', fam))
                  if s}
        print(f'\n### `{name}`: {opts} (presets: `{cfg}`)\n')
        print(f'ARI of best+orig(t) (cohesion = t; off: best) on the natural lineages (all, en+zh, ja) and the families '
              f'(all); regional recall (false matches / 1,000) on the reporting half; unrelated pairs (of different '
              f'lineages or families) at J >= t and J >= t - {args.near:g}, and those an LSH lookup at t reads (sharing '
              f'min_bands of the banding at t; for the families by language: English pairs, Chinese pairs), per set (lineages {ntexts.get("lineages")} texts, families '
              f'{ntexts.get("quality")}):\n')
        print('| J >= | banding | lineages all | en+zh | ja | off: all | families | off | regional | '
              f'unrelated >= t: lineages / families | >= t - {args.near:g} | LSH-read: lineages / families en / zh |')
        print('|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|')
        for m in range(lo, hi + 1, step):
            def a(s, rule, g):
                r = s.get((m, rule, g))
                return f"{float(r['ari']):.4f}" if r else '-'
            rule = f'best+orig({m / K:g})'
            rows, need = mb[m]
            near_m = math.ceil(round((m / K - args.near) * K, 6))

            def unrel(c, at):
                return sum(v for (mm, rel, lg), v in j[c].items() if rel == 'f' and mm >= at)

            def lsh(c, lang=None):
                return sum(v for (rw, sh, rel, lg), v in b[c].items()
                           if rw == rows and rel == 'f' and sh >= need and lang in (None, lg))
            g = reg.get((cfg, m))
            gs = f'{g[0]:.3f} ({g[1]:.2f})' if g else '-'
            star = ' **(e2e)**' if abs(m / K - float(thr)) < 1e-9 else ''
            print(f"| {m}/128 = {m / K:.4g}{star} | {'44 x 1' if rows == 1 else '64 x 2'} >= {need} | "
                  f"{a(lin, rule, 'all')} | {a(lin, rule, 'en+zh')} | {a(lin, rule, 'lang:ja')} | {a(lin, 'best', 'all')} | "
                  f"{a(fam, rule, 'all')} | {a(fam, 'best', 'all')} | {gs} | {unrel('lineages', m)} / {unrel('quality', m)} | "
                  f"{unrel('lineages', near_m)} / {unrel('quality', near_m)} | {lsh('lineages')} / {lsh('quality', 'en')} / "
                  f"{lsh('quality', 'zh')} |")


if __name__ == '__main__':
    main()
