#!/usr/bin/env python3
"""The Dask driver against the CLI on the same WARC files, one run.

    PYTHONPATH=python /usr/bin/python3 bench/dask_bench.py [--rounds N] [WARC...]

(default: every WARC of ../shared/corpus/sites). Each round, interleaved:
  cli         build/winnow learn -q --db A.db WARCS, then
              build/winnow extract -q -j 2 --db A.db -o DIR WARCS
  dask 2x1    python3 -m winnow.dask WARCS --db B.db -o OUT --workers 2
              (LocalCluster, 2 worker processes of 1 thread)
  dask 1x2    the same with 1 worker process of 2 threads

Pages/s over the pages of the WARCs (learned, then extracted): for the CLI the
two commands' wall time; for Dask the driver's four phases (map, reduce,
models, extract) without the cluster's start, which is shown apart, and the
whole command's wall time. Memory: the CLI commands' peak RSS (/usr/bin/time)
and each Dask worker's peak RSS during the run (VmHWM, reset at the start).
CPU ms/page: user + system time of the CLI commands, of the Dask workers (the
driver's and the scheduler's own CPU left out), per page.
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def timed(cmd, env=None):
    timer = os.path.exists("/usr/bin/time")
    full = (["/usr/bin/time", "-f", "%U %S %M"] if timer else []) + cmd
    t0 = time.perf_counter()
    p = subprocess.run(full, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t0
    if p.returncode not in (0, 3, 4):
        raise SystemExit("%s exited %d: %s" % (cmd[0], p.returncode, p.stderr[-800:]))
    f = p.stderr.split()
    rss = int(f[-1]) if timer else 0
    cpu = float(f[-3]) + float(f[-2]) if timer else 0.0
    return dt, rss, cpu, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warcs", nargs="*")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "winnow"))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    warcs = args.warcs or sorted(glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "sites", "*.warc.gz")))
    if not warcs:
        warcs = sorted(glob.glob("/work/shared/corpus/sites/*.warc.gz"))
    warcs = [os.path.abspath(w) for w in warcs]
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    tmp = tempfile.mkdtemp(prefix="winnow-daskbench-")
    rows = {"cli": [], "dask 2x1": [], "dask 1x2": []}
    pages = None
    try:
        for _ in range(args.rounds):
            for k in rows:
                db = os.path.join(tmp, "sites.db")
                out = os.path.join(tmp, "out")
                for p in (db, out):
                    shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else (
                        os.path.exists(p) and os.unlink(p))
                if k == "cli":
                    tl, rl, cl, err = timed([args.cli, "learn", "--db", db] + warcs)
                    te, re_, ce, _ = timed([args.cli, "extract", "-q", "-j", "2", "--db", db, "-o", out] + warcs)
                    n = int(err.split("learned ", 1)[1].split()[0])
                    rows[k].append({"pages": n, "seconds": tl + te, "wall": tl + te, "learn": tl, "extract": te,
                                    "rss": [rl / 1024, re_ / 1024], "cpu": cl + ce})
                else:
                    workers, threads = (2, 1) if k == "dask 2x1" else (1, 2)
                    stats = os.path.join(tmp, "stats.json")
                    wall, _, _, _ = timed([sys.executable, "-m", "winnow.dask"] + warcs +
                                       ["--db", db, "-o", out, "--workers", str(workers), "--threads-per-worker",
                                        str(threads), "--stats", stats, "-q"], env=env)
                    with open(stats) as f:
                        s = json.load(f)
                    n = s["learn"]["pages"]
                    rows[k].append({"pages": n, "seconds": s["seconds"], "wall": wall,
                                    "learn": s["learn"]["seconds"] + s["merge"]["seconds"],
                                    "extract": s["extract"]["seconds"], "start": s["cluster_start_seconds"],
                                    "rss": [m["peak_rss_kb"] / 1024 for m in s["worker_memory"].values()],
                                    "cpu": s["worker_cpu_seconds"]})
                pages = n
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d pages in %d WARC files, %d rounds (median), %d cores, load average %s" % (
        pages, len(warcs), args.rounds, os.cpu_count(), open("/proc/loadavg").read().split()[0]))
    print()
    print("| run | learn s | extract s | pages/s (without cluster start) | whole command s | CPU ms/page | peak RSS |")
    print("|---|---:|---:|---:|---:|---:|---|")
    med = lambda k, f: statistics.median(r[f] for r in rows[k])
    for k in rows:
        rss = rows[k][-1]["rss"]
        label = {"cli": "CLI `learn` + `extract -j 2`", "dask 2x1": "Dask LocalCluster, 2 workers x 1 thread",
                 "dask 1x2": "Dask LocalCluster, 1 worker x 2 threads"}[k]
        mem = ("learn %.1f MB, extract %.1f MB" % tuple(rss)) if k == "cli" else \
            "per worker " + ", ".join("%.1f MB" % r for r in rss)
        start = "" if k == "cli" else " (start %.1f)" % med(k, "start")
        print("| %s | %.2f | %.2f | %.1f | %.2f%s | %.2f | %s |" % (
            label, med(k, "learn"), med(k, "extract"), pages / med(k, "seconds"), med(k, "wall"), start,
            1000 * med(k, "cpu") / pages, mem))


if __name__ == "__main__":
    main()
