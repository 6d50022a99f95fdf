#!/usr/bin/env python3
"""JFR allocation samples aggregated by allocating stack, each share given to the class that caused it.

usage: jfr print --json --events jdk.ObjectAllocationSample --stack-depth 20 REC.jfr > REC.json
       alloc-by-stack.py REC.json CONNECTIONS [TOP]

CONNECTIONS: the connections the recording saw (wrk's request count under 'Connection: close').
Two attributions per sample: the site (the first frame from the top outside the JDK) and the cause
(the first frame from the top outside the JDK and Netty, JCTools being Netty's shaded copy): an
Object[] allocated in JCTools for Vert.x's OutboundMessageQueue has its site in Netty and its cause
in Vert.x core. The weights are JFR's estimate (the bytes the thread allocated since its last sample),
which favours large objects: good for finding stacks, not for exact bytes (histogram-per-conn.sh).
"""
import collections, json, sys

OWNERS = (("io.portshare.web.", "portshare-web"), ("io.portshare.runtime.", "runtime"), ("io.portshare.", "bench"),
          ("io.vertx.ext.web.", "vertx-web"), ("io.vertx.", "vertx-core"), ("io.netty.", "netty"))

def owner(frame):
    return next((o for prefix, o in OWNERS if frame.startswith(prefix)), None)

def main():
    path, conns = sys.argv[1], float(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    events = json.load(open(path))["recording"]["events"]
    by = {k: collections.Counter() for k in ("cause owner", "type", "type and cause", "type and stack")}
    total = 0
    for e in events:
        v = e["values"]
        w, t = v["weight"], v["objectClass"]["name"]
        frames = [f["method"]["type"]["name"].replace("/", ".") + "." + f["method"]["name"] + ":" + str(f.get("lineNumber", ""))
                  for f in (v.get("stackTrace") or {}).get("frames", [])]
        cause = next((f for f in frames if owner(f) not in (None, "netty")),
                     next((f for f in frames if owner(f)), frames[0] if frames else "?"))
        total += w
        by["cause owner"][owner(cause) or "jdk"] += w
        by["type"][t] += w
        by["type and cause"][(t, cause)] += w
        by["type and stack"][(t, " < ".join(frames[:14]))] += w
    per = lambda w: w / conns
    print(f"# samples: {len(events)}, sampled weight: {total} B, connections: {conns:.0f}, "
          f"weight per connection: {per(total):.0f} B (JFR's estimate, not the exact bytes)")
    for name, c in by.items():
        print(f"\n## by {name}")
        for k, w in c.most_common(top):
            label = k if isinstance(k, str) else (k[0] + ("\n      " if name.endswith("stack") else "  @ ") + k[1])
            print(f"{per(w):8.0f} B/conn  {100 * w / total:5.1f}%  {label}")

main()
