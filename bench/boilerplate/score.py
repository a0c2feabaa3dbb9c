#!/usr/bin/env python3
"""score.py: stories (replay.c's output) against bench/corpus's planted families.

  python3 score.py LABELS STORIES [NAME]   -> one TSV line of scores (a header with --header)

LABELS: id, lang, site, family (0: none), role, strength (-1: none), in id order.
Truth: a planted family (original and copies) is one story; every other row (singleton, template) a story of its own.
Scores: largest stories, largest planted family, the largest story's rows of its commonest site, recall (a copy in
its original's story; recall_small: copies of families of at most 300 rows, the power-law ones, without the two
planted big families), pairwise precision / recall / ARI over all rows, template rows in a story with another
member of their template group, mean / p99 / max near rows (all rows within the radius), mean near rows not of the
row's planted family ("false"), by language, mean near rows before (what the last insert looks up), NULL
fingerprints.
"""
import sys
from collections import Counter, defaultdict

COLS = ['method', 'largest', 'top5', 'planted_max', 'ratio', 'largest_site_share', 'recall_copy', 'recall_small', 'recall_s0123',
        'pair_prec', 'pair_rec', 'ari', 'tmpl_together', 'near_mean', 'near_false_mean', 'near_en/zh', 'near_p99', 'near_max', 'before_mean', 'null_fp']


def c2(n):
    return n * (n - 1) // 2


def main():
    if sys.argv[1] == '--header':
        print('\t'.join(COLS))
        return
    labels, stories, name = sys.argv[1], sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else sys.argv[2])
    lab = {}
    for line in open(labels):
        i, lang, site, fam, role, strength = line.rstrip('\n').split('\t')
        lab[int(i)] = (lang, int(site), int(fam), role, int(strength))
    story, near, before, null, false, bylang = {}, [], [], 0, [], defaultdict(list)
    for line in open(stories):
        k, s, src, sc, b, a, same = line.rstrip('\n').split('\t')
        story[int(k)] = int(s)
        near.append(int(a))
        before.append(int(b))
        false.append(int(a) - int(same))
        bylang[lab[int(k)][0]].append(int(a))
    nulls = sys.argv[4] if len(sys.argv) > 4 else None
    if nulls:
        null = sum(1 for line in open(nulls) if line.rstrip('\n').endswith('\\N'))
    size = Counter(story.values())
    top = [n for _, n in size.most_common(5)]
    fam_size = Counter(f for (_, _, f, r, _) in lab.values() if r in ('original', 'copy'))
    planted_max = max(fam_size.values())
    big = size.most_common(1)[0][0]
    sites = Counter(lab[k][1] for k, s in story.items() if s == big)
    # recall: copy in its original's story
    rec, by_s, small = [], defaultdict(list), []
    for k, (lang, site, fam, role, st) in lab.items():
        if role == 'copy':
            ok = story[k] == story[fam]
            rec.append(ok)
            if fam_size[fam] <= 300:
                small.append(ok)
            by_s[st].append(ok)
    # pairwise over all rows: truth label = family for original/copy, own id otherwise
    truth = {k: (v[2] if v[3] in ('original', 'copy') else -k) for k, v in lab.items()}
    cont = Counter((story[k], truth[k]) for k in lab)
    tp = sum(c2(n) for n in cont.values())
    ps = sum(c2(n) for n in size.values())
    pt = sum(c2(n) for n in Counter(truth.values()).values())
    tot = c2(len(lab))
    exp = ps * pt / tot
    ari = (tp - exp) / (0.5 * (ps + pt) - exp) if (ps + pt) / 2 != exp else 1.0
    # templates: rows sharing a story with another member of their group
    tg = Counter((story[k], v[2]) for k, v in lab.items() if v[3] == 'template')
    tmpl = sum(n for n in tg.values() if n >= 2) / max(1, sum(tg.values()))
    ns = sorted(near)
    out = [name, top[0], ','.join(map(str, top)), planted_max, round(top[0] / planted_max, 3),
           round(sites.most_common(1)[0][1] / top[0], 3), round(sum(rec) / len(rec), 4), round(sum(small) / len(small), 4),
           '/'.join('%.3f' % (sum(v) / len(v)) for _, v in sorted(by_s.items())),
           round(tp / ps, 4) if ps else 1.0, round(tp / pt, 4), round(ari, 4), round(tmpl, 3),
           round(sum(near) / len(near), 1), round(sum(false) / len(false), 1),
           '/'.join('%.1f' % (sum(v) / len(v)) for _, v in sorted(bylang.items())), ns[int(0.99 * (len(ns) - 1))], ns[-1],
           round(sum(before) / len(before), 1), null]
    print('\t'.join(map(str, out)))


main()
