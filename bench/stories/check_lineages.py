#!/usr/bin/env python3
"""check_lineages.py: what make_lineages.pl's alignment looks like, for checking it by hand.

For every set: the word-set Jaccard (CJK: character pairs) of consecutive versions of each lineage, as a
histogram, with the lowest pairs printed (title, versions, similarity, the first characters of both texts),
and the sections present in one version only whose best match among the singletons of the next or previous
version is at 0.5 or more (a section renamed between releases would show up there, and the alignment by
name misses it).  Reads make_lineages.pl's output on stdin.

Usage: python3 bench/stories/check_lineages.py [--show N] < lineages.tsv
"""
import argparse
import collections
import re
import sys


def unescape(s):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t', 'r': '\r', '\\': '\\'}.get(m.group(1), m.group(1)), s)


def features(text):
    words = re.findall(r'[A-Za-z0-9_]+|[\u3040-\u30ff\u3400-\u9fff]', text.lower())
    cjk = [w for w in words if len(w) == 1 and w >= '\u3040']
    if len(cjk) > len(words) / 2:
        return {a + b for a, b in zip(cjk, cjk[1:])}
    return set(words)


def jaccard(a, b):
    return len(a & b) / len(a | b) if a or b else 1.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--show', type=int, default=8)
    args = ap.parse_args()
    rows = []
    for line in sys.stdin:
        key, lang, set_, lineage, version, time, source, title, body = line.rstrip('\n').split('\t')
        rows.append(dict(key=int(key), set=set_, lineage=lineage, version=version, time=time,
                         title=unescape(title), body=unescape(body)))
    for r in rows:
        r['f'] = features(r['title'] + '\n' + r['body'])
    by_set = collections.defaultdict(list)
    for r in rows:
        by_set[r['set']].append(r)
    for set_, rs in by_set.items():
        versions = sorted({(r['time'], r['version']) for r in rs})
        vindex = {v: i for i, (_, v) in enumerate(versions)}
        lin = collections.defaultdict(list)
        for r in rs:
            lin[r['lineage']].append(r)
        steps = []
        for members in lin.values():
            members.sort(key=lambda r: (r['time'], r['key']))
            for a, b in zip(members, members[1:]):
                steps.append((jaccard(a['f'], b['f']), a, b))
        steps.sort(key=lambda s: s[0])
        hist = collections.Counter(min(int(j * 10), 9) for j, _, _ in steps)
        print(f'## {set_}: {len(rs)} texts, {len(lin)} lineages, {len(steps)} consecutive-version steps')
        print('word Jaccard of a step, by tenth: ' + ' '.join(f'{d / 10:.1f}:{hist[d]}' for d in range(10)))
        exact = sum(1 for j, _, _ in steps if j == 1.0)
        print(f'identical word sets: {exact}; median {steps[len(steps) // 2][0]:.3f}' if steps else '')
        for j, a, b in steps[:args.show]:
            print(f'  {j:.3f} {a["lineage"]} ({a["version"]} -> {b["version"]}): '
                  f'{a["body"][:90]!r} | {b["body"][:90]!r}')
        single = [r for r in rs if len(lin[r['lineage']]) == 1]
        renamed = []
        for r in single:
            near = [s for s in single if abs(vindex[s['version']] - vindex[r['version']]) == 1
                    and vindex[s['version']] > vindex[r['version']]]
            best = max(near, key=lambda s: jaccard(r['f'], s['f']), default=None)
            if best is not None and jaccard(r['f'], best['f']) >= 0.5:
                renamed.append((jaccard(r['f'], best['f']), r, best))
        print(f'singletons: {len(single)}; with a singleton of the next version at word Jaccard >= 0.5 '
              f'(a likely rename the alignment misses): {len(renamed)}')
        for j, a, b in sorted(renamed, key=lambda x: -x[0])[:args.show]:
            print(f'  {j:.3f} {a["lineage"]} ({a["version"]}) ~ {b["lineage"]} ({b["version"]})')
        print()


if __name__ == '__main__':
    main()
