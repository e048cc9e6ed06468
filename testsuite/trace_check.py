#!/usr/bin/env python3
"""trace_check.py - validates the interpretation traces hpfpredict writes
(interp/trace.c, doc/traces.md), for the unit test testsuite/unit/test_trace.

    trace_check.py perfetto FILE.json [--tracks N] [--slices N] [--flows N]
    trace_check.py paraver FILE.prv [--cpus N] [--comms N]
    trace_check.py picl FILE.trf [--nodes N] [--sends N]

Perfetto: the JSON parses; complete events are well formed and, on each
track, nest (a slice lies inside another or apart from it); every flow
start has its finish (bound to the enclosing slice), both ends inside a
slice of their track, the finish not before the start.
Paraver: the header parses and agrees with the records (time span, CPUs,
tasks, threads); every record has the fields of its type, integer times,
begin <= end; records are sorted by time; a thread's states do not overlap;
the .pcf names every state and event type used, the .row every CPU and
thread.
PICL: every record has its fields (record type, event type, time, node,
process, count, data type and data); records are sorted by time; on each
node the trace starts first and stops last, and begins and ends nest;
every send has its receive, later in the file.

Exit status 0 when the file is valid, 1 with the problems on stdout.
"""

import json
import re
import sys

problems = []


def bad(msg):
    problems.append(msg)


def finish():
    for p in problems[:50]:
        print("trace_check: " + p)
    if len(problems) > 50:
        print("trace_check: ... %d more" % (len(problems) - 50))
    sys.exit(1 if problems else 0)


def options(args):
    opts = {}
    i = 0
    while i < len(args):
        if not args[i].startswith("--") or i + 1 >= len(args):
            bad("bad option %r" % args[i])
            finish()
        opts[args[i][2:]] = int(args[i + 1])
        i += 2
    return opts


def expect(opts, key, got, what):
    if key in opts and opts[key] != got:
        bad("%s: %d, expected %d" % (what, got, opts[key]))


# ---- Chrome Trace Event JSON ----

def ns(v):
    """Microseconds (JSON) to integer nanoseconds."""
    return int(round(float(v) * 1000))


def check_perfetto(path, opts):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        bad("%s: not JSON: %s" % (path, e))
        return
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        bad("no traceEvents list")
        return
    if doc.get("displayTimeUnit") not in ("ns", "ms"):
        bad("displayTimeUnit is %r" % doc.get("displayTimeUnit"))
    tracks = {}      # (pid, tid) -> [(t0, t1, name)]
    named = {}
    flows = {}       # (cat, name, id) -> {"s": [...], "f": [...]}
    nslices = 0
    for i, ev in enumerate(doc["traceEvents"]):
        if not isinstance(ev, dict) or "ph" not in ev:
            bad("event %d: no ph" % i)
            continue
        ph = ev["ph"]
        if ph == "M":
            if ev.get("name") == "thread_name":
                named[(ev.get("pid"), ev.get("tid"))] = ev.get("args", {}).get("name")
            continue
        if not isinstance(ev.get("pid"), int) or not isinstance(ev.get("tid"), int):
            bad("event %d: pid/tid not integers" % i)
            continue
        if not isinstance(ev.get("ts"), (int, float)) or ev["ts"] < 0:
            bad("event %d: bad ts %r" % (i, ev.get("ts")))
            continue
        key = (ev["pid"], ev["tid"])
        if ph == "X":
            dur = ev.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                bad("event %d: bad dur %r" % (i, dur))
                continue
            if not isinstance(ev.get("name"), str) or not ev["name"]:
                bad("event %d: no name" % i)
            if not isinstance(ev.get("args", {}), dict):
                bad("event %d: args is not an object" % i)
            t0 = ns(ev["ts"])
            tracks.setdefault(key, []).append((t0, t0 + ns(dur), ev.get("name")))
            nslices += 1
        elif ph in ("s", "f"):
            if "id" not in ev:
                bad("event %d: flow without id" % i)
                continue
            if ph == "f" and ev.get("bp") != "e":
                bad("event %d: flow finish not bound to its enclosing slice (bp)" % i)
            fk = (ev.get("cat"), ev.get("name"), ev["id"])
            flows.setdefault(fk, {"s": [], "f": []})[ph].append((key, ns(ev["ts"])))
        else:
            bad("event %d: unexpected phase %r" % (i, ph))

    # nesting on each track: sorted by start, longer first
    for key, sl in tracks.items():
        if key not in named:
            bad("track %s has no thread_name" % (key,))
        sl.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for t0, t1, name in sl:
            while stack and stack[-1][1] <= t0 and not (stack[-1][0] == stack[-1][1] == t0 == t1):
                stack.pop()
            if stack and t1 > stack[-1][1]:
                bad("track %s: %r [%d, %d] ns overlaps %r [%d, %d] ns without nesting"
                    % (key, name, t0, t1, stack[-1][2], stack[-1][0], stack[-1][1]))
            stack.append((t0, t1, name))

    def inside(key, t):
        return any(a <= t <= b for a, b, _ in tracks.get(key, []))

    pairs = 0
    for fk, f in flows.items():
        if len(f["s"]) != 1 or len(f["f"]) != 1:
            bad("flow %s: %d starts and %d finishes" % (fk, len(f["s"]), len(f["f"])))
            continue
        (sk, st), (fkey, ft) = f["s"][0], f["f"][0]
        if not inside(sk, st):
            bad("flow %s: start at %d ns is in no slice of its track" % (fk, st))
        if not inside(fkey, ft):
            bad("flow %s: finish at %d ns is in no slice of its track" % (fk, ft))
        if ft < st:
            bad("flow %s: finishes (%d ns) before it starts (%d ns)" % (fk, ft, st))
        pairs += 1
    expect(opts, "tracks", len(named), "processor tracks")
    expect(opts, "slices", nslices, "slices")
    expect(opts, "flows", pairs, "message flows")


# ---- Paraver ----

HEADER = re.compile(r"^#Paraver \((\d\d)/(\d\d)/(\d\d) at (\d\d):(\d\d)\):(\d+)(_ns)?:(.*)$")


def parse_counts(text, what):
    """'4(1,1,1,1)' -> (4, [1, 1, 1, 1])."""
    m = re.fullmatch(r"(\d+)\(([^)]*)\)", text)
    if not m:
        bad("header: bad %s list %r" % (what, text))
        return 0, []
    items = m.group(2).split(",")
    if len(items) != int(m.group(1)):
        bad("header: %s count %s but %d listed" % (what, m.group(1), len(items)))
    return int(m.group(1)), items


def read_lines(path):
    """The file's lines, or None (reported) when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().split("\n")
    except OSError as e:
        bad("%s: %s" % (path, e))
        return None


def check_paraver(path, opts):
    lines = read_lines(path)
    if lines is None:
        return
    m = HEADER.match(lines[0])
    if not m:
        bad("bad header %r" % lines[0][:80])
        return
    day, month = int(m.group(1)), int(m.group(2))
    if not (1 <= day <= 31 and 1 <= month <= 12):
        bad("header: bad date")
    if not m.group(7):
        bad("header: times are not in nanoseconds (no _ns)")
    ftime = int(m.group(6))
    # nNodes(nCpus,...):nAppl:nTasks(nThreads:node,...)
    rest = m.group(8)
    m2 = re.fullmatch(r"(\d+\([^)]*\)):(\d+):(\d+\([^)]*\))(,\d+)?", rest)
    if not m2:
        bad("header: bad resource/application part %r" % rest)
        return
    nnodes, cpus = parse_counts(m2.group(1), "node")
    ncpus = sum(int(c) for c in cpus if c.isdigit())
    if int(m2.group(2)) != 1:
        bad("header: %s applications, expected 1" % m2.group(2))
    ntasks, tasks = parse_counts(m2.group(3), "task")
    threads = []
    for t in tasks:
        tm = re.fullmatch(r"(\d+):(\d+)", t)
        if not tm or int(tm.group(1)) < 1 or not (1 <= int(tm.group(2)) <= nnodes):
            bad("header: bad task %r" % t)
            threads.append(1)
        else:
            threads.append(int(tm.group(1)))
    expect(opts, "cpus", ncpus, "CPUs in the header")

    last = -1
    tmax = 0
    states_used, types_used = set(), set()
    thread_end = {}
    ncomm = 0

    def obj(f, at, ln):
        cpu, appl, task, thread = f[at:at + 4]
        if not (0 <= cpu <= ncpus):
            bad("line %d: cpu %d out of 0..%d" % (ln, cpu, ncpus))
        if appl != 1:
            bad("line %d: application %d" % (ln, appl))
        if not (1 <= task <= ntasks):
            bad("line %d: task %d out of 1..%d" % (ln, task, ntasks))
        elif not (1 <= thread <= threads[task - 1]):
            bad("line %d: thread %d out of 1..%d" % (ln, thread, threads[task - 1]))
        return (task, thread)

    for ln, line in enumerate(lines[1:], 2):
        if not line:
            continue
        if line[0] in "cC#":
            continue
        parts = line.split(":")
        try:
            f = [int(x) for x in parts]
        except ValueError:
            bad("line %d: a field is not an integer: %r" % (ln, line[:80]))
            continue
        kind = f[0]
        if kind == 1:
            if len(f) != 8:
                bad("line %d: state record with %d fields, not 8" % (ln, len(f)))
                continue
            who = obj(f, 1, ln)
            b, e, st = f[5], f[6], f[7]
            if b > e:
                bad("line %d: state begins (%d) after it ends (%d)" % (ln, b, e))
            if b < thread_end.get(who, 0):
                bad("line %d: state [%d, %d] overlaps the thread's previous one" % (ln, b, e))
            thread_end[who] = max(thread_end.get(who, 0), e)
            states_used.add(st)
            t, tend = b, e
        elif kind == 2:
            if len(f) < 8 or len(f) % 2:
                bad("line %d: event record with %d fields" % (ln, len(f)))
                continue
            obj(f, 1, ln)
            for k in range(6, len(f), 2):
                types_used.add(f[k])
            t = tend = f[5]
        elif kind == 3:
            if len(f) != 15:
                bad("line %d: communication record with %d fields, not 15" % (ln, len(f)))
                continue
            obj(f, 1, ln)
            obj(f, 7, ln)
            ls, ps, lr, pr = f[5], f[6], f[11], f[12]
            if ls > ps or lr > pr:
                bad("line %d: logical time after physical time" % ln)
            if f[13] < 0:
                bad("line %d: negative size" % ln)
            t, tend = ls, max(ps, pr)
            ncomm += 1
        else:
            bad("line %d: unknown record type %d" % (ln, kind))
            continue
        times = {1: f[5:7], 2: f[5:6], 3: f[5:7] + f[11:13]}[kind]
        if min(times) < 0:
            bad("line %d: negative time" % ln)
        if t < last:
            bad("line %d: time %d before the previous record's %d (not sorted)" % (ln, t, last))
        last = max(last, t)
        tmax = max(tmax, tend)
    if tmax > ftime:
        bad("header: trace time %d but records reach %d" % (ftime, tmax))
    elif tmax != ftime and last >= 0:
        bad("header: trace time %d, records end at %d" % (ftime, tmax))
    expect(opts, "comms", ncomm, "communication records")

    base = path[:-4] if path.endswith(".prv") else path
    try:
        with open(base + ".pcf", encoding="utf-8") as f:
            pcf = f.read()
    except OSError as e:
        bad("no .pcf: %s" % e)
        pcf = ""
    if pcf:
        sec = re.search(r"^STATES\n(.*?)\n\n", pcf, re.M | re.S)
        names = set()
        if not sec:
            bad(".pcf: no STATES section")
        else:
            for l in sec.group(1).split("\n"):
                names.add(int(l.split()[0]))
        for s in sorted(states_used - names):
            bad(".pcf: state %d is not named" % s)
        if "STATES_COLOR" not in pcf:
            bad(".pcf: no STATES_COLOR section")
        declared = {int(x) for x in re.findall(r"^EVENT_TYPE\n\d+\s+(\d+)\s", pcf, re.M)}
        for ty in sorted(types_used - declared):
            bad(".pcf: event type %d is not declared" % ty)
    try:
        with open(base + ".row", encoding="utf-8") as f:
            row = f.read()
    except OSError as e:
        bad("no .row: %s" % e)
        row = ""
    if row:
        for level, n in (("CPU", ncpus), ("THREAD", sum(threads))):
            m3 = re.search(r"^LEVEL %s SIZE (\d+)\n((?:.+\n?)*)" % level, row, re.M)
            if not m3:
                bad(".row: no LEVEL %s" % level)
            elif int(m3.group(1)) != n or len(m3.group(2).strip("\n").split("\n")) != n:
                bad(".row: LEVEL %s does not name %d rows" % (level, n))


# ---- PICL ----

def check_picl(path, opts):
    lines = read_lines(path)
    if lines is None:
        return
    last = -1.0
    stacks = {}
    started, stopped = set(), set()
    sends = {}       # (src, dst, type) -> [length]
    matched = 0
    nsends = 0
    nodes = opts.get("nodes")
    for ln, line in enumerate(lines, 1):
        if not line:
            continue
        f = line.split()
        if len(f) < 6:
            bad("line %d: %d fields" % (ln, len(f)))
            continue
        try:
            rec, evt, node, proc, n = int(f[0]), int(f[1]), int(f[3]), int(f[4]), int(f[5])
            t = float(f[2])
            data = [int(x) for x in f[6:]]
        except ValueError:
            bad("line %d: a field is not a number: %r" % (ln, line[:80]))
            continue
        if rec not in (-3, -4):
            bad("line %d: record type %d" % (ln, rec))
        if len(data) != (0 if n == 0 else n + 1) or (n and data[0] != 2):
            bad("line %d: %d data items announced, fields do not match" % (ln, n))
            continue
        data = data[1:]
        if t < 0 or t < last:
            bad("line %d: time %.9f before %.9f (not sorted)" % (ln, t, last))
        last = max(last, t)
        if nodes is not None and not (0 <= node < nodes):
            bad("line %d: node %d out of 0..%d" % (ln, node, nodes - 1))
        st = stacks.setdefault(node, [])
        if evt == -901:
            if rec == -3:
                if node in started:
                    bad("line %d: node %d starts twice" % (ln, node))
                started.add(node)
            else:
                if st:
                    bad("line %d: node %d stops with %d blocks open" % (ln, node, len(st)))
                stopped.add(node)
            continue
        if node not in started or node in stopped:
            bad("line %d: node %d records outside its trace start/stop" % (ln, node))
        if rec == -3:
            st.append(evt)
        elif not st or st[-1] != evt:
            bad("line %d: end of event %d on node %d does not close the open %s"
                % (ln, evt, node, st[-1] if st else "nothing"))
        else:
            st.pop()
        if evt == -21 and rec == -3:
            if n != 4:
                bad("line %d: send with %d data items, not 4" % (ln, n))
                continue
            nsends += 1
            sends.setdefault((node, data[2], data[1]), []).append(data[0])
        if evt == -52 and rec == -4:
            if n != 4:
                bad("line %d: receive end with %d data items, not 4" % (ln, n))
                continue
            k = (data[2], node, data[1])
            if not sends.get(k):
                bad("line %d: receive of type %d from %d with no send before it"
                    % (ln, data[1], data[2]))
            else:
                length = sends[k].pop(0)
                if length != data[0]:
                    bad("line %d: received %d bytes, %d sent" % (ln, data[0], length))
                matched += 1
    for node, st in stacks.items():
        if node not in stopped:
            bad("node %d: no trace stop" % node)
    if nodes is not None and len(started) != nodes:
        bad("%d nodes start, expected %d" % (len(started), nodes))
    left = sum(len(v) for v in sends.values())
    if left:
        bad("%d sends never received" % left)
    expect(opts, "sends", nsends, "sends")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("perfetto", "paraver", "picl"):
        print(__doc__.split("\n\n")[1])
        sys.exit(2)
    opts = options(sys.argv[3:])
    {"perfetto": check_perfetto, "paraver": check_paraver, "picl": check_picl}[sys.argv[1]](
        sys.argv[2], opts)
    finish()


if __name__ == "__main__":
    main()
