# lock_keys.py FPS.tsv [RADIUS] [PAIRS]: share of row pairs that would wait for
# each other under a registration's lock keys (lock_keys.sh makes FPS.tsv:
# id, lang, site, family, role, simhash_v2 as bigint, minhash_v2's first 39
# values).  SimHash at radius R: blocks = R + 1 blocks, a pair shares a key
# when one block is equal; pairs = R + 2 blocks, when two are; minhash_v2: 39
# bands of one value (44 bands, at least 6), when one is equal.
import random, sys, collections
R = int(sys.argv[2]) if len(sys.argv) > 2 else 11
N = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
rows = []
for line in open(sys.argv[1]):
    i, lang, site, fam, role, fp, mv = line.rstrip('\n').split('\t')
    rows.append((int(i), lang, int(site), int(fam), role, int(fp) & (2**64 - 1), tuple(mv.split(','))))
def layout(m):
    base, wide, shift, out = 64 // m, 64 % m, 64, []
    for i in range(m):
        w = base + (1 if i < wide else 0); shift -= w
        out.append((shift, (1 << w) - 1))
    return out
LB, LP = layout(R + 1), layout(R + 2)
def eq(lay, a, b):
    x = a ^ b
    return sum(1 for s, m in lay if (x >> s) & m == 0)
def classify(a, b):
    d = bin(a[5] ^ b[5]).count('1')
    blk = eq(LB, a[5], b[5]) >= 1
    par = eq(LP, a[5], b[5]) >= 2
    mh = any(x == y for x, y in zip(a[6], b[6]))
    return d, blk, par, mh
by_site = collections.defaultdict(list)
by_lang = collections.defaultdict(list)
for r in rows:
    by_site[(r[1], r[2])].append(r); by_lang[r[1]].append(r)
random.seed(21)
def run(name, pick):
    n = nb = np_ = nm = near = nearb = nearp = 0
    while n < N:
        a, b = pick()
        if a[0] == b[0] or a[3] == b[3]:
            continue  # same row or same family (copies, templates): related
        d, blk, par, mh = classify(a, b)
        if d <= R:
            near += 1; nearb += blk; nearp += par
            continue  # near: they must wait
        n += 1; nb += blk; np_ += par; nm += mh
    print(f"{name}: {n} unrelated pairs (farther than {R} bits): blocks {100*nb/n:.1f}%  pairs {100*np_/n:.1f}%  minhash_v2 bands {100*nm/n:.1f}%   [near unrelated pairs skipped: {near}, of them blocks {nearb} pairs {nearp}]")
run("any two rows", lambda: (random.choice(rows), random.choice(rows)))
run("same language", lambda: (lambda l: (random.choice(by_lang[l]), random.choice(by_lang[l])))(random.choice(rows)[1]))
sites = [r for r in rows if len(by_site[(r[1], r[2])]) > 1]
run("same site", lambda: (lambda a: (a, random.choice(by_site[(a[1], a[2])])))(random.choice(sites)))
# uniform random fingerprints, for reference
U = [(i, '', 0, -i, '', random.getrandbits(64), ()) for i in range(100000)]
n = nb = np_ = 0
for _ in range(N):
    a, b = random.choice(U), random.choice(U)
    if bin(a[5] ^ b[5]).count('1') <= R: continue
    n += 1; nb += eq(LB, a[5], b[5]) >= 1; np_ += eq(LP, a[5], b[5]) >= 2
print(f"uniform random fps: blocks {100*nb/n:.1f}%  pairs {100*np_/n:.1f}%")
# same family: copies of one original (should mostly share)
fam = collections.defaultdict(list)
for r in rows:
    if r[4] in ('original', 'copy'): fam[r[3]].append(r)
n = nb = np_ = nn = 0
for f, rs in fam.items():
    for i in range(len(rs)):
        for j in range(i + 1, len(rs)):
            d, blk, par, mh = classify(rs[i], rs[j])
            if d <= R:
                nn += 1; nb += blk; np_ += par
print(f"planted family pairs within {R} bits: {nn}, share a key: blocks {nb}, pairs {np_}")
