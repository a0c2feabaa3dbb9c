#!/usr/bin/env python3
"""simulate.py: story rules replayed offline over exported pairs, scored against known lineages.

Inputs (pairs.sql writes them):
  <x>.texts.tsv     key, lang, set, lineage, version, time (epoch seconds): every text, labelled
  <x>.pairs.tsv     method, a, b, score, bands1, bands2: every pair within a generous threshold (a < b);
                    score is a Jaccard estimate (mh: minhash_v1) or a Hamming distance (sh: simhash_v1, shi:
                    simhash_idf_v1); bands1 and bands2, for mh, how many of the 44 LSH bands of one value and
                    of the 64 bands of two values the pair shares (the two bandings a registration chooses
                    from); a file without bands2 has the first only
  <x>.minbands.tsv  threshold, min_bands, rows: the banding a MinHash registration at that threshold takes
                    (bands of `rows` values, 1: 44 x 1, 2: 64 x 2; left out: 1) and the bands it requires of
                    a candidate (--minbands; without it every pair within t is a candidate)

Texts are taken in (time, key) order; "earlier" means earlier in that order.  A pair is within threshold t
when J >= t (Jaccard) or d <= t (Hamming).  Rules, each making a story id per text:

  components     connected components of the pairs within t (union-find; textfp's cluster_table default)
  star           cluster_table's star: keys ascending, a key joins the smallest-key original among its
                 smaller-key neighbours within t, else it is an original
  best           a text links to its best earlier candidate within t (highest similarity, then earliest, then
                 smallest key) and joins its story; no match: a new story
  best+orig(t')  best, but a candidate is taken only when the text is also within t' of the original of
                 the candidate's story (t' = t or looser); else the next-best candidate; else a new story
  best+par(t')   the same check against the candidate's own parent (the text it linked to), not the original
  best+margin(m) best, but when the best candidate of the second-best story is within m of the best
                 candidate (similarity units: Jaccard, or bits), the text is ambiguous and starts a new story
  best-orig      a text joins the earlier original it is most similar to, within t (originals only)
  best+orig+margin(t', m)  best+orig, and the margin rule over the stories whose originals pass

Candidates (the rows a text may link to) are its earlier pairs within t, for MinHash only those sharing at
least min_bands(t) bands of the registration's banding at t, as textfp_track's store finds them; components
and star take every pair within t (cluster_table's exact default route); cohesion checks compare with the
original directly, as the store does.

Scores: ARI (adjusted Rand index) over all texts of a group, singletons included; pairwise precision and
recall over pairs of texts (same story against same lineage); stories; the largest story; and for
--planted the share of texts whose story is their lineage's first text's ("with original": a copy in
its original's story).  Groups: all texts, each lang, each set, and each set prefix (edu-en, edu-zh -> edu).

Usage:
  python3 bench/stories/simulate.py --texts X.texts.tsv --pairs X.pairs.tsv [--grid full|default]
      [--methods mh,sh] [--rules ...] [--tsv out.tsv] > report.md
"""
import argparse
import array
import collections
import heapq
import math
import random
import sys
import time as timer

JACCARD = {'mh'}
# the presets' thresholds (textfp_presets()): minhash_v1 0.46875 (60 of 128), simhash_v1 11, simhash_idf_v1 13
DEFAULT_T = {'mh': 0.46875, 'sh': 11, 'shi': 13}
# thresholds tried with --grid full (the default one is always there): MinHash in steps of 4/128
GRID_T = {'mh': [0.375, 0.40625, 0.4375, 0.46875, 0.5, 0.53125, 0.5625, 0.59375, 0.625, 0.65625],
          'sh': [6, 7, 8, 9, 10, 11, 12, 13, 14], 'shi': [8, 9, 10, 11, 12, 13, 14, 15, 16]}


def sim_of(method, score):
    """A similarity where higher is nearer: Jaccard as is, Hamming as 64 - d."""
    return score if method in JACCARD else 64 - score


def load_texts(path):
    texts = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            key, lang, set_, lineage, version, t = line.rstrip('\n').split('\t')
            texts.append((int(t), int(key), lang, set_, lineage, version))
    texts.sort()
    return texts


class Graph:
    """Pairs of one method within its generous threshold, as arrays: for each text (by rank in (time, key)
    order) its earlier neighbours, their similarities and how many LSH bands the pair shares, per banding
    (bands of 1 and of 2 values).  A pair sharing fewer than a rule's min_bands (minb: (rows, m), or 0 for
    none) is never a link, but a cohesion check still sees its similarity: the store compares the two
    fingerprints directly there."""

    def __init__(self, n, rank_of_key, method, rows):
        self.method = method
        later = array.array('i')
        earlier = array.array('i')
        sims = array.array('d')
        bands = {1: array.array('b'), 2: array.array('b')}
        for a, b, score, nb1, nb2 in rows:
            ra, rb = rank_of_key[a], rank_of_key[b]
            if ra > rb:
                ra, rb = rb, ra
            later.append(rb)
            earlier.append(ra)
            sims.append(sim_of(method, score))
            bands[1].append(nb1)
            bands[2].append(-1 if nb2 is None else nb2)
        order = sorted(range(len(later)), key=later.__getitem__)
        self.start = array.array('l', [0]) * (n + 1)
        for r in later:
            self.start[r + 1] += 1
        for i in range(n):
            self.start[i + 1] += self.start[i]
        self.nbr = array.array('i', (earlier[i] for i in order))
        self.sim = array.array('d', (sims[i] for i in order))
        self.bands = {k: array.array('b', (v[i] for i in order)) for k, v in bands.items()}
        self.npairs = len(later)

    def shares(self, i, minb):
        """Whether pair i shares minb = (rows, m) bands of that banding (minb 0: always)."""
        if not minb:
            return True
        nb = self.bands[minb[0]][i]
        if nb < 0:
            sys.exit('simulate.py: the pairs file has no counts of bands of two values (pairs.sql writes them)')
        return nb >= minb[1]

    def earlier(self, r, tsim, absent=(), minb=0):
        """Earlier candidates of rank r within similarity tsim sharing minb bands, best first (then earliest)."""
        s, e = self.start[r], self.start[r + 1]
        out = [(self.sim[i], self.nbr[i]) for i in range(s, e)
               if self.sim[i] >= tsim and self.shares(i, minb) and self.nbr[i] not in absent]
        out.sort(key=lambda p: (-p[0], p[1]))
        return out

    def earlier_map(self, r):
        """Every earlier neighbour of rank r with its similarity, candidate or not (for cohesion checks)."""
        s, e = self.start[r], self.start[r + 1]
        return {self.nbr[i]: self.sim[i] for i in range(s, e)}


def components(g, n, tsim, absent=()):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for r in range(n):
        if r in absent:
            continue
        for i in range(g.start[r], g.start[r + 1]):
            if g.sim[i] >= tsim and g.nbr[i] not in absent:
                a, b = find(r), find(g.nbr[i])
                if a != b:
                    if a < b:
                        a, b = b, a
                    parent[a] = b       # the earliest member stays the root
    return [find(r) for r in range(n)]


def star(g, n, tsim, keys, absent=()):
    """cluster_table's star over keys ascending (not time): a key joins the smallest-key original among
    its smaller-key neighbours, else it is an original."""
    by_key = sorted(range(n), key=lambda r: keys[r])
    kpos = [0] * n
    for p, r in enumerate(by_key):
        kpos[r] = p
    nb = [[] for _ in range(n)]
    for r in range(n):
        if r in absent:
            continue
        for i in range(g.start[r], g.start[r + 1]):
            if g.sim[i] >= tsim and g.nbr[i] not in absent:
                o = g.nbr[i]
                if kpos[o] < kpos[r]:
                    nb[r].append(o)
                else:
                    nb[o].append(r)
    story = [-1] * n
    for r in by_key:
        if r in absent:
            continue
        originals = [o for o in nb[r] if story[o] == o]
        story[r] = min(originals, key=lambda o: kpos[o]) if originals else r
    return story


def decide(g, r, tsim, story, parent, check=None, tcheck=None, margin=None, originals_only=False, absent=(),
           keep=None, minb=0):
    """One text's link under the lineage rules, from the stories and parents of earlier texts: (parent, story)."""
    cands = g.earlier(r, tsim, absent, minb)
    if keep is not None:
        cands = [c for c in cands if keep(r, c[1])]
    if originals_only:
        cands = [c for c in cands if story[c[1]] == c[1]]
    if check and cands:
        near = g.earlier_map(r)
        ok = []
        for s, y in cands:
            ref = story[y] if check == 'orig' else parent[y]
            if ref == -1 or ref == y or near.get(ref, -1e9) >= tcheck:
                ok.append((s, y))
        cands = ok
    if margin is not None and cands:
        top = cands[0]
        second = next((c for c in cands if story[c[1]] != story[top[1]]), None)
        if second is not None and top[0] - second[0] < margin:
            cands = []
    if cands:
        y = cands[0][1]
        return y, story[y]
    return -1, r


def best_earlier(g, n, tsim, absent=(), with_parent=False, **kw):
    """The lineage rules: each text in (time, key) order takes its best earlier match within tsim, subject
    to a check ('orig' or 'par': within tcheck of the candidate story's original, or of the candidate's
    parent) and a margin between the best two stories; keep(r, y), if given, filters the candidates (the
    bounds below use it)."""
    story = list(range(n))
    parent = [-1] * n
    for r in range(n):
        if r not in absent:
            parent[r], story[r] = decide(g, r, tsim, story, parent, absent=absent, **kw)
    return (story, parent) if with_parent else story


def later_lists(g, n, tsim, minb=0):
    """For each text, its later candidates within tsim (the rows whose candidate it is)."""
    later = [[] for _ in range(n)]
    for r in range(n):
        for i in range(g.start[r], g.start[r + 1]):
            if g.sim[i] >= tsim and g.shares(i, minb):
                later[g.nbr[i]].append(r)
    return later


def incremental(g, n, tsim, story, parent, x, insert, later, **kw):
    """Update one rule's stories for text x arriving (insert) or leaving, from the stories without it (or
    with it), re-deciding only the texts that can change: x's later neighbours, then the later neighbours of
    every text whose story or parent changed, in (time, key) order.  Returns the new stories and parents and
    how many texts were re-decided."""
    story, parent = story[:], parent[:]
    absent = set() if insert else {x}
    heap = [x] if insert else []
    if not insert:
        story[x], parent[x] = x, -1
        heap.extend(later[x])
    heapq.heapify(heap)
    queued = set(heap)
    redone = 0
    while heap:
        r = heapq.heappop(heap)
        redone += 1
        p, st = decide(g, r, tsim, story, parent, absent=absent, **kw)
        if (p, st) != (parent[r], story[r]) or r == x:
            parent[r], story[r] = p, st
            for y in later[r]:
                if y not in queued and y not in absent:
                    queued.add(y)
                    heapq.heappush(heap, y)
    return story, parent, redone


def comb2(x):
    return x * (x - 1) // 2


def scores(story, truth, members, first_of_lineage, plain=None):
    """ARI, pairwise precision and recall, stories, largest story, share with its lineage's first text."""
    n = len(members)
    if n < 2:
        return None
    cont = collections.Counter((story[r], truth[r]) for r in members)
    a = collections.Counter(story[r] for r in members)
    b = collections.Counter(truth[r] for r in members)
    sij = sum(comb2(v) for v in cont.values())
    sa = sum(comb2(v) for v in a.values())
    sb = sum(comb2(v) for v in b.values())
    tot = comb2(n)
    expected = sa * sb / tot
    mx = (sa + sb) / 2
    ari = (sij - expected) / (mx - expected) if mx != expected else 1.0
    prec = sij / sa if sa else 1.0
    rec = sij / sb if sb else 1.0
    copies = [r for r in members if first_of_lineage[truth[r]] != r]
    with_orig = (sum(1 for r in copies if story[r] == story[first_of_lineage[truth[r]]]) / len(copies)
                 if copies else float('nan'))
    mixed = collections.Counter(st for st, _ in cont)     # lineages per story
    # the same, counting only texts that are not template instances (--template): chains, not one frame
    plain_mixed = (collections.Counter(st for st, tr in {(story[r], truth[r]) for r in members if plain[r]})
                   if plain else mixed)
    return dict(texts=n, lineages=len(b), stories=len(a), largest=max(a.values()),
                largest_lineage=max(b.values()), most_lineages=max(mixed.values()),
                most_plain_lineages=max(plain_mixed.values(), default=0), ari=ari, precision=prec,
                recall=rec, with_orig=with_orig)


def rule_list(method, grid, exported=None):
    j = method in JACCARD
    t0 = DEFAULT_T[method]
    ts = GRID_T[method] if grid == 'full' else [t0]
    out = []
    for t in ts:
        loose = [t, round(t - 0.05, 2), round(t - 0.1, 2), round(t - 0.15, 2)] if j else [t, t + 2, t + 4, t + 6]
        # t' only as loose as the pairs were exported (pairs.sql: J >= 0.1, d <= 24)
        floor = exported if exported is not None else (0.1 if j else 24)
        loose = [x for x in loose if (x >= floor if j else x <= floor)] or [t]
        margins = [0.02, 0.05, 0.1] if j else [1, 2, 3]
        out.append((t, 'components', {}))
        out.append((t, 'star', {}))
        out.append((t, 'best', {}))
        out.append((t, 'best-orig', dict(originals_only=True)))
        for tl in loose:
            out.append((t, f'best+orig({tl:g})', dict(check='orig', tcheck=sim_of(method, tl))))
        for tl in loose:
            out.append((t, f'best+par({tl:g})', dict(check='par', tcheck=sim_of(method, tl))))
        for m in margins:
            out.append((t, f'best+margin({m:g})', dict(margin=m)))
        for tl in loose[:3]:
            for m in margins[:2]:
                out.append((t, f'best+orig({tl:g})+margin({m:g})', dict(check='orig', tcheck=sim_of(method, tl),
                                                                        margin=m)))
    return out


def run_rule(g, n, keys, method, t, name, kw, absent=()):
    tsim = sim_of(method, t)
    if name == 'components':
        return components(g, n, tsim, absent)
    if name == 'star':
        return star(g, n, tsim, keys, absent)
    return best_earlier(g, n, tsim, absent=absent, **kw)


def blocks(story, n, absent=()):
    """Each text's story as (first member, size, sum of members): equal for two texts of one story, and
    the same triple in two runs only when the story is the same set (up to a negligible collision)."""
    first, size, total = {}, collections.Counter(), collections.Counter()
    for r in range(n):
        if r in absent:
            continue
        first.setdefault(story[r], r)
        size[story[r]] += 1
        total[story[r]] += r
    return [None if r in absent else (first[story[r]], size[story[r]], total[story[r]]) for r in range(n)]


def churn(g, n, keys, method, t, name, kw, base, trials, rng):
    """What one text's arrival changes: stories without it against stories with it (a delete, or read
    backwards, a late arrival), for random texts with at least one pair within t.  Per trial: texts whose
    story (as a set of texts, the moved text left out) differs, and of them how many are within t of the
    moved text, in its story but not within t, or neither (reached through a chain); texts whose story
    keeps its members but changes its id (its original, or earliest member for components, was the text);
    texts earlier than the moved one whose story id changes (the lineage rules look only back: never).  For
    the lineage rules also the incremental update (incremental()) both ways, checked against the full
    replay, and how many texts it re-decided."""
    tsim = sim_of(method, t)
    near = [[] for _ in range(n)]
    for r in range(n):
        for i in range(g.start[r], g.start[r + 1]):
            if g.sim[i] >= tsim:
                near[r].append(g.nbr[i])
                near[g.nbr[i]].append(r)
    linked = [r for r in range(n) if near[r]]
    if not linked:
        return None
    lineage_rule = name not in ('components', 'star')
    if lineage_rule:
        base_story, base_parent = best_earlier(g, n, tsim, with_parent=True, **kw)
        assert base_story == base
        later = later_lists(g, n, tsim, kw.get('minb', 0))
    out = []
    for _ in range(trials):
        x = rng.choice(linked)
        absent = {x}
        if lineage_rule:
            full_del, full_par = best_earlier(g, n, tsim, absent=absent, with_parent=True, **kw)
            alt = full_del
        else:
            alt = run_rule(g, n, keys, method, t, name, kw, absent)
        ab = blocks(alt, n, absent)
        bx = blocks(base, n, absent)
        nx = set(near[x])
        changed = [r for r in range(n) if r != x and ab[r] != bx[r]]
        renamed = sum(1 for r in range(n) if r != x and ab[r] == bx[r] and alt[r] != base[r])
        nn = sum(1 for r in changed if r in nx)
        in_story = sum(1 for r in changed if r not in nx and base[r] == base[x])
        size = sum(1 for r in range(n) if base[r] == base[x])
        before = sum(1 for r in range(x) if alt[r] != base[r])     # earlier texts with a new story id
        assert not (lineage_rule and before), 'a lineage rule changed an earlier text'
        redone_del = redone_ins = -1
        if lineage_rule:
            st, pa, redone_del = incremental(g, n, tsim, base_story, base_parent, x, False, later, **kw)
            st[x] = x
            assert st == full_del, f'incremental delete of rank {x} differs from the replay'
            st2, pa2, redone_ins = incremental(g, n, tsim, full_del, full_par, x, True, later, **kw)
            assert st2 == base_story and pa2 == base_parent, f'incremental insert of rank {x} differs'
        out.append((len(changed), nn, in_story, len(changed) - nn - in_story, renamed, size, before,
                    redone_del, redone_ins))
    return out


def groups_of(texts):
    g = collections.OrderedDict()
    g['all'] = list(range(len(texts)))
    for r, (_, _, lang, set_, _, _) in enumerate(texts):
        g.setdefault('lang:' + lang, []).append(r)
    sets = sorted({t[3] for t in texts})
    for s in sets:
        g['set:' + s] = [r for r, t in enumerate(texts) if t[3] == s]
    prefixes = collections.defaultdict(list)
    for s in sets:
        if '-' in s:
            prefixes[s.rsplit('-', 1)[0]].append(s)
    for p, ss in sorted(prefixes.items()):
        if len(ss) > 1:
            g['sets:' + p] = [r for r, t in enumerate(texts) if t[3] in ss]
    return g


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--texts', required=True)
    ap.add_argument('--pairs', required=True, nargs='+', help='one or more pairs files')
    ap.add_argument('--methods', help='comma-separated (default: every method in the pairs file)')
    ap.add_argument('--grid', choices=['default', 'full'], default='full')
    ap.add_argument('--rules', help='comma-separated rule names to keep (default: all)')
    ap.add_argument('--tsv', help='write every score row here')
    ap.add_argument('--groups', help='comma-separated groups to score (default: all of them)')
    ap.add_argument('--exported', default='',
                    help="how far pairs were exported, as method=threshold,... (default J 0.1, d 24): t' goes no "
                         "further")
    ap.add_argument('--union', help="more groups, as NAME=GROUP+GROUP,...: 'en+zh=lang:en+lang:zh'")
    ap.add_argument('--check', help="end_to_end.sql's <x>.e2e.tsv (name, key, story_id): textfp_stories() of each "
                                    "registration against best+orig(t) at the preset's threshold, text by text")
    ap.add_argument('--minbands', help="pairs.sql's <x>.minbands.tsv: MinHash candidates share min_bands(t) bands")
    ap.add_argument('--churn', type=int, default=0,
                    help='trials of the churn test per rule at the default threshold (0: none)')
    ap.add_argument('--churn-tsv', help='write the churn trials here')
    ap.add_argument('--churn-rules', help='comma-separated rules the churn test runs (default: all)')
    ap.add_argument('--seed', type=int, default=21)
    ap.add_argument('--template', help='the version (role) of template instances, left out of the '
                                       "most_plain_lineages count (textlike: 'template')")
    ap.add_argument('--bounds', action='store_true',
                    help='add the bound (own-lineage candidates only) and the same-time diagnostic')
    ap.add_argument('--mh-threshold', type=float,
                    help="the mh threshold when pairs.sql's mh is a candidate fingerprint (default: minhash_v1's)")
    ap.add_argument('--mh-grid', help="the mh thresholds of --grid full instead of 48/128 to 84/128 by 4, as LO,HI[,STEP] "
                                      "of 128 (a candidate whose pairs sit lower: '20,44,2')")
    ap.add_argument('--mh-cohesion', type=float,
                    help="with --check: the mh registration's cohesion (0: off, the rule best; else best+orig(c), "
                         "c <= the threshold; default the threshold)")
    args = ap.parse_args()
    if args.mh_grid:
        lo, hi, *step = (int(x) for x in args.mh_grid.split(','))
        GRID_T['mh'] = [m / 128 for m in range(lo, hi + 1, step[0] if step else 1)]
    if args.mh_threshold is not None:
        DEFAULT_T['mh'] = args.mh_threshold
        GRID_T['mh'] = sorted(set(GRID_T['mh']) | {args.mh_threshold})

    t0 = timer.time()
    texts = load_texts(args.texts)
    n = len(texts)
    keys = [t[1] for t in texts]
    rank_of_key = {k: r for r, k in enumerate(keys)}
    lineage_ids = {}
    truth = [lineage_ids.setdefault(t[4], len(lineage_ids)) for t in texts]
    first_of_lineage = {}
    for r in range(n):
        first_of_lineage.setdefault(truth[r], r)
    groups = groups_of(texts)
    plain = [t[5] != args.template for t in texts] if args.template else None
    for spec in (args.union or '').split(','):
        if spec:
            name, parts = spec.split('=')
            members = set()
            for part in parts.split('+'):
                members.update(groups.get(part, []))
            groups[name] = sorted(members)
    if args.groups:
        keep = args.groups.split(',')
        groups = collections.OrderedDict((k, v) for k, v in groups.items() if k in keep)

    def read_pairs(only=None):
        """The pairs files' rows, of one method or (only=None) just the methods' names."""
        found, rows = set(), []
        for path in args.pairs:
            with open(path, encoding='utf-8') as f:
                for line in f:
                    method, a, b, score, bands1, *bands2 = line.rstrip('\n').split('\t')
                    found.add(method)
                    if method == only:
                        rows.append((int(a), int(b), float(score), int(bands1), int(bands2[0]) if bands2 else None))
        return rows if only else found

    methods = args.methods.split(',') if args.methods else sorted(read_pairs())
    exported = {m: float(v) for m, v in (x.split('=') for x in args.exported.split(',') if x)}
    minbands = {}
    if args.minbands:
        with open(args.minbands, encoding='utf-8') as f:
            for line in f:
                t, m, *rws = line.split()
                minbands[round(float(t), 6)] = (int(rws[0]) if rws else 1, int(m))

    def min_bands(method, t):
        """The bands a candidate shares at threshold t, (rows, m): textfp_track's rule for MinHash, none (0) for
        SimHash."""
        if method not in JACCARD or not args.minbands:
            return 0
        if round(t, 6) not in minbands:
            sys.exit(f'simulate.py: no min_bands for threshold {t} in {args.minbands}')
        return minbands[round(t, 6)]
    print(f'<!-- {n} texts, loaded in {timer.time() - t0:.1f} s -->', file=sys.stderr)

    checked = {}
    if args.check:
        with open(args.check, encoding='utf-8') as f:
            for line in f:
                name, key, story_id = line.rstrip('\n').split('\t')
                checked.setdefault(name, {})[int(key)] = int(story_id)
    check_lines = []
    check_failed = False

    out = []
    churn_rows = []
    rng = random.Random(args.seed)
    for method in methods:
        g = Graph(n, rank_of_key, method, read_pairs(method))
        print(f'<!-- {method}: {g.npairs} pairs -->', file=sys.stderr)
        if method in checked:
            t = DEFAULT_T[method]
            c = t if method != 'mh' or args.mh_cohesion is None else args.mh_cohesion
            if c > t:
                sys.exit('simulate.py: --mh-cohesion above the threshold: the store bounds direct links to an '
                         'original too, which best+orig does not replay (heldout.py does)')
            ck = dict(check='orig', tcheck=sim_of(method, c)) if c > 0 else {}
            sim_story, sim_parent = best_earlier(g, n, sim_of(method, t), with_parent=True,
                                                 minb=min_bands(method, t), **ck)
            db = checked[method]
            diff = [r for r in range(n) if db.get(keys[r]) != keys[sim_story[r]]]
            db_story = [rank_of_key.get(db.get(keys[r]), -1) for r in range(n)]
            a_sim = scores(sim_story, truth, list(range(n)), first_of_lineage)['ari']
            a_db = scores(db_story, truth, list(range(n)), first_of_lineage)['ari']
            check_lines.append(f'| {method} | {t:g} | {n} | {len(db)} | {len(diff)} | {a_sim:.4f} | {a_db:.4f} |')
            for r in diff[:10]:
                cands = g.earlier(r, sim_of(method, t), (), min_bands(method, t))[:5]
                check_lines.append(f'<!-- {method} key {keys[r]}: simulator story {keys[sim_story[r]]} (parent '
                                   f'{keys[sim_parent[r]] if sim_parent[r] >= 0 else None}), textfp_stories '
                                   f'{db.get(keys[r])}; candidates {[(keys[y], round(sm, 4)) for sm, y in cands]} -->')
            check_failed = check_failed or bool(diff) or len(db) != n
        rules = rule_list(method, args.grid, exported.get(method))
        if args.bounds:
            # not rules: what the best choice among these pairs could reach (candidates of the text's own
            # lineage only), and how much of the error is texts linking within one release (same time)
            for t in sorted({r[0] for r in rules}):
                rules.append((t, 'bound:own-lineage', dict(keep=lambda r, y: truth[r] == truth[y])))
                rules.append((t, 'diag:best,earlier-time', dict(keep=lambda r, y: texts[y][0] < texts[r][0])))
                rules.append((t, f'diag:best+orig({t:g}),earlier-time',
                              dict(keep=lambda r, y: texts[y][0] < texts[r][0], check='orig',
                                   tcheck=sim_of(method, t))))
        if method in JACCARD and args.minbands:
            # not a rule: the recommended rule with every pair within t a candidate (no LSH route)
            for t in sorted({r[0] for r in rules}):
                rules.append((t, f'diag:best+orig({t:g}),all-pairs', dict(check='orig', tcheck=sim_of(method, t),
                                                                         minb=0)))
        for t, name, kw in rules:
            if args.rules and name not in args.rules.split(','):
                continue
            if name not in ('components', 'star'):
                kw = dict(kw)
                kw.setdefault('minb', min_bands(method, t))
            t1 = timer.time()
            story = run_rule(g, n, keys, method, t, name, kw)
            secs = timer.time() - t1
            big = collections.Counter(story).most_common(1)[0][0]
            roles = collections.Counter(texts[r][5] for r in range(n) if story[r] == big)
            for gname, members in groups.items():
                s = scores(story, truth, members, first_of_lineage, plain)
                if s:
                    out.append(dict(method=method, t=t, default=(t == DEFAULT_T[method]), rule=name,
                                    group=gname, seconds=secs,
                                    largest_roles=' '.join(f'{k}:{v}' for k, v in sorted(roles.items())), **s))
            if (args.churn and t == DEFAULT_T[method] and ':' not in name
                    and (not args.churn_rules or name in args.churn_rules.split(','))):
                res = churn(g, n, keys, method, t, name, kw, story, args.churn, random.Random(args.seed))
                for c in res or []:
                    churn_rows.append((method, t, name) + c)
            print(f'<!-- {method} {t:g} {name}: {secs:.1f} s -->', file=sys.stderr)
        del g

    cols = ['method', 't', 'rule', 'group', 'texts', 'lineages', 'stories', 'largest', 'largest_lineage',
            'most_lineages', 'most_plain_lineages', 'ari', 'precision', 'recall', 'with_orig', 'seconds', 'largest_roles']
    if args.tsv:
        with open(args.tsv, 'w', encoding='utf-8') as f:
            f.write('\t'.join(cols) + '\n')
            for r in out:
                f.write('\t'.join(f'{r[c]:g}' if c == 't' else f'{r[c]:.4f}' if isinstance(r[c], float) else str(r[c])
                                   for c in cols) + '\n')
    if args.churn_tsv:
        with open(args.churn_tsv, 'w', encoding='utf-8') as f:
            f.write('method\tt\trule\tchanged\twithin_t\tin_story\tbeyond\trenamed\tstory_size\tearlier\t'
                    'redone_delete\tredone_insert\n')
            for c in churn_rows:
                f.write('\t'.join(str(v) for v in c) + '\n')
    if churn_rows:
        print('\n| method | t | rule | trials | texts whose story changes: mean | p90 | max | of them: within t | '
              'further in its story | elsewhere | earlier texts with a new story id | only renamed | re-decided (delete / insert): '
              'mean | max |')
        print('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
        by = collections.OrderedDict()
        for c in churn_rows:
            by.setdefault(c[:3], []).append(c[3:])
        for (m, t, name), cs in by.items():
            ch = sorted(c[0] for c in cs)
            tot = lambda k: sum(c[k] for c in cs)
            redo = [c[7] + c[8] for c in cs if c[7] >= 0]
            rd = f'{sum(redo) / len(redo) / 2:.1f} | {max(max(c[7], c[8]) for c in cs)}' if redo else ' | '
            print(f'| {m} | {t:g} | {name} | {len(cs)} | {sum(ch) / len(ch):.1f} | {ch[int(0.9 * (len(ch) - 1))]} | '
                  f'{ch[-1]} | {tot(1)} | {tot(2)} | {tot(3)} | {tot(6)} | {tot(4)} | {rd} |')
        print()
    if check_lines:
        rule = ('best+orig(t)' if args.mh_cohesion is None else
                'best (cohesion off)' if args.mh_cohesion == 0 else f'best+orig({args.mh_cohesion:g})')
        print('\n| method | t | texts | rows in textfp_stories | texts whose story differs | ARI, simulator '
              f'{rule} | ARI, textfp_stories |')
        print('|---|---:|---:|---:|---:|---:|---:|')
        print('\n'.join(check_lines))
        print()
    # the Markdown report: the default thresholds, every rule, per group
    print('| method | t | rule | group | texts | lineages | stories | largest (lineage) | most lineages in a story | '
          'ARI | precision | recall | with original |')
    print('|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for r in out:
        if not r['default']:
            continue
        wo = '' if math.isnan(r['with_orig']) else f"{r['with_orig']:.4f}"
        print(f"| {r['method']} | {r['t']:g} | {r['rule']} | {r['group']} | {r['texts']} | {r['lineages']} | "
              f"{r['stories']} | {r['largest']} ({r['largest_lineage']}) | {r['most_lineages']} | {r['ari']:.4f} | {r['precision']:.4f} | "
              f"{r['recall']:.4f} | {wo} |")
    if check_failed:
        print('simulate.py: textfp_stories() differs from the simulator (see the check table)', file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
