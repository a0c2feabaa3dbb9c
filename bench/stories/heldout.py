#!/usr/bin/env python3
"""heldout.py: a MinHash registration's link knobs (threshold, cohesion) chosen on one half of the natural
lineages and scored on the other half, split by document so that sibling sections stay together.

The rule is textfp_track's (track_choose_link in src/track/track_link.c, simulate.py's best+orig(c)): texts in
(time, key) order; a text's candidates are its earlier texts at J >= t sharing min_bands(t) bands of the
registration's banding at t (pairs.sql's minbands.tsv), best first (highest J, then earliest); a candidate is
taken only when the text is at J >= c of the original of the candidate's story (c: the cohesion; c = 0 turns
the check off; a c above t bounds direct links to an original too, as the store does, where simulate.py's
best+orig(t') passes a candidate that is itself the original); else the next; none: a story of its own.

Halves: the natural lineages' documents (units) are split in two, per set, seeded: Clang by page (the part
of the lineage name before '#'), Debian Edu by chapter (before ' / '), the info and reference manuals
(guile, automake, lua), whose lineage names carry no chapter, by runs of --block consecutive sections in
document order (by the key of each lineage's last version).  Each set's units are shuffled and each goes to
the half holding fewer of that set's texts.  Each half is then a corpus of its own: the rule runs over its
texts and the pairs among them only.

Choosing: on the tune half, the setting with the highest ARI (all texts of the half); on a tie, cohesion = t
(the registration's default) before another, then the threshold nearest the preset's.  Four ways of
choosing: the threshold alone (cohesion = t), the threshold and cohesion together, and (with --families)
each of these among the settings whose families ARI is at least the preset's only (the families a
constraint, not a score).  Each choice is scored on the other half, on the whole set and on the families.

  python3 bench/stories/heldout.py --dir DIR [--families FDIR] [--seeds 1,2,...] [--tsv out.tsv] > report.md

DIR (and FDIR) hold pairs.sql's <set>.texts.tsv, <set>.pairs.tsv, <set>.minbands.tsv (candidates.sh's DIR/NAME).

--families-exclude SRC,... leaves the families of those sources (quality.tsv's source before '/': debian-reference,
debian-handbook, fortunes-zh) out of the families: the families score and its constraint (the preset's ARI too)
run over the others only, as a corpus of their own, so no choice sees the excluded ones; these are scored apart,
as a held-out check, in a last table (every threshold chosen, against the reference).

Another fingerprint than minhash_v2's (a candidate of bench/stories/README.md, "Candidates"): --thresholds LO,HI
(of 128) is the grid's range, for a fingerprint whose pairs sit lower (shingles of three tokens: every J is
lower); --baseline BDIR scores the reference setting (--ref of 128, cohesion = t; default minhash_v2's 40) on
BDIR's pairs of the same texts (minhash_v2's candidates.sh directory), so that the candidate's choice is
compared with the preset on the same held-out half, and the families constraint is the preset's own ARI.
"""
import argparse
import collections
import os
import random
import sys

sys.dont_write_bytecode = True          # no __pycache__ in the tree for simulate.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simulate  # noqa: E402

K = 128
PRESET_M = 40                       # minhash_v2: 40 of 128 positions, J >= 0.3125 (--ref)
M_LO, M_HI = 36, 54                 # the thresholds tried, of 128 (--thresholds)
MODE = {'t': 't', 'tc': 't, cohesion', 'tfam': 't; families >= preset', 'fam': 't, cohesion; families >= preset'}


class Corpus:
    """A labelled set's texts in (time, key) order with each text's earlier MinHash pairs, best first."""

    def __init__(self, d, name):
        self.texts = simulate.load_texts(os.path.join(d, name + '.texts.tsv'))
        self.n = len(self.texts)
        rank = {t[1]: r for r, t in enumerate(self.texts)}
        ids = {}
        self.truth = [ids.setdefault(t[4], len(ids)) for t in self.texts]
        self.first = {}
        for r in range(self.n):
            self.first.setdefault(self.truth[r], r)
        self.nbrs = [[] for _ in range(self.n)]
        self.near = [{} for _ in range(self.n)]
        with open(os.path.join(d, name + '.pairs.tsv'), encoding='utf-8') as f:
            for line in f:
                method, a, b, score, b1, *b2 = line.rstrip('\n').split('\t')
                if method != 'mh':
                    continue
                ra, rb = rank[int(a)], rank[int(b)]
                if ra > rb:
                    ra, rb = rb, ra
                s = float(score)
                self.near[rb][ra] = s
                self.nbrs[rb].append((s, ra, int(b1), int(b2[0]) if b2 else -1))
        for lst in self.nbrs:
            lst.sort(key=lambda p: (-p[0], p[1]))
        self.minbands = {}
        with open(os.path.join(d, name + '.minbands.tsv'), encoding='utf-8') as f:
            for line in f:
                t, m, *rows = line.split()
                self.minbands[round(float(t) * K)] = (int(rows[0]) if rows else 1, int(m))

    def stories(self, m, c, members=None):
        """Each text's story (its original's rank) under the rule at J >= m/128, cohesion c (0: none), over
        members only (None: every text)."""
        t = m / K
        rows, need = self.minbands[m]
        bi = 2 if rows == 1 else 3
        inside = None if members is None else set(members)
        story = list(range(self.n))
        for r in (range(self.n) if members is None else sorted(members)):
            near = self.near[r]
            for p in self.nbrs[r]:
                if p[0] < t:
                    break
                y = p[1]
                if (inside is not None and y not in inside) or p[bi] < need:
                    continue
                o = story[y]
                if c > 0 and near.get(o, -1.0) < c:
                    continue
                story[r] = o
                break
        return story

    def ari(self, story, members=None):
        s = simulate.scores(story, self.truth, list(range(self.n)) if members is None else members, self.first)
        return s


def units(c, block):
    """Each lineage's unit (a document or a run of sections), by set."""
    last = {}
    for r, (tm, key, lang, set_, lineage, _) in enumerate(c.texts):
        last[lineage] = (tm, key, set_)
    unit = {}
    runs = collections.defaultdict(list)
    for lineage, (tm, key, set_) in last.items():
        name = lineage.split('/', 1)[1] if '/' in lineage else lineage
        if set_ == 'clang':
            unit[lineage] = (set_, name.split('#', 1)[0])
        elif set_.startswith('edu-'):
            unit[lineage] = (set_, name.split(' / ', 1)[0])
        else:
            runs[set_].append((tm, key, lineage))
    for set_, ls in runs.items():
        ls.sort()
        for i, (_, _, lineage) in enumerate(ls):
            unit[lineage] = (set_, f'run{i // block}')
    return unit


def split(c, unit, seed):
    """Two halves (lists of ranks): each set's units shuffled, each to the half with fewer of its texts."""
    size = collections.Counter(unit[t[4]] for t in c.texts)
    by_set = collections.defaultdict(list)
    for u in sorted(size):
        by_set[u[0]].append(u)
    rng = random.Random(seed)
    half_of = {}
    for set_ in sorted(by_set):
        us = by_set[set_]
        rng.shuffle(us)
        load = [0, 0]
        for u in us:
            h = 0 if load[0] <= load[1] else 1
            half_of[u] = h
            load[h] += size[u]
    halves = ([], [])
    for r, t in enumerate(c.texts):
        halves[half_of[unit[t[4]]]].append(r)
    return halves


def grid(cmin, cmax):
    """(m, c) settings: thresholds M_LO..M_HI of 128, cohesion off, and cmin..cmax of 128 around each (not
    below J 0.1: pairs.sql exports no pair further, so a cohesion check could not see the original)."""
    out = []
    for m in range(M_LO, M_HI + 1):
        out.append((m, 0.0))
        for cm in range(max(m + cmin, 13), m + cmax + 1):
            out.append((m, cm / K))
    return out


def pick(scored, joint, allowed=None):
    """The tune half's choice among (m, c, ari): highest ARI, then cohesion = t, then nearest the preset; only
    cohesion = t unless joint; only settings allowed(m, c) when given."""
    cands = [x for x in scored if (joint or x[1] == x[0] / K) and (allowed is None or allowed(x[0], x[1]))]
    return max(cands, key=lambda x: (round(x[2], 6), x[1] == x[0] / K, -abs(x[0] - PRESET_M), -abs(x[1] * K - x[0])))


def cname(m, c):
    if c == 0:
        return 'off'
    if c == m / K:
        return '= t'
    return f'{round(c * K)}/128'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--dir', required=True, help='lineages.{texts,pairs,minbands}.tsv of the candidate')
    ap.add_argument('--families', help='the same for bench/quality families (quality.*.tsv)')
    ap.add_argument('--seeds', default='21', help='comma-separated split seeds (the first is reported in full)')
    ap.add_argument('--block', type=int, default=10, help='sections per unit of the info and reference manuals')
    ap.add_argument('--cohesion', default='-16,8', help='cohesion from t+A to t+B in 1/128 (default -16,8)')
    ap.add_argument('--tsv', help='every (seed, half, m, c, ARI) here')
    ap.add_argument('--thresholds', default='36,54', help='the thresholds tried, LO,HI of 128 (default 36,54)')
    ap.add_argument('--ref', type=int, default=40, help='the reference threshold of 128, cohesion = t (default 40: '
                                                        'minhash_v2)')
    ap.add_argument('--families-exclude', default='',
                    help="sources whose families are left out of the families score and constraint, comma-separated "
                         "(FDIR/quality.tsv's source before '/', e.g. debian-reference); scored apart as held out")
    ap.add_argument('--baseline', help="the reference setting's pairs (another candidates.sh directory of the same "
                                       'texts, e.g. minhash_v2\'s); default --dir and --families themselves')
    args = ap.parse_args()
    global PRESET_M, M_LO, M_HI
    PRESET_M = args.ref
    M_LO, M_HI = (int(x) for x in args.thresholds.split(','))
    cmin, cmax = (int(x) for x in args.cohesion.split(','))
    lin = Corpus(args.dir, 'lineages')
    fam = Corpus(args.families, 'quality') if args.families else None
    base_lin, base_fam = lin, fam
    if args.baseline:
        base_lin = Corpus(args.baseline, 'lineages')
        base_fam = Corpus(args.baseline, 'quality') if fam else None
        if base_lin.texts != lin.texts or (fam and base_fam.texts != fam.texts):
            sys.exit('heldout.py: --baseline holds other texts')
    exclude = {x for x in args.families_exclude.split(',') if x}
    if exclude and not fam:
        sys.exit('heldout.py: --families-exclude needs --families')
    # the families kept (ranks; None: all) and the excluded ones, by their source in quality.tsv (pairs.sql's
    # texts.tsv has no source column)
    fam_keep = fam_out = None
    if exclude:
        source = {}
        with open(os.path.join(args.families, 'quality.tsv'), encoding='utf-8') as f:
            for line in f:
                cols = line.split('\t', 7)
                source[int(cols[0])] = cols[6].split('/', 1)[0]
        unknown = exclude - set(source.values())
        if unknown:
            sys.exit(f"heldout.py: --families-exclude: no families of {', '.join(sorted(unknown))} "
                     f"(sources: {', '.join(sorted(set(source.values())))})")
        fam_keep = [r for r, t in enumerate(fam.texts) if source[t[1]] not in exclude]
        fam_out = [r for r, t in enumerate(fam.texts) if source[t[1]] in exclude]
    ref_c = PRESET_M / K
    ref_name = f'{ref_c:g}' + (' (baseline)' if args.baseline else '')
    unit = units(lin, args.block)
    settings = grid(cmin, cmax)
    whole_cache, fam_cache = {}, {}

    def whole(m, c):
        if (m, c) not in whole_cache:
            whole_cache[(m, c)] = lin.ari(lin.stories(m, c))
        return whole_cache[(m, c)]

    def families(m, c):
        if fam is None:
            return None
        if (m, c) not in fam_cache:
            fam_cache[(m, c)] = fam.ari(fam.stories(m, c, fam_keep), fam_keep)
        return fam_cache[(m, c)]

    def excluded(corpus, m, c):
        return corpus.ari(corpus.stories(m, c, fam_out), fam_out)

    tsv = open(args.tsv, 'w', encoding='utf-8') if args.tsv else None
    if tsv:
        tsv.write('seed\thalf\tm\tt\tcohesion\ttexts\tlineages\tari\tprecision\trecall\n')
    seeds = [int(s) for s in args.seeds.split(',')]
    # the ways of choosing: the threshold alone (cohesion = t), both knobs, and each among the settings that
    # keep bench/quality's families at least at the preset's ARI (a constraint, not a score)
    modes = ['t', 'tc'] + (['tfam', 'fam'] if fam else [])
    # the reference setting, on the baseline's pairs (the candidate's own without --baseline)
    f0 = base_fam.ari(base_fam.stories(PRESET_M, ref_c, fam_keep), fam_keep) if fam else None
    fam0 = f0['ari'] if fam else None
    w0 = base_lin.ari(base_lin.stories(PRESET_M, ref_c))['ari']

    def allowed(m, c):
        return families(m, c)['ari'] >= fam0 - 1e-9
    rows = []
    curves = {}
    fixed = collections.defaultdict(list)   # (m, c) -> ARI minus the reference's, on every half of every seed
    for seed in seeds:
        halves = split(lin, unit, seed)
        scored = {}
        ref_held = {}
        for h, members in enumerate(halves):
            ref_held[h] = base_lin.ari(base_lin.stories(PRESET_M, ref_c, members), members)['ari']
            res = []
            for m, c in settings:
                s = lin.ari(lin.stories(m, c, members), members)
                res.append((m, c, s['ari']))
                if tsv:
                    tsv.write(f"{seed}\t{'AB'[h]}\t{m}\t{m / K:g}\t{c:g}\t{s['texts']}\t{s['lineages']}\t"
                              f"{s['ari']:.6f}\t{s['precision']:.6f}\t{s['recall']:.6f}\n")
            scored[h] = res
        for h in (0, 1):
            for m, c, a in scored[h]:
                fixed[(m, c)].append(a - ref_held[h])
        if seed == seeds[0]:
            curves = {h: {(m, c): a for m, c, a in scored[h]} for h in (0, 1)}
            desc = [(len(halves[h]), len({lin.truth[r] for r in halves[h]}),
                     collections.Counter(lin.texts[r][3] for r in halves[h])) for h in (0, 1)]
        for tune in (0, 1):
            held = 1 - tune
            ref = {(m, c): a for m, c, a in scored[held]}
            ref[(PRESET_M, ref_c)] = ref_held[held]
            for joint in modes:
                m, c, a_tune = pick(scored[tune], joint in ('tc', 'fam'), allowed if 'fam' in joint else None)
                rows.append(dict(seed=seed, tune='AB'[tune], joint=joint, m=m, c=c, tune_ari=a_tune,
                                 held_ari=ref[(m, c)], held_preset=ref[(PRESET_M, PRESET_M / K)]))
    if tsv:
        tsv.close()

    print(f'<!-- {lin.n} texts; units {len(set(unit.values()))}; seeds {args.seeds}; block {args.block}; '
          f'cohesion t{cmin:+d}..t{cmax:+d} of 128 and off; thresholds {M_LO}..{M_HI} of 128; reference '
          f'{ref_name}' + (f'; families {len(fam_keep)} texts without {", ".join(sorted(exclude))} '
                           f'({len(fam_out)} texts, held out)' if exclude else '') + ' -->')
    print('\n| half (seed %d) | texts | lineages | by set |' % seeds[0])
    print('|---|---:|---:|---|')
    for h in (0, 1):
        n, nl, by = desc[h]
        print(f"| {'AB'[h]} | {n} | {nl} | {', '.join(f'{k} {v}' for k, v in sorted(by.items()))} |")

    print(f'\n| seed | chosen on | knobs | t chosen | cohesion | ARI, tune half | ARI, held-out half | held-out at {ref_name} '
          f'| whole set | whole at {ref_name} | families | families at {ref_name} |')
    print('|---:|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|')
    for r in rows:
        w = whole(r['m'], r['c'])['ari']
        f = families(r['m'], r['c'])
        fs = f"{f['ari']:.4f} | {f0['ari']:.4f}" if f else ' | '
        print(f"| {r['seed']} | {r['tune']} | {MODE[r['joint']]} | {r['m']}/128 = {r['m'] / K:g} | "
              f"{cname(r['m'], r['c'])} | {r['tune_ari']:.4f} | {r['held_ari']:.4f} | {r['held_preset']:.4f} | "
              f"{w:.4f} | {w0:.4f} | {fs} |")

    # over every seed and direction: how often the choice beats the preset on the held-out half, and what it
    # does to the whole set and the families
    print(f'\n| knobs chosen ({len(seeds)} splits, both ways) | choices | held-out: better than {ref_name} | worse | '
          f'mean gain (min, max) | held-out ARI, mean | at {ref_name} | whole set (range) | families (range) | '
          f'thresholds chosen (of 128: times) |')
    print('|---|---:|---:|---:|---|---:|---:|---|---|---|')
    for joint in modes:
        rs = [r for r in rows if r['joint'] == joint]
        d = [r['held_ari'] - r['held_preset'] for r in rs]
        ws = [whole(r['m'], r['c'])['ari'] for r in rs]
        fs = [families(r['m'], r['c'])['ari'] for r in rs] if fam else [float('nan')]
        ms = collections.Counter(r['m'] for r in rs)
        print(f"| {MODE[joint]} | {len(rs)} | {sum(1 for x in d if x > 1e-9)} | {sum(1 for x in d if x < -1e-9)} | "
              f"{sum(d) / len(d):+.4f} ({min(d):+.4f}, {max(d):+.4f}) | {sum(r['held_ari'] for r in rs) / len(rs):.4f} | "
              f"{sum(r['held_preset'] for r in rs) / len(rs):.4f} | {min(ws):.4f} to {max(ws):.4f} | "
              f"{min(fs):.4f} to {max(fs):.4f} | {', '.join(f'{m}: {v}' for m, v in sorted(ms.items()))} |")

    # the curves of the first seed's split at cohesion = t and off, per half, and the whole set and families
    print(f'\n| t | A: cohesion = t | A: off | B: cohesion = t | B: off | whole: cohesion = t | whole: off | '
          f'families: cohesion = t | families: off |')
    print('|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for m in range(M_LO, M_HI + 1):
        t = m / K
        fam_s = ' | '.join(f"{families(m, c)['ari']:.4f}" if fam else '' for c in (t, 0.0))
        print(f"| {m}/128 = {t:g} | {curves[0][(m, t)]:.4f} | {curves[0][(m, 0.0)]:.4f} | {curves[1][(m, t)]:.4f} | "
              f"{curves[1][(m, 0.0)]:.4f} | {whole(m, t)['ari']:.4f} | {whole(m, 0.0)['ari']:.4f} | {fam_s} |")
    # each setting fixed (no choice): its ARI against the reference's on the same half, every half of every seed
    print(f'\n| t | halves | cohesion = t: better than {ref_name} / worse | mean difference (min, max) | '
          f'off: better / worse | mean difference (min, max) |')
    print('|---:|---:|---|---|---|---|')
    for m in range(M_LO, M_HI + 1):
        cells = []
        for c in (m / K, 0.0):
            d = fixed[(m, c)]
            cells.append(f'{sum(1 for x in d if x > 1e-9)} / {sum(1 for x in d if x < -1e-9)} | '
                         f'{sum(d) / len(d):+.4f} ({min(d):+.4f}, {max(d):+.4f})')
        print(f'| {m}/128 = {m / K:g} | {len(fixed[(m, m / K)])} | {cells[0]} | {cells[1]} |')
    # the best cohesion per threshold on each half (first seed)
    print('\n| t | A: best cohesion (ARI) | B: best cohesion (ARI) |')
    print('|---:|---|---|')
    for m in range(M_LO, M_HI + 1):
        cells = []
        for h in (0, 1):
            best = max(((c, a) for (mm, c), a in curves[h].items() if mm == m),
                       key=lambda x: (round(x[1], 6), x[0] == m / K))
            cells.append(f'{cname(m, best[0])} ({best[1]:.4f})')
        print(f'| {m}/128 = {m / K:g} | {cells[0]} | {cells[1]} |')
    if exclude:
        # the excluded families, never seen by a choice: each setting chosen (any way) against the reference
        x0 = excluded(base_fam, PRESET_M, ref_c)
        print(f"\n| setting chosen | times (t / t, cohesion / t; families / t, cohesion; families) | "
              f"{', '.join(sorted(exclude))} (held out): ARI | precision | recall | at {ref_name}: ARI | "
              f"precision | recall |")
        print('|---|---|---:|---:|---:|---:|---:|---:|')
        times = collections.Counter((r['m'], r['c'], r['joint']) for r in rows)
        for m, c in sorted({(r['m'], r['c']) for r in rows}, key=lambda x: (x[0], x[1] != x[0] / K, x[1])):
            x = excluded(fam, m, c)
            print(f"| {m}/128 = {m / K:g}, cohesion {cname(m, c)} | "
                  f"{' / '.join(str(times[(m, c, j)]) for j in ('t', 'tc', 'tfam', 'fam'))} | {x['ari']:.4f} | "
                  f"{x['precision']:.4f} | {x['recall']:.4f} | {x0['ari']:.4f} | {x0['precision']:.4f} | "
                  f"{x0['recall']:.4f} |")


if __name__ == '__main__':
    main()
