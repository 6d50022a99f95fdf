#!/usr/bin/env bash
# Where a transaction's CPU goes: the C echo server against rpc-server, one worker each, the
# ledger's client (rpcload, one thread, 32 connections of PER_CONN transactions each), perf on the
# server for exactly the client's run, rounds alternated. Writes to OUT (default
# bench-results/profile-<time>-<PER_CONN>x-<SIZE>B/):
#   table.txt       per round, server CPU per transaction (perf samples over the transactions) and its
#                   kernel and user parts; then, for the median round of each, the symbols by cost
#                   per transaction side by side (perf report --sort sym)
#   perf-*.txt      each server's perf report of its median round
# The JVM dumps its JIT symbols at exit (-XX:+DumpPerfMapAtExit) for perf to name Java frames.
#
#   deploy/bench.sh profile [ROUNDS] [SIZE] [PER_CONN]     # 3, 64, 1024; about a minute
#   deploy/bench-profile.sh [ROUNDS] [SIZE] [PER_CONN]     # the same
#   deploy/bench.sh profile 3 64 1                         # one transaction per connection
# The ledger says how much each server costs; this says where (bench/report/ledger/README.md).
#
# Needs perf and gcc (bench/peers/c-echo/build.sh); builds rpc-server when its jar is missing.
# As root it runs in a network namespace of its own, as the ledger does (deploy/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/lib.sh
portshare_help "$@"
rounds="${1:-3}" size="${2:-64}" per_conn="${3:-1024}"
for v in "ROUNDS=$rounds" "SIZE=$size" "PER_CONN=$per_conn"; do
  [[ "${v#*=}" =~ ^[1-9][0-9]*$ ]] || { echo "bench-profile: ${v%%=*} must be a positive whole number, not '${v#*=}'" >&2; exit 2; }
done
command -v perf >/dev/null || { echo "bench-profile: perf is not installed (apt-get install linux-perf)" >&2; exit 2; }
if [ -z "${PORTSHARE_PROFILE_INNER:-}" ]; then
  portshare_need_jars rpc-server
  [ -x bench/peers/c-echo/echo ] && [ -x bench/peers/c-echo/rpcload ] || bench/peers/c-echo/build.sh >/dev/null
  export PORTSHARE_PROFILE_INNER=1
  portshare_bench_exec "$0" "$@"
fi
out="${OUT:-bench-results/profile-$(date +%Y%m%d-%H%M%S)-${per_conn}x-${size}B}"
mkdir -p "$out"
jar=$(portshare_jar rpc-server)
work="$(mktemp -d)"
chmod 755 "$work"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT

bench/peers/c-echo/echo -p 29500 -t 1 >"$work/c.log" 2>&1 &
cpid=$!; pids+=("$cpid")
java -Xms256m -Xmx256m -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -jar "$jar" --host 0.0.0.0 \
  --port 29510 --admin-port 29511 --instances 1 --mode reuseport >"$work/j.log" 2>&1 &
jpid=$!; pids+=("$jpid")
for _ in $(seq 120); do
  curl -sf http://127.0.0.1:29511/health/ready >/dev/null && break
  sleep 0.5
done
curl -sf http://127.0.0.1:29511/health/ready >/dev/null || { echo "bench-profile: rpc-server not ready" >&2; exit 1; }

load() { # PORT DST SECONDS [PREFIX...] -> the client's result line; PREFIX (a perf record) runs the client
  local port=$1 dst=$2 seconds=$3
  shift 3
  "$@" bench/peers/c-echo/rpcload -h "$dst" -p "$port" -c 32 -s "$size" -n "$per_conn" -d "$seconds" -w 0 -t 1 \
    2>/dev/null | grep '^result'
}
# Both warmed on this path before anything counts (the JIT has not seen it in the service's warm-up).
load 29500 127.0.0.2 10 >/dev/null
load 29510 127.0.0.3 10 >/dev/null

dst=10
for r in $(seq "$rounds"); do
  for s in c j; do
    if [ "$s" = c ]; then port=29500 pid=$cpid; else port=29510 pid=$jpid; fi
    dst=$((dst + 1))
    load "$port" "127.0.0.$dst" 6 perf record -q -F 1999 -p "$pid" -o "$work/$s-$r.data" -- >"$work/$s-$r.result"
  done
done
kill -TERM "$jpid"; wait "$jpid" 2>/dev/null || true   # writes the perf map

{
  echo "command: deploy/bench.sh profile $rounds $size $per_conn"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  CPUs: $(nproc)  $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "kernel: $(uname -r)  Java: $(java -version 2>&1 | head -1)  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$work/header"
python3 - "$work" "$rounds" "$out" "$size" "$per_conn" <<'EOF'
import re, statistics, subprocess, sys
work, rounds, out, size, per_conn = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
HZ = 1999

def report(data):
    text = subprocess.run(["perf", "report", "-i", data, "--no-children", "-n", "--sort", "sym", "--stdio"],
                          capture_output=True, text=True, check=True).stdout
    samples, syms = 0, {}
    for line in text.splitlines():
        m = re.match(r"\s+[\d.]+%\s+(\d+)\s+\[(.)\]\s+(.*\S)", line)
        if m:
            samples += int(m.group(1))
            key = (m.group(2), m.group(3))
            syms[key] = syms.get(key, 0) + int(m.group(1))
    return text, samples, syms

rows = {}
for s in "cj":
    for r in range(1, rounds + 1):
        result = open(f"{work}/{s}-{r}.result").read()
        tx = int(re.search(r"transactions=(\d+)", result).group(1))
        text, samples, syms = report(f"{work}/{s}-{r}.data")
        us = samples / HZ / tx * 1e6
        kernel = sum(n for (k, _), n in syms.items() if k == "k") / samples
        rows.setdefault(s, []).append((us, kernel, tx, samples, syms, text))

name = {"c": "C echo server", "j": "rpc-server"}
lines = [f"server CPU per {size} B transaction, {per_conn:,} per connection, 32 connections, one worker each "
         f"side, perf at {HZ} Hz on the server for exactly each client run of 6 s; rounds alternated",
         "", f"{'server':<14} {'round':>5} {'transactions':>12} {'samples':>8} {'us/tx':>7} {'kernel':>7} {'user':>7}"]
for s in "cj":
    for r, (us, kernel, tx, samples, _, _) in enumerate(rows[s], 1):
        lines.append(f"{name[s]:<14} {r:>5} {tx:>12} {samples:>8} {us:7.2f} {us*kernel:7.2f} {us*(1-kernel):7.2f}")
med = {}
for s in "cj":
    ordered = sorted(rows[s], key=lambda x: x[0])
    med[s] = ordered[len(ordered) // 2]
    lo, hi = ordered[0][0], ordered[-1][0]
    lines.append(f"{name[s]}: median {med[s][0]:.2f} us/tx ({lo:.2f}-{hi:.2f}), kernel {med[s][0]*med[s][1]:.2f}, "
                 f"user {med[s][0]*(1-med[s][1]):.2f}")
ratios = sorted(j[0] / c[0] for c, j in zip(rows["c"], rows["j"]))
lines.append(f"rpc-server / C by round: {', '.join(f'{x:.2f}' for x in ratios)}; median {statistics.median(ratios):.2f}")

# User time by whose code it is. JIT-compiled Java frames carry their class (inlined callees are
# charged to the method they were compiled into); the JVM's own are C++ (Class::method) or stubs.
EXCEPTIONS = re.compile(r"Exception|find_blob|handle_exception|rethrow|frame::sender|after_unwind|reguard_stack|"
                        r"is_deoptimization_stub|nmethod::is_zombie|CompiledMethod::is_compiled")
def owner(sym):
    if re.search(r"vtable|itable", sym):
        return "megamorphic call stubs"
    if "::" in sym or sym.startswith(("jni_", "JVM_", "Interpreter", "StubRoutines", "I2C", "0x")):
        return "the JVM (compiler threads, GC, runtime, exception unwinding)"
    if "io.portshare." in sym:
        return "portshare (counting, decoder, echo, meters)"
    if re.search(r"Allocator|ByteBuf|Recycler|ReferenceCount", sym):
        return "Netty buffers (allocate, slice, release)"
    if re.search(r"OutboundBuffer|AbstractUnsafe\.flush|HandlerContext\.(write|flush)|Promise|doWrite|writeBytes", sym):
        return "Netty write path (outbound buffer, flush, promises)"
    if "io.netty." in sym:
        return "Netty event loop, channel life and read path"
    if re.search(r"\b(java|jdk|sun)\.", sym):
        return "the JDK"
    return "libc and the vDSO (system-call wrappers, clock)"
for s in "j":
    us, _, _, samples, syms, _ = med[s]
    by = {}
    for (kind, sym), n in syms.items():
        if kind != "k":
            by[owner(sym)] = by.get(owner(sym), 0) + n
    exceptions = sum(n for (kind, sym), n in syms.items() if kind != "k" and EXCEPTIONS.search(sym))
    lines += ["", f"{name[s]}'s user time by owner, median round, us per transaction"]
    lines += [f"{us*n/samples:6.2f}  {o}" for o, n in sorted(by.items(), key=lambda x: -x[1])]
    lines.append(f"{us*exceptions/samples:6.2f}  of it in exceptions (made, thrown, unwound)")
lines += ["", "symbols of the median rounds, us per transaction ([k] kernel, [.] user: JIT-compiled Java, the JVM, libc)",
          f"{'C':>6} {'rpc':>6} {'diff':>6}  symbol"]
c_syms = {k: n / med["c"][3] * med["c"][0] for k, n in med["c"][4].items()}
j_syms = {k: n / med["j"][3] * med["j"][0] for k, n in med["j"][4].items()}
keys = sorted(set(c_syms) | set(j_syms), key=lambda k: -max(c_syms.get(k, 0), j_syms.get(k, 0)))
for k in keys[:60]:
    c, j = c_syms.get(k, 0), j_syms.get(k, 0)
    lines.append(f"{c:6.3f} {j:6.3f} {j-c:+6.3f}  [{k[0]}] {k[1][:100]}")
open(f"{out}/table.txt", "w").write(open(f"{work}/header").read() + "\n".join(lines) + "\n")
for s in "cj":
    open(f"{out}/perf-{'c-echo' if s == 'c' else 'rpc-server'}.txt", "w").write(med[s][5])
print("\n".join(lines[:14]))
EOF
