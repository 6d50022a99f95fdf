import sys, statistics as st, collections
rows=[l.split() for l in open(sys.argv[1]) if not l.startswith('#')]
d=collections.defaultdict(list)
for r in rows: d[(r[0],r[1])].append(r)
cases=sorted(set(k[0] for k in d)); servers=sorted(set(k[1] for k in d))
print("case server n(kept/all) req_s user total (min-max total) wrk")
for c in cases:
  for s in servers:
    rs=d.get((c,s),[])
    if not rs: continue
    med=st.median(float(r[3]) for r in rs)
    kept=[r for r in rs if float(r[3])>0.3*med]
    f=lambda i:[float(r[i]) for r in kept]
    print(f"{c} {s} {len(kept)}/{len(rs)} {st.median(f(3)):.0f} {st.median(f(4)):.1f} {st.median(f(6)):.1f} ({min(f(6)):.1f}-{max(f(6)):.1f}) {st.median(f(7)):.1f}")
