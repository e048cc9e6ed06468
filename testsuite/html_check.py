#!/usr/bin/env python3
"""html_check.py - a report page of hpfpredict (--html) checked in headless
Chromium, driven through the DevTools protocol (testsuite/html.test).

usage: html_check.py CHROMIUM PAGE.html OBJECT.json SHOT.png [--load-only]
                     [--sections DIR]

OBJECT.json is what `hpfpredict --html PAGE --format=json` printed: the
page must render it. Prints one 'ok N - ...' or 'not ok N - ...' line per
check (TAP, without the plan) and 'load_ms X'; exits 1 when the browser
cannot be driven at all. With --sections DIR, a screenshot of each section
of the page, as the checks left it, goes to DIR/SECTION.png (the pictures
of doc/outputs.md).
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio",
         "--window-size=1280,900", "--remote-debugging-port=0"]


class Browser:
    def __init__(self, chromium):
        self.dir = tempfile.mkdtemp(prefix="hpf-chromium-")
        self.proc = subprocess.Popen([chromium] + FLAGS + ["--user-data-dir=" + self.dir,
                                                           "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port = None
        for _ in range(300):
            try:
                with open(os.path.join(self.dir, "DevToolsActivePort")) as f:
                    port = int(f.readline())
                    break
            except (OSError, ValueError):
                time.sleep(0.05)
        if port is None:
            self.close()
            raise RuntimeError("Chromium did not open its DevTools port")
        pages = []
        for _ in range(100):
            with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port) as r:
                pages = [t for t in json.load(r) if t.get("type") == "page"]
            if pages:
                break
            time.sleep(0.05)
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=30)
        self.id = 0
        self.events = []
        for domain in ("Page", "Runtime", "Log"):
            self.call(domain + ".enable")

    def call(self, method, **params):
        self.id += 1
        self.ws.send(json.dumps({"id": self.id, "method": method, "params": params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == self.id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout=30):
        end = time.time() + timeout
        seen = len(self.events)
        for e in self.events:
            if e.get("method") == method:
                return e
        while time.time() < end:
            self.ws.settimeout(max(0.1, end - time.time()))
            m = json.loads(self.ws.recv())
            self.events.append(m)
            if m.get("method") == method:
                return m
        raise RuntimeError("no %s (%d events)" % (method, len(self.events) - seen))

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError("script error: %s" % r["exceptionDetails"].get("text"))
        return r["result"].get("value")

    def click(self, selector):
        """A real mouse click at the middle of the element selector finds."""
        box = self.js("(() => { const e = document.querySelector(%s); if (!e) return null;"
                      " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
                      " return [r.left + Math.min(r.width / 2, 40), r.top + r.height / 2]; })()"
                      % json.dumps(selector))
        if not box:
            return False
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1],
                      button="left", clickCount=1)
        return True

    def key(self, name, code=None):
        vk = {"ArrowDown": 40, "ArrowUp": 38, "ArrowLeft": 37, "ArrowRight": 39,
              "Enter": 13, "Home": 36, "End": 35}[name]
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=name, code=code or name,
                      windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk)

    def errors(self):
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(p["exceptionDetails"].get("text", "exception"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console.%s: %s" % (p["type"], p.get("args")))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append("log: %s" % p["entry"].get("text"))
        return out

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, what, why=""):
        self.n += 1
        if not ok:
            self.failed += 1
        print("%s %d - %s%s" % ("ok" if ok else "not ok", self.n, what,
                                "" if ok or not why else " (%s)" % why))
        sys.stdout.flush()


def same(a, b):
    return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))


def rows_of(b):
    return b.js("[...document.querySelectorAll('#listing tr.line')].map(r => [+r.dataset.line,"
                " r.dataset.time, r.querySelector('td.src code').textContent,"
                " r.querySelector('td.t').textContent])")


def check_listing(b, t, p, name):
    rows = rows_of(b)
    want = {l["line"]: l for l in p["lines"]}
    got = {r[0]: r for r in rows}
    t.check(len(rows) == len(p["lines"]) and set(got) == set(want),
            "%s: the listing holds every source line (%d)" % (name, len(want)),
            "%d rows" % len(rows))
    bad = [l for l in want if l in got and (got[l][2] != want[l]["source"] or
                                            not same(got[l][1], want[l]["mean"]) or
                                            (want[l]["aaus"] > 0) != (got[l][3] != ""))]
    t.check(not bad, "%s: each line shows its source and its time" % name,
            "lines %s" % bad[:5])


def main():
    if len(sys.argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    chromium, page, objfile, shot = sys.argv[1:5]
    load_only = "--load-only" in sys.argv[5:]
    with open(objfile) as f:
        obj = json.load(f)
    t = Tap()
    try:
        b = Browser(chromium)
    except Exception as e:
        print("# cannot drive %s: %s" % (chromium, e))
        return 1
    try:
        url = "file://" + os.path.abspath(page)
        t0 = time.time()
        b.call("Page.navigate", url=url)
        b.wait_event("Page.loadEventFired", 60)
        ready = None
        for _ in range(200):
            ready = b.js("document.body && document.body.getAttribute('data-ready')")
            if ready:
                break
            time.sleep(0.02)
        ms = (time.time() - t0) * 1000
        print("load_ms %.0f" % ms)
        t.check(ready == "1", "the page's script rendered the report")
        if load_only:
            t.check(not b.errors(), "no console errors", "; ".join(b.errors())[:300])
            return 0
        p0 = obj["points"][0]
        check_listing(b, t, p0, "point 1")
        heads = b.js("[...document.querySelectorAll('h1, h2')].map(h => h.tagName + ' ' + h.textContent)")
        t.check(heads and heads[0].startswith("H1") and
                all(any(h.endswith(s) for h in heads) for s in ("Summary", "Source",
                                                                 "Abstract application graph",
                                                                 "Processors")),
                "semantic headings: h1 and a h2 per section", str(heads))
        total = b.js("document.querySelector('#summary dd').textContent")
        t.check(total and total.split()[0] and
                abs(float(total.split()[0]) * {"s": 1, "ms": 1e-3, "\u00b5s": 1e-6}[total.split()[1]]
                    - p0["total"]) <= 1e-3 * p0["total"] + 1e-12,
                "the summary gives the predicted total", "%s vs %s" % (total, p0["total"]))
        shown_parts = b.js("[...document.querySelectorAll('#summary dt')].slice(1, 5).map(d => d.nextElementSibling.textContent)")
        def secs(txt):
            v, u = txt.split()
            return float(v) * {"s": 1, "ms": 1e-3, "\u00b5s": 1e-6}[u]
        try:
            parts_ok = len(shown_parts) == 4 and all(
                abs(secs(x) - p0[k]) <= 1e-3 * max(p0[k], 1e-12) + 1e-12 for x, k in
                zip(shown_parts, ("computation", "communication", "overhead", "waiting")))
        except (ValueError, KeyError, TypeError):
            parts_ok = False
        t.check(parts_ok, "the summary gives the four parts", str(shown_parts))
        junk = b.js("(() => { const t = document.body.innerText; return ['NaN', 'undefined', '[object'].filter(w => t.includes(w)); })()")
        t.check(not junk, "no NaN, undefined or [object] on the page", str(junk))
        labels = b.js("[...document.querySelectorAll('#summary .legend span')].map(s => s.textContent)")
        t.check(labels and all(k in labels for k in ("computation", "communication", "overhead",
                                                     "waiting")),
                "the parts have labels, not colours alone", str(labels))
        patterned = b.js("['comm', 'ovhd', 'wait'].every(c => { const s = document.querySelector("
                         "'.swatch.' + c); return s && getComputedStyle(s).backgroundImage !== 'none'; })")
        t.check(patterned, "communication, overhead and waiting carry patterns")
        unlabelled = b.js("[...document.querySelectorAll('.stack')].filter(s => !s.getAttribute('aria-label')).length")
        t.check(unlabelled == 0, "every bar has a text alternative", "%s without" % unlabelled)
        # a line with AAUs, clicked: its AAUs
        line = max((l for l in p0["lines"] if l["aaus"] > 0), key=lambda l: l["mean"])
        sel = "#listing tr.line[data-line=\"%d\"] td.src" % line["line"]
        t.check(b.click(sel), "line %d can be clicked" % line["line"])
        time.sleep(0.05)
        shown = b.js("(() => { const r = document.querySelector('#listing tr.line[data-line=\"%d\"]');"
                     " const d = r.nextElementSibling; if (!d || !d.classList.contains('detail')) return null;"
                     " return [r.getAttribute('aria-expanded'), [...d.querySelectorAll('tr[data-aau]')]"
                     ".map(x => +x.dataset.aau)]; })()" % line["line"])
        t.check(shown is not None and shown[0] == "true" and sorted(shown[1]) == sorted(line["ids"]),
                "clicking line %d opens its AAUs %s" % (line["line"], line["ids"]), str(shown))
        comm_lines = {}
        aau_line = {a["id"]: a["line"] for a in p0["aaus"]}
        for c in p0["communications"]:
            comm_lines.setdefault(aau_line.get(c["aau"], c["line"]), []).append(c)
        if comm_lines:
            cl = sorted(comm_lines)[0]
            if b.js("document.querySelector('#listing tr.line[data-line=\"%d\"]')"
                    ".getAttribute('aria-expanded')" % cl) != "true":
                b.click("#listing tr.line[data-line=\"%d\"] td.src" % cl)
                time.sleep(0.05)
            reasons = b.js("(() => { const d = document.querySelector('#listing tr.line[data-line=\"%d\"]')"
                           ".nextElementSibling; return d && d.classList.contains('detail') ?"
                           " [...d.querySelectorAll('.reason')].map(x => x.textContent) : null; })()" % cl)
            want = comm_lines[cl]
            t.check(reasons is not None and len(reasons) == len(want) and
                    all(w["kind"] in r and w["reason"] in r for w, r in zip(want, reasons)),
                    "line %d says what communication it makes and why" % cl, str(reasons)[:300])
            badge = b.js("[...document.querySelectorAll('#listing tr.line[data-line=\"%d\"] .kind')]"
                         ".map(x => x.textContent)" % cl)
            t.check(badge and set(badge) == {w["kind"] for w in want},
                    "line %d is marked with its kind of communication" % cl, str(badge))
        # the tree, by keyboard
        b.js("document.querySelector('#tree li[role=treeitem]').focus()")
        first = b.js("document.activeElement.dataset.aau")
        b.key("ArrowDown")
        second = b.js("document.activeElement.dataset.aau")
        b.key("ArrowUp")
        back = b.js("document.activeElement.dataset.aau")
        t.check(first and second and second != first and back == first,
                "the tree's items are reached with the arrow keys", "%s %s %s" % (first, second, back))
        closed = b.js("(() => { const li = [...document.querySelectorAll('#tree li[aria-expanded=\"false\"]')]"
                      ".find(x => x.offsetParent); if (!li) return null; li.focus(); return li.dataset.aau; })()")
        if closed:
            b.key("ArrowRight")
            opened = b.js("document.querySelector('#tree li[data-aau=\"%s\"]').getAttribute('aria-expanded')" % closed)
            b.key("ArrowLeft")
            shut = b.js("document.querySelector('#tree li[data-aau=\"%s\"]').getAttribute('aria-expanded')" % closed)
            t.check(opened == "true" and shut == "false",
                    "Right opens and Left closes AAU #%s" % closed, "%s %s" % (opened, shut))
        b.js("document.querySelector('#tree li[role=treeitem]').focus()")
        b.key("End")
        last = b.js("document.activeElement.dataset.aau")
        b.key("Enter")
        t.check(last is not None and last != first, "End reaches the tree's last visible item")
        nodes = b.js("document.querySelectorAll('#tree li[role=treeitem]').length")
        def count(n):
            k = [n]
            for x in n.get("kids", []) + n.get("body", []):
                k += count_list(x)
            for br in n.get("branches", []):
                for x in br.get("pre", []) + br.get("body", []):
                    k += count_list(x)
            return k
        def count_list(n):
            return count(n)
        want_nodes = sum(len(count(r)) for r in p0["aau"])
        t.check(nodes == want_nodes, "the tree holds every node of the AAG (%d)" % want_nodes,
                "%s" % nodes)
        if p0["processors"]:
            rows = b.js("document.querySelectorAll('#procbars .row').length")
            t.check(rows and rows <= max(p0["np"], 1), "a bar per processor or class (%s)" % rows)
        if p0.get("trace"):
            drawn = b.js("(() => { const c = document.getElementById('tl'); if (!c) return 0;"
                         " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                         " let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })()")
            t.check(drawn and drawn > 1000, "the timeline is drawn", "%s pixels" % drawn)
            before = b.js("document.querySelector('#timeline .tools span').textContent")
            b.click("#timeline .tools button")
            time.sleep(0.05)
            after = b.js("document.querySelector('#timeline .tools span').textContent")
            t.check(before != after, "zooming the timeline changes its span", "%s / %s" % (before, after))
        # the selector
        if len(obj["points"]) > 1:
            b.js("document.getElementById('point').focus()")
            b.key("ArrowDown")
            time.sleep(0.05)
            v = b.js("document.getElementById('point').value")
            t.check(v == "1", "the selector moves to the second prediction", str(v))
            check_listing(b, t, obj["points"][1], "point 2 (after the selector)")
            m = b.js("document.getElementById('machine').textContent")
            t.check(("%d processor" % obj["points"][1]["np"]) in m,
                    "the heading names the second prediction's processors", m)
            if obj.get("sweep"):
                t.check(b.js("!!document.querySelector('#sweepplot svg')"), "the sweep's plot is in the page")
        if obj.get("ranking"):
            t.check(b.js("document.querySelectorAll('#ranking tr').length") ==
                    len(obj["ranking"]["mappings"]) + 1, "the ranking lists every mapping")
            t.check(b.js("document.querySelectorAll('#changed tr').length") ==
                    (len(obj["ranking"]["changed_lines"]) + 1 if obj["ranking"]["changed_lines"] else 0),
                    "the lines changed most are listed")
            ph = obj["ranking"].get("phases")
            t.check(b.js("document.querySelectorAll('#phases tr').length") ==
                    (len(ph["loops"]) + 1 if ph and ph["differ"] else 0),
                    "each phase's fastest mapping is listed where the phases differ")
        if "--sections" in sys.argv:
            out = sys.argv[sys.argv.index("--sections") + 1]
            for sec in ("summary", "sweep", "source", "aag", "processors", "timeline"):
                r = b.js("(() => { const e = document.getElementById(%s); if (!e) return null;"
                         " const r = e.getBoundingClientRect();"
                         " return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()"
                         % json.dumps(sec))
                if not r:
                    continue
                if sec == "source":
                    # around the line the checks left open
                    o = b.js("(() => { const e = document.querySelector('#listing tr.line[aria-expanded=\"true\"]');"
                             " if (!e) return null; const r = e.getBoundingClientRect(); return r.top + scrollY; })()")
                    if o:
                        r = [r[0], max(r[1], o - 330), r[2], 700]
                png = b.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                             clip={"x": r[0], "y": r[1], "width": r[2],
                                   "height": min(r[3], 900), "scale": 1})
                with open(os.path.join(out, sec + ".png"), "wb") as f:
                    f.write(base64.b64decode(png["data"]))
        b.js("window.scrollTo(0, 0)")
        size = b.call("Page.getLayoutMetrics")["cssContentSize"]
        shot_png = b.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": min(size["width"], 1280),
                                "height": min(size["height"], 2400), "scale": 1})
        with open(shot, "wb") as f:
            f.write(base64.b64decode(shot_png["data"]))
        t.check(os.path.getsize(shot) > 1000, "a screenshot is taken (%s)" % os.path.basename(shot))
        errs = b.errors()
        t.check(not errs, "no console errors", "; ".join(errs)[:300])
        external = b.js("[...document.querySelectorAll('[src], link[href]')].map(e => e.src || e.href)")
        t.check(not external, "nothing is loaded from elsewhere", str(external))
    finally:
        b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
