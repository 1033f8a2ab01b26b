#!/usr/bin/env python3
"""winnow annotate and winnow site --report on every bench page, each report
loaded in headless Chromium: no console error, the report's script ran to
its end, and every block of `winnow blocks` is in the DOM with its verdict.

usage: bench/report_sweep.py [--winnow BUILD/winnow] [--bench DIR] [--out DIR]
                             [--limit N] [CORPUS...]

For each corpus (default: all six under ../shared/bench) the pages are
learned as one site (`winnow learn --site CORPUS`), then every page gets
  - `winnow annotate PAGE -o OUT/CORPUS/NAME.annotate.html`, checked against
    `winnow blocks PAGE`, and
  - `winnow site CORPUS --db DB --report PAGE -o OUT/CORPUS/NAME.site.html`
    (the site's template shown on that page), checked against `winnow
    blocks --db DB --site CORPUS PAGE`.
One Chromium runs the whole sweep through the DevTools protocol over a pipe
(--remote-debugging-pipe: no port, no network); each report is loaded,
its console messages, log entries and exceptions collected, and the DOM
after the script ran read back. A problem is any console message or log
entry of level warning or error, an exception, a report whose script did
not finish, or a block missing or with another verdict. Prints one line
per corpus and writes OUT/problems.tsv; exits 1 when there is a problem.
CTest runs a sample of this (tests/report_check.py browser); this sweep
is too slow for it (minutes).
"""
import argparse
import concurrent.futures
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))


class Browser:
    """Headless Chromium driven over --remote-debugging-pipe (fd 3 in, fd 4 out)."""

    def __init__(self, chromium, profile):
        def high(fd):
            h = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
            os.close(fd)
            return h
        r_in, w_in = map(high, os.pipe())
        r_out, w_out = map(high, os.pipe())

        def child():
            os.dup2(r_in, 3)
            os.dup2(w_out, 4)
        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--window-size=1200,2000", f"--user-data-dir={profile}", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--disable-sync", "about:blank"],
            preexec_fn=child, close_fds=False, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(r_in)
        os.close(w_out)
        self.w = os.fdopen(w_in, "wb", buffering=0)
        self.r_fd = r_out
        self.buf = b""
        self.id = 0
        self.events = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for m in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.send(m, session=True)

    def _read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.r_fd], [], [], left)[0]:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self.r_fd, 1 << 20)
            if not chunk:
                raise EOFError("the browser closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=False, timeout=60):
        self.id += 1
        m = {"id": self.id, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = self.session
        self.w.write(json.dumps(m).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            msg = self._read(deadline)
            if msg.get("id") == self.id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def wait(self, name, timeout=60):
        deadline = time.time() + timeout
        while True:
            for k, e in enumerate(self.events):
                if e.get("method") == name:
                    return self.events.pop(k)
            self.events.append(self._read(deadline))

    def load(self, path):
        """Loads a report; returns (problems, result of the check script)."""
        self.events.clear()
        self.send("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session=True)
        self.wait("Page.loadEventFired")
        r = self.send("Runtime.evaluate", {"returnByValue": True, "expression": CHECK_JS}, session=True)
        problems = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.consoleAPICalled":
                problems.append(f"console.{p.get('type')}: " + " ".join(str(a.get("value", a.get("description", "")))
                                                                         for a in p.get("args", [])))
            elif m == "Runtime.exceptionThrown":
                problems.append("exception: " + p.get("exceptionDetails", {}).get("text", ""))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") in ("warning", "error"):
                problems.append(f"log {p['entry']['level']}: {p['entry'].get('text', '')}")
        return problems, r.get("result", {}).get("value")

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


CHECK_JS = """(function(){var r=document.documentElement,b=document.querySelectorAll('[data-wn-i]'),v=[];
for(var i=0;i<b.length;i++)v.push([+b[i].getAttribute('data-wn-i'),b[i].getAttribute('data-wn-v')]);
return {ready:r.getAttribute('data-wn-ready'),error:r.getAttribute('data-wn-error'),
pwned:r.getAttribute('data-pwned'),blocks:v};})()"""


def winnow_run(args):
    r = subprocess.run(args, capture_output=True)
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def prepare(winnow, corpus, page, db, outdir):
    """The two reports of one page and its blocks in both modes (a worker)."""
    name = os.path.splitext(os.path.basename(page))[0]
    a = os.path.join(outdir, name + ".annotate.html")
    s = os.path.join(outdir, name + ".site.html")
    res = {"page": page, "annotate": a, "site": s}
    res["annotate_rc"], _, res["annotate_err"] = winnow_run([winnow, "annotate", "-q", page, "-o", a])
    res["site_rc"], _, res["site_err"] = winnow_run([winnow, "site", corpus, "--db", db, "--report", "-q", page,
                                                     "-o", s])
    for key, extra in (("blocks", []), ("site_blocks", ["--db", db, "--site", corpus])):
        rc, out, _ = winnow_run([winnow, "blocks", "-q", *extra, page])
        # (split at line feeds only: JSON strings may hold U+2028 and other line separators)
        res[key] = [(b["i"], b["content"]) for b in map(json.loads, filter(None, out.decode().split("\n")))]
    return res


def compare(expect, got):
    """Problems between winnow blocks (i, content) and the DOM's (i, verdict)."""
    if got is None:
        return ["the check script returned nothing"]
    out = []
    if got.get("error"):
        out.append("script error: " + got["error"])
    if got.get("pwned"):
        out.append("a script of the page ran")
    blocks = got.get("blocks", [])
    if got.get("ready") != str(len(blocks)):
        out.append(f"the report's script did not finish (ready={got.get('ready')}, {len(blocks)} blocks)")
    dom = dict(blocks)
    if len(dom) != len(expect):
        out.append(f"{len(dom)} blocks in the DOM, winnow blocks lists {len(expect)}")
    wrong = [i for i, c in expect if i not in dom or (dom[i] == "content") != c]
    if wrong:
        out.append(f"{len(wrong)} blocks missing or with another verdict (first: {wrong[0]})")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="*")
    ap.add_argument("--winnow", default=os.path.join(here, "..", "build", "winnow"))
    ap.add_argument("--bench", default=os.path.join(here, "..", "..", "shared", "bench"))
    ap.add_argument("--out", default="/tmp/winnow-report-sweep")
    ap.add_argument("--limit", type=int, default=0, help="pages per corpus (0: all)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    corpora = args.corpora or ["aeb", "big9", "cleanportaleval", "l3s-gn1", "readability", "chaos"]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        raise SystemExit("report_sweep: chromium is not installed (scripts/install-deps.sh installs it)")
    winnow = os.path.abspath(args.winnow)
    os.makedirs(args.out, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="wn-sweep-profile-")
    browser = Browser(chromium, profile)
    problems_tsv = open(os.path.join(args.out, "problems.tsv"), "w")
    problems_tsv.write("corpus\tpage\treport\tproblem\n")
    total_problems = 0
    print(f"{'corpus':16} {'pages':>6} {'annotate':>9} {'site':>6} {'loaded':>7} {'console':>8} {'blocks':>7} "
          f"{'problems':>9} {'seconds':>8}")
    try:
        for corpus in corpora:
            t0 = time.time()
            src = os.path.join(args.bench, corpus, "html")
            pages = sorted(os.path.join(src, n) for n in os.listdir(src) if n.endswith((".html", ".htm")))
            if args.limit:
                pages = pages[:args.limit]
            outdir = os.path.join(args.out, corpus)
            shutil.rmtree(outdir, ignore_errors=True)
            os.makedirs(outdir)
            db = os.path.join(outdir, "site.db")
            subprocess.run([winnow, "learn", "-q", "--site", corpus, *pages, "--db", db], check=True)
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                prepared = list(pool.map(lambda p: prepare(winnow, corpus, p, db, outdir), pages))
            counts = dict(annotate=0, site=0, loaded=0, console=0, blocks=0, problems=0)
            for res in prepared:
                for kind, key in (("annotate", "blocks"), ("site", "site_blocks")):
                    report, rc = res[kind], res[kind + "_rc"]
                    probs = []
                    if rc not in (0, 3) or not os.path.exists(report):
                        probs.append(f"winnow exit {rc}: {res[kind + '_err'].strip()[:200]}")
                    else:
                        counts[kind] += 1
                        try:
                            console, got = browser.load(report)
                            counts["loaded"] += 1
                        except (TimeoutError, EOFError, RuntimeError) as e:
                            console, got = [f"browser: {e}"], None
                            if isinstance(e, EOFError):
                                browser = Browser(chromium, profile)
                        counts["console"] += len(console)
                        blockprobs = compare(res[key], got)
                        counts["blocks"] += len(blockprobs)
                        probs += console + blockprobs
                    for p in probs:
                        problems_tsv.write(f"{corpus}\t{res['page']}\t{kind}\t{p}\n")
                    counts["problems"] += bool(probs)
            total_problems += counts["problems"]
            print(f"{corpus:16} {len(pages):6} {counts['annotate']:9} {counts['site']:6} {counts['loaded']:7} "
                  f"{counts['console']:8} {counts['blocks']:7} {counts['problems']:9} {time.time() - t0:8.0f}",
                  flush=True)
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
        problems_tsv.close()
    print(f"reports with a problem: {total_problems} (listed in {os.path.join(args.out, 'problems.tsv')})")
    sys.exit(1 if total_problems else 0)


if __name__ == "__main__":
    main()
