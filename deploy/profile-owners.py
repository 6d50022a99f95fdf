#!/usr/bin/env python3
"""The tables of deploy/profile-owners.sh, which runs this; not a command of its own.

  profile-owners.py one HEADER WINDOWS PERF_SCRIPT CLK_TCK UNPROFILED_WRK PROFILED_WRK   > raw file
  profile-owners.py combine COMMAND OUT RAW...

A sample's owner is the code its leaf frame belongs to. Kernel samples are split by their stack
(the first group any frame names, in the order of KERNEL); JIT-compiled Java by the package of the
compiled method (what it inlined included); the JVM's own code by the thread it ran on.
"""
import re
import statistics
import subprocess
import sys

KERNEL = [  # (owner, any kernel frame of the stack matches), first match wins
    ("kernel softirq (loopback receive, wake-ups)",
     r"^(handle_softirqs|__do_softirq|do_softirq|net_rx_action|__napi_poll|process_backlog)$"),
    ("kernel epoll", r"^(do_epoll_wait|ep_poll|ep_send_events|ep_item_poll|do_epoll_ctl|ep_insert|ep_remove|"
                     r"__x64_sys_epoll|ep_done_scan|ep_start_scan|ep_free|eventpoll_release)"),
    ("kernel page faults and memory", r"^(asm_exc_page_fault|exc_page_fault|do_user_addr_fault|handle_mm_fault|"
                                      r"__x64_sys_madvise|__x64_sys_munmap|__x64_sys_mmap|__x64_sys_mprotect)"),
    ("kernel sockets and tcp/ip",
     r"^(tcp_|__tcp_|inet_|__inet_|sock_|__sock_|sk_|__sk_|skb_|__skb_|ip_|__ip_|release_sock|lock_sock|"
     r"__sys_(accept|accept4|sendto|recvfrom|sendmsg|recvmsg|shutdown|setsockopt|getsockopt|getsockname|getpeername)|"
     r"do_sendfile|do_splice|splice_|__x64_sys_(sendfile64|writev|readv|read|write|close|accept4?|sendto|recvfrom|"
     r"shutdown|sendmsg|recvmsg|setsockopt|getsockopt|getsockname)|__fput|do_writev|do_readv|vfs_(read|write))"),
    ("kernel scheduler and futex", r"^(futex_|__futex|do_futex|__x64_sys_futex|schedule|__schedule|try_to_wake_up|"
                                   r"finish_task_switch|__x64_sys_sched_yield|do_sched_yield|do_nanosleep|"
                                   r"__x64_sys_(clock_)?nanosleep)"),
]
ENTRY = re.compile(r"^(entry_SYSCALL|do_syscall_64|syscall_|exit_to_user_mode|__x64_sys_|x64_sys_call|srso_|"
                   r"entry_|error_entry|native_irq_return|restore_regs|switch_fpu|fpregs_|arch_exit|rseq|__rseq|"
                   r"clear_bhb|irqentry_|ct_|__get_user|__put_user)")
KERNEL_RE = [(o, re.compile(r)) for o, r in KERNEL]
JAVA = [("Netty", "io.netty."), ("Vert.x core", "io.vertx.core."), ("vertx-web", "io.vertx.ext.web."),
        ("portshare", "io.portshare."), ("JDK", ("java.", "jdk.", "sun.", "com.sun."))]
OWNERS = [o for o, _ in KERNEL] + ["kernel system-call entry and exit", "kernel other (interrupts, timers)",
          "libjvm GC", "libjvm compiler", "libjvm interpreter", "libjvm runtime", "JIT stubs (calls, copies)",
          "Netty", "Vert.x core", "vertx-web", "portshare", "JDK", "other Java", "JIT code without a name",
          "nginx", "libc and vDSO", "other native", "unknown"]


def method(sym):
    """'void io.netty.Foo$Bar.baz(int)' -> 'io.netty.Foo$Bar.baz'; None for a blob of the code cache."""
    if "(" not in sym:
        return None
    head = sym.split("(", 1)[0].split()
    if not head or "." not in head[-1]:
        return None  # a stub of the code cache, "StubRoutines (1)"
    # a lambda's class is numbered and placed anew in each JVM: one name for all runs
    return re.sub(r"\$\$Lambda\$\d+/0x[0-9a-f]+", "$$Lambda", head[-1])


def is_kernel(dso):
    return dso.startswith("[") and dso not in ("[unknown]", "[vdso]", "[vsyscall]")


def java_owner(name):
    for owner, prefix in JAVA:
        if name.startswith(prefix):
            return owner
    return "other Java"


def user_owner(sym, dso, comm):
    if dso.endswith(".map"):  # the JVM's perf map: JIT-compiled methods and the code cache's other blobs
        name = method(sym)
        if name:
            return java_owner(name)
        if sym == "[unknown]":
            return "JIT code without a name"
        return "libjvm interpreter" if sym.startswith("Interpreter") else "JIT stubs (calls, copies)"
    if dso.endswith("libjvm.so"):
        if re.search(r"Compiler|^C[12] ", comm):
            return "libjvm compiler"
        if re.search(r"^(GC |G1 |VM Thread|Conc|Gang)", comm) or re.search(
                r"G1|TLAB|Tlab|MemAllocator|CollectedHeap|Barrier|new_instance|new_array", sym):
            return "libjvm GC"
        if re.search(r"Interpreter|LinkResolver|Bytecode", sym):
            return "libjvm interpreter"
        return "libjvm runtime"
    base = dso.rsplit("/", 1)[-1]
    if base == "nginx":
        return "nginx"
    if base.startswith(("libc.so", "libc-", "ld-linux", "libpthread")) or base == "[vdso]":
        return "libc and vDSO"
    if "netty" in base:
        return "Netty"
    if base.startswith(("libjava", "libnio", "libnet", "libzip", "libjimage", "libverify")):
        return "JDK"
    return "unknown" if dso == "[unknown]" else "other native"


def owner(frames, comm):
    sym, dso = frames[0]
    if not is_kernel(dso):
        return user_owner(sym, dso, comm), sym
    kernel = [s for s, d in frames if is_kernel(d)]
    for o, r in KERNEL_RE:
        if any(r.search(s) for s in kernel):
            return o, sym
    return ("kernel system-call entry and exit" if ENTRY.search(sym) else "kernel other (interrupts, timers)"), sym


def system_call(frames):
    """The system call a kernel sample ran under (the __x64_sys_NAME frame of its stack), or how it got there."""
    for sym, dso in frames:
        m = re.match(r"^__(?:x64|do|se)_sys_(\w+)", sym) if is_kernel(dso) else None
        if m:
            return m.group(1)
    kernel = [s for s, d in frames if is_kernel(d)]
    if any(KERNEL_RE[0][1].search(s) for s in kernel):
        return "(softirq on an interrupt)"
    return "(system-call entry and exit)" if ENTRY.search(kernel[0]) else "(interrupt, fault, other)"


def samples(path):
    """(comm, weight, [(sym, dso)] leaf first) from perf script -F comm,tid,period,ip,sym,dso."""
    frames, comm, weight = [], None, 1
    frame = re.compile(r"^\s*[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)\s*$")
    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                if comm is not None and frames:
                    yield comm, weight, frames
                frames, comm = [], None
            elif line.startswith("\t"):
                m = frame.match(line)
                if m:
                    frames.append((m.group(1), m.group(2)))
            else:
                m = re.match(r"^\s*(.*?)\s+(\d+)\s+(\d+)\s*$", line)
                comm, weight = (m.group(1), int(m.group(3))) if m else (line.strip(), 1)
    if comm is not None and frames:
        yield comm, weight, frames


def wrk_result(path):
    text = open(path).read()
    requests = int(re.search(r"(\d+) requests in ([\d.]+)(\w+)", text).group(1))
    m = re.search(r"requests in ([\d.]+)(ms|s|m)", text)
    secs = float(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60}[m.group(2)]
    return requests, secs


def one(header, windows, script, clk_tck, unprofiled_wrk, profiled_wrk):
    tick_us = 1e6 / int(clk_tck)
    out = [open(header).read().rstrip("\n"), "",
           "windows: server CPU per request, utime+stime of the server over each client run",
           f"{'window':<12}  {'address':<10}  {'requests':>9}  {'seconds':>7}  {'req/s':>8}  {'µs/req':>6}  "
           f"{'user µs/req':>11}  {'system µs/req':>13}"]
    per_request = {}
    for line, wrk in zip(open(windows).read().split("\n"), (unprofiled_wrk, profiled_wrk)):
        name, addr, ticks, uticks = line.split()
        requests, secs = wrk_result(wrk)
        us, user = int(ticks) * tick_us / requests, int(uticks) * tick_us / requests
        per_request[name] = us
        out.append(f"{name:<12}  {addr:<10}  {requests:>9}  {secs:>7.2f}  {requests / secs:>8.0f}  {us:>6.2f}  "
                   f"{user:>11.2f}  {us - user:>13.2f}")
    us = per_request["profiled"]
    by_owner, by_symbol, by_call = {}, {}, {}
    total = count = 0
    for comm, weight, frames in samples(script):
        o, sym = owner(frames, comm)
        total += weight
        count += 1
        by_owner[o] = by_owner.get(o, 0) + weight
        name = method(sym) or sym
        by_symbol[(o, name)] = by_symbol.get((o, name), 0) + weight
        if o.startswith("kernel"):
            call = system_call(frames)
            by_call[call] = by_call.get(call, 0) + weight
    if not total:
        raise SystemExit("profile-owners: perf recorded no sample of the server")
    share = lambda w: f"{100 * w / total:.1f}%"
    cost = lambda w: f"{us * w / total:.2f}"
    out += ["", f"owners: the profiled window's server CPU per request by the owner of each sampled frame ({count} samples)",
            f"{'owner':<44}  {'µs/req':>6}  {'share':>6}"]
    for o in OWNERS:
        if by_owner.get(o):
            out.append(f"{o:<44}  {cost(by_owner[o]):>6}  {share(by_owner[o]):>6}")
    kernel = sum(w for o, w in by_owner.items() if o.startswith("kernel"))
    out += [f"{'kernel, all':<44}  {cost(kernel):>6}  {share(kernel):>6}",
            f"{'user, all':<44}  {cost(total - kernel):>6}  {share(total - kernel):>6}",
            f"{'total':<44}  {cost(total):>6}  {share(total):>6}", "",
            "kernel by system call: the kernel's samples by the system call they ran under",
            f"{'system call':<44}  {'µs/req':>6}  {'share':>6}"]
    for call, w in sorted(by_call.items(), key=lambda x: -x[1]):
        out.append(f"{call:<44}  {cost(w):>6}  {share(w):>6}")
    out += ["", "symbols: the profiled window's server CPU per request by symbol and owner, each from 0.01 µs/req",
            f"{'owner':<44}  {'µs/req':>6}  {'share':>6}  symbol"]
    for (o, name), w in sorted(by_symbol.items(), key=lambda x: (OWNERS.index(x[0][0]), -x[1])):
        if us * w / total >= 0.01:
            out.append(f"{o:<44}  {cost(w):>6}  {share(w):>6}  {name}")
    print("\n".join(out))


def read_raw(path):
    """The header's lines by key, and each section's rows (lists of cells) by its title's words before the colon."""
    blocks = open(path).read().split("\n\n")
    head = {}
    for line in blocks[0].split("\n"):
        k, _, v = line.partition(": ")
        head.setdefault(k.strip(), v.strip())
    sections = {}
    for b in blocks[1:]:
        lines = b.strip("\n").split("\n")
        if len(lines) >= 2:
            sections[lines[0].split(":")[0]] = [re.split(r"\s{2,}", l.strip()) for l in lines[2:]]
    return head, sections


def spread(values, places=2):
    f = f"{{:.{places}f}}"
    return f.format(statistics.mean(values)) + (
        f" ({f.format(min(values))}-{f.format(max(values))})" if len(values) > 1 else "")


def short(server):
    """A server's name in a difference's column: portshare, stock, nginx."""
    return server.removeprefix("router-")


def mean_rows(runs, section, key):
    """Over the runs, the mean of each row's µs per request (column 2), rows named by key(row)."""
    acc = {}
    for sec in runs:
        for r in sec[section]:
            acc[key(r)] = acc.get(key(r), 0.0) + float(r[1]) / len(runs)
    return acc


def combine(command, out, paths):
    runs = [(p,) + read_raw(p) for p in paths]
    commits = {h["commit"].split()[0] for _, h, _ in runs}
    if len(commits) != 1:
        raise SystemExit(f"profile-owners: the raw files measured different commits: {sorted(commits)}")
    dirty = [p.rsplit("/", 1)[-1] for p, h, _ in runs if "uncommitted" in h["commit"]]
    lines = [f"command: {command}", f"commit: {commits.pop()}" + (
        f" (with uncommitted changes in {', '.join(dirty)})" if dirty else ""),
             "load average at start: " + "; ".join(h["load average at start"] for _, h, _ in runs) + " (each run's)",
             f"runs: {len(runs)}"]
    for i, (p, h, _) in enumerate(runs, 1):
        lines.append(f"run {i}: {p.rsplit('/', 1)[-1]}, {h['server name']}, {h['workload']}, {h['date']}")
    lines.append("statistic: per owner, the mean over the runs of each server and workload (min-max over the runs); "
                 "a difference is of the means")
    order = ["router-portshare", "router-stock", "nginx"]
    w = 44
    for wl in dict.fromkeys(h["workload"] for _, h, _ in runs):
        mine = {s: [sec for _, h, sec in runs if h["server name"] == s and h["workload"] == wl] for s in order}
        servers = [s for s in order if mine[s]]
        # (server, owner) -> the value of each run, 0 where a run had no sample of that owner
        us = {(s, o): [float(next((r[1] for r in sec["owners"] if r[0] == o), 0)) for sec in mine[s]]
              for s in servers for o in OWNERS + ["kernel, all", "user, all", "total"]}
        share = {(s, o): [float(next((r[2] for r in sec["owners"] if r[0] == o), "0").rstrip("%")) for sec in mine[s]]
                 for s in servers for o in OWNERS + ["kernel, all", "user, all", "total"]}
        owners = [o for o in OWNERS + ["kernel, all", "user, all", "total"] if any(any(us[(s, o)]) for s in servers)]
        pairs = [(a, b) for a in servers for b in servers if order.index(a) < order.index(b)]
        lines += ["", f"{wl}: server CPU µs per request from /proc, each window, mean over the runs (min-max)",
                  f"{'server':<{w}}  {'unprofiled':>22}  {'profiled':>22}  {'profiled req/s':>22}"]
        for s in servers:
            win = lambda name, c: [float(r[c]) for sec in mine[s] for r in sec["windows"] if r[0] == name]
            rate = win("profiled", 4)
            lines.append(f"{s:<{w}}  {spread(win('unprofiled', 5)):>22}  {spread(win('profiled', 5)):>22}  "
                         f"{spread(rate, 0):>22}")
        lines += ["", f"{wl}: server CPU µs per request by owner, mean over the runs (min-max)",
                  f"{'owner':<{w}}" + "".join(f"  {s:>22}" for s in servers)
                  + "".join(f"  {short(a) + ' - ' + short(b):>18}" for a, b in pairs)]
        for o in owners:
            lines.append(f"{o:<{w}}" + "".join(f"  {spread(us[(s, o)]):>22}" for s in servers) + "".join(
                f"  {statistics.mean(us[(a, o)]) - statistics.mean(us[(b, o)]):>+18.2f}" for a, b in pairs))
        lines += ["", f"{wl}: share of the server's samples by owner, %, mean over the runs (min-max)",
                  f"{'owner':<{w}}" + "".join(f"  {s:>22}" for s in servers)]
        for o in owners:
            lines.append(f"{o:<{w}}" + "".join(f"  {spread(share[(s, o)]):>22}" for s in servers))
        for s in servers:
            symbols = mean_rows(mine[s], "symbols", lambda r: (r[0], method(r[3] + "()") or r[3]))
            lines += ["", f"{wl}, {s}: top symbols per owner (3 each, from 0.05), µs per request, mean over the runs",
                      f"{'owner':<{w}}  {'µs/req':>6}  symbol"]
            for o in OWNERS:
                top = sorted(((v, n) for (oo, n), v in symbols.items() if oo == o), reverse=True)[:3]
                lines += [f"{o:<{w}}  {v:>6.2f}  {n}" for v, n in top if v >= 0.05]
            calls = mean_rows(mine[s], "kernel by system call", lambda r: r[0])
            lines += ["", f"{wl}, {s}: kernel time by the system call it ran under, µs per request, mean over the runs",
                      f"{'system call':<{w}}  {'µs/req':>6}"]
            lines += [f"{c:<{w}}  {v:>6.2f}" for c, v in sorted(calls.items(), key=lambda x: -x[1]) if v >= 0.01]
    open(out, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["one"] and len(sys.argv) == 8:
        one(*sys.argv[2:])
    elif sys.argv[1:2] == ["combine"] and len(sys.argv) >= 5:
        combine(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit("usage: profile-owners.py one HEADER WINDOWS PERF_SCRIPT CLK_TCK UNPROFILED_WRK PROFILED_WRK"
                 " | combine COMMAND OUT RAW...")
