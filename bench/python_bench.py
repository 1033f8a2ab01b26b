#!/usr/bin/env python3
"""Pages/s of the Python package against the CLI on the same pages, one run.

    PYTHONPATH=python /usr/bin/python3 bench/python_bench.py [--corpus DIR] [--rounds N]

Each round runs, interleaved (the machine is noisy):
  cli -j1, cli -j2      build/winnow extract -q [-j 2] -o TMP DIR: read, extract,
                        write one .txt per page and the manifest (process start
                        included, a few ms)
  python 1, python 2    the same work in Python: winnow.read(DIR), extract each
                        record to text, write TMP/ID.txt; with 2 threads the main
                        thread reads and a ThreadPoolExecutor(2) extracts and
                        writes (one Extractor per thread)
  python mem 1, mem 2   extraction alone, the pages already in memory: the
                        threads' scaling with no file I/O

Prints a Markdown table: median and best pages/s over the rounds, and the
ratio of Python to the CLI at the same thread count, and peak RSS.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
import winnow  # noqa: E402


def run_cli(cli, corpus, jobs, out):
    """(wall s, CPU s, peak RSS kB or None). The peak comes from /usr/bin/time:
    a child forked from Python inherits Python's peak in ru_maxrss (Linux keeps
    it across exec), one forked from time(1) does not."""
    cmd = [cli, "extract", "-q", "-j", str(jobs), "-o", out, corpus]
    timer = os.path.exists("/usr/bin/time")
    if timer:
        cmd = ["/usr/bin/time", "-f", "%M"] + cmd
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    if rc not in (0, 3, 4):
        raise SystemExit("%s exited %d: %s" % (cli, rc, err.decode()[-500:]))
    maxrss = int(err.split()[-1]) if timer else None
    return dt, ru.ru_utime + ru.ru_stime, maxrss


def cpu_now():
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def run_python(corpus, threads, out):
    os.makedirs(out, exist_ok=True)
    local = threading.local()

    def one(rec):
        ex = getattr(local, "ex", None)
        if ex is None:
            ex = local.ex = winnow.Extractor()
        try:
            text = ex.extract(rec, output="str")
        except winnow.Error:
            return 0
        with open(os.path.join(out, rec.id + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
        return 1

    t0 = time.perf_counter()
    c0 = cpu_now()
    n = 0
    if threads == 1:
        for rec in winnow.read(corpus):
            n += one(rec)
    else:
        with ThreadPoolExecutor(threads) as pool:
            pending = []
            for rec in winnow.read(corpus):
                pending.append(pool.submit(one, rec))
                if len(pending) >= 8 * threads:  # bounded: memory stays flat
                    n += pending.pop(0).result()
            n += sum(f.result() for f in pending)
    return time.perf_counter() - t0, cpu_now() - c0


def run_memory(pages, threads):
    local = threading.local()

    def one(html):
        ex = getattr(local, "ex", None)
        if ex is None:
            ex = local.ex = winnow.Extractor()
        try:
            return len(ex.extract(html, output="str"))
        except winnow.Error:
            return 0

    t0 = time.perf_counter()
    if threads == 1:
        for p in pages:
            one(p)
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(one, pages, chunksize=4))
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "bench", "aeb", "html"))
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "winnow"))
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    corpus = os.path.abspath(args.corpus)
    if not os.path.isdir(corpus):
        corpus = "/work/shared/bench/aeb/html"
    pages = [r.data for r in winnow.read(corpus)]
    npages = len(pages)
    tmp = tempfile.mkdtemp(prefix="winnow-pybench-")
    rates = {k: [] for k in ("cli 1", "cli 2", "python 1", "python 2", "python mem 1", "python mem 2")}
    cpu = {k: [] for k in rates}
    rss = {"cli 1": 0, "cli 2": 0}
    try:
        # warm-up: page cache, the engine's first allocations
        run_cli(args.cli, corpus, 1, os.path.join(tmp, "w"))
        run_python(corpus, 1, os.path.join(tmp, "wp"))
        for _ in range(args.rounds):
            for j in (1, 2):
                out = os.path.join(tmp, "cli%d" % j)
                shutil.rmtree(out, ignore_errors=True)
                dt, c, maxrss = run_cli(args.cli, corpus, j, out)
                rates["cli %d" % j].append(npages / dt)
                cpu["cli %d" % j].append(c)
                if maxrss is not None:
                    rss["cli %d" % j] = max(rss["cli %d" % j], maxrss)
                out = os.path.join(tmp, "py%d" % j)
                shutil.rmtree(out, ignore_errors=True)
                dt, c = run_python(corpus, j, out)
                rates["python %d" % j].append(npages / dt)
                cpu["python %d" % j].append(c)
                c0 = cpu_now()
                rates["python mem %d" % j].append(npages / run_memory(pages, j))
                cpu["python mem %d" % j].append(cpu_now() - c0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    py_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    med = {k: statistics.median(v) for k, v in rates.items()}
    print("%d pages (%s), %d rounds, library %s, %d cores, load average %s" % (
        npages, corpus, args.rounds, winnow.library_path, os.cpu_count(), open("/proc/loadavg").read().split()[0]))
    print()
    print("| run | threads | pages/s median | best | vs CLI, same threads: medians (median of rounds) "
          "| CPU ms/page (median) | peak RSS |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for k in rates:
        kind, j = k.rsplit(" ", 1)
        if kind == "cli":
            vs, mem = "1.00", ("%.1f MB" % (rss[k] / 1024)) if rss[k] else "n/a"
        else:
            per_round = statistics.median(a / b for a, b in zip(rates[k], rates["cli " + j]))
            vs = "%.2f (%.2f)" % (med[k] / med["cli " + j], per_round)
            mem = "%.1f MB (the bench process)" % (py_rss / 1024)
        label = {"cli": "CLI `winnow extract -o DIR`", "python": "Python read + extract + write",
                 "python mem": "Python extract only (pages in memory)"}[kind]
        print("| %s | %s | %.1f | %.1f | %s | %.2f | %s |" % (label, j, med[k], max(rates[k]), vs,
                                                       1000 * statistics.median(cpu[k]) / npages, mem))
    print()
    print("2 threads / 1 thread: CLI %.2fx, Python %.2fx, Python in memory %.2fx" % (
        med["cli 2"] / med["cli 1"], med["python 2"] / med["python 1"], med["python mem 2"] / med["python mem 1"]))


if __name__ == "__main__":
    main()
