"""Site learning and extraction over WARC files on Dask distributed.

    python3 -m winnow.dask WARCS... --db DB -o OUT [--scheduler ADDRESS] [--workers N]

1. map      one task per WARC file: its pages recorded per site into a partial
            file (``winnow.Partial``, as ``winnow learn --partial``), OUT's
            ``.parts/part-NNNNN.wpart``
2. reduce   one task: the partial files merged into the site database DB in
            the WARCs' order (``SiteDB.merge``, as ``winnow merge``), site by
            site. The result is the database ``winnow learn --db DB WARCS...``
            gives, bit for bit (the merge is exact: docs/cli.md, "Learning in
            shards")
3. models   every worker opens DB read-only, once, and keeps it: at DB's path
            (storage every worker sees: the local disk for a LocalCluster), or
            with ``--ship-db`` from a copy of the file broadcast to the workers
            through the scheduler (``Client.scatter(broadcast=True)``)
4. extract  one task per WARC file: every page extracted with its site's
            model (``SiteDB.extract``, as ``winnow extract --db DB``), one JSON
            line per page in input order, to OUT/shard-NNNNN.jsonl[.gz]

Without ``--scheduler`` a ``LocalCluster`` of ``--workers`` processes is started
(``--threads-per-worker`` threads each). OUT and its ``.parts`` folder must be
on storage every worker sees. A summary (pages, sites, seconds per phase,
pages/s, each worker's peak RSS) goes to stderr and, with ``--stats FILE``, to
FILE as JSON.

The JSON lines are the library's (winnow_render_jsonl): byte for byte those of
``winnow extract --db DB --format jsonl WARCS``, id the WARC's name and the
record number as the CLI names its outputs; a page that fails has its line
with status and error, and so, as the CLI writes them, has a record skipped
for being over ``--max-bytes`` (``WINNOW_E_TOO_LARGE``, the reader's warning as
the error, a warning on stderr), a damaged record (a WARC record cut short by
the end of the file: ``WINNOW_E_FORMAT``, the reader's message without its
locator, said on stderr as ``NAME: MESSAGE``) and a WARC that cannot be opened
or read on (its status and error; the pages before stay). The exit status is
the CLI's: 1 when a page, record or WARC failed, else 4 when a record was
skipped, else 0.

docs/scale.md tells how the same run goes on many machines.
"""
import argparse
import gzip
import hashlib
import json
import os
import resource
import sys
import tempfile
import threading
import time

import winnow
from winnow._core import _jsonl_options, _make_input, _render_jsonl_failure
from winnow._ffi import lib
from winnow.reader import read
from winnow.sitedb import Partial, SiteDB, site_name

def _stem(path):
    name = os.path.basename(path)
    for ext in (".warc.gz", ".warc", ".jsonl.gz", ".jsonl", ".gz"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


def memory():
    """This process's memory now: peak and current RSS in kB (VmHWM, VmRSS:
    counted from this process's own start, unlike ru_maxrss, which a spawned
    worker inherits from the process that forked it)."""
    out = {}
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(("VmHWM:", "VmRSS:")):
                    k, v = line.split(":", 1)
                    out[k] = int(v.split()[0])
    except OSError:
        pass
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {"peak_rss_kb": out.get("VmHWM"), "rss_kb": out.get("VmRSS"), "cpu_seconds": ru.ru_utime + ru.ru_stime}


# ---- tasks (run on the workers) ----

def _records(warc, max_bytes, events):
    """The records of one WARC as ``winnow learn`` and ``winnow extract`` read
    them: each yielded, and what they give a line of their own without
    being a page put in ``events`` as (status, message, record) in its
    place, before the record that follows it: a record skipped for being
    over max_bytes (WINNOW_E_TOO_LARGE, the reader's warning, no record), a
    damaged record (WINNOW_E_FORMAT, the reader's error without its locator,
    the damaged Record), and a WARC that cannot be opened or read on (its
    status and error, no record; the iteration ends there, as the CLI goes
    on with its next input)."""
    try:
        reader = read(warc, max_record_bytes=max_bytes, damaged=True)
    except winnow.Error as e:
        events.append((e.code, e.message, None))
        return
    with reader:
        seen = 0
        while True:
            failure = rec = None
            try:
                rec = next(reader)
            except StopIteration:
                pass
            except winnow.Error as e:
                failure = e
            too_large = reader.too_large
            events.extend([(lib.WINNOW_E_TOO_LARGE, reader.warning, None)] * (too_large - seen))
            seen = too_large
            if failure is not None:
                events.append((failure.code, failure.message, None))
                return
            if rec is None:
                return
            if rec.error is not None:
                # a record that holds no page: a failure with its own line
                # (cli/common.c cli_inputs_next, the damaged branch)
                events.append((lib.WINNOW_E_FORMAT, rec.error, rec))
                continue
            yield rec


def _input_line(warc, status, message, rec=None):
    """The JSON line the CLI writes for an input without a page (cli/common.c
    input_line): the file, no record, no id, no URL; for a damaged record
    rec, its file, record number, WARC-Record-ID and URL."""
    keep = []
    if rec is None:
        source, url = {"file": warc, "record": -1, "record_id": None}, None
    else:
        source = {"file": rec.file or warc, "record": rec.number, "record_id": rec.record_id}
        url = rec.url
    inp = _make_input(b"", url, None, source, keep)
    return _render_jsonl_failure(inp, status, message, _jsonl_options(None, None, False, False, keep))


def learn_shard(index, warc, work, half_life=None, engine_options=None, max_bytes=None):
    """Map: the pages of one WARC file into a partial file."""
    t0 = time.perf_counter()
    path = os.path.join(work, "part-%05d.wpart" % index)
    events = []
    with Partial(half_life, **(engine_options or {})) as p:
        stats = p.learn(_records(warc, max_bytes, events))
        p.write(path)
        sites = p.sites
    failures = [m for st, m, _ in events if st != lib.WINNOW_E_TOO_LARGE]
    return {"index": index, "warc": warc, "part": path, "pages": stats.pages, "counted": stats.counted,
            "duplicates": stats.duplicates, "failed": stats.failed + len(failures),
            "skipped": len(events) - len(failures), "errors": (failures + stats.errors)[:10], "sites": sites,
            "bytes": os.path.getsize(path), "seconds": time.perf_counter() - t0}


def merge_parts(db, parts, commit_every=None):
    """Reduce: the partial files into the database, in order, site by site."""
    t0 = time.perf_counter()
    with SiteDB(db) as d:
        rep = d.merge(parts, commit_every=commit_every)
        rep["site_count"] = len(d.sites())
    rep["seconds"] = time.perf_counter() - t0
    rep["db_bytes"] = os.path.getsize(db)
    return rep


_dbs = {}
_shipped = []  # the copies written by _worker_db, removed by _close_dbs
_dbs_lock = threading.Lock()


def _worker_db(ref, engine_options):
    """The worker's read-only SiteDB for ref: a path, or (digest, bytes) of a
    shipped copy, written once into the worker's temporary folder."""
    key = ref if isinstance(ref, str) else ref[0]
    with _dbs_lock:
        db = _dbs.get(key)
        if db is None:
            path = ref
            if not isinstance(ref, str):
                digest, data = ref
                path = os.path.join(tempfile.gettempdir(), "winnow-dask-%d-%s.db" % (os.getpid(), digest[:16]))
                with open(path + ".tmp", "wb") as f:
                    f.write(data)
                os.replace(path + ".tmp", path)
                _shipped.append(path)
            db = _dbs[key] = SiteDB(path, readonly=True, **(engine_options or {}))
        return db


def extract_shard(index, warc, db_ref, out, compress=False, engine_options=None, site_opts=None, max_bytes=None):
    """Extract: every page of one WARC file with its site's model, to a JSONL
    shard: the lines `winnow extract --db DB --format jsonl WARC` writes,
    those of skipped records and read errors included."""
    t0 = time.perf_counter()
    db = _worker_db(db_ref, engine_options)
    path = os.path.join(out, "shard-%05d.jsonl%s" % (index, ".gz" if compress else ""))
    tmp = path + ".tmp"
    n = failed = skipped = 0
    warnings = []
    errors = []  # the damaged records': "NAME: MESSAGE", as the CLI says them
    stem = _stem(warc)
    opener = (lambda p: gzip.open(p, "wt", encoding="utf-8", compresslevel=6)) if compress else \
        (lambda p: open(p, "w", encoding="utf-8"))
    events = []

    def flush():
        # the lines of what was read before the record now in hand, in order
        nonlocal failed, skipped
        for st, message, rec in events:
            f.write(_input_line(warc, st, message, rec))
            if st == lib.WINNOW_E_TOO_LARGE:
                skipped += 1
            else:
                failed += 1
            if rec is not None:
                if len(errors) < 10:
                    errors.append("%s-%s: %s" % (stem, rec.id or "page", message))
            elif len(warnings) < 10:
                warnings.append(message)
        del events[:]

    with opener(tmp) as f:
        for rec in _records(warc, max_bytes, events):
            flush()
            line = db.jsonl(rec, id="%s-%s" % (stem, rec.id), **(site_opts or {}))
            n += 1
            failed += ',"error":null,' not in line  # escaped inside strings: only the key matches
            f.write(line)
        flush()
    os.replace(tmp, path)  # whole or not at all: a retried task writes it again
    return {"index": index, "warc": warc, "shard": path, "pages": n, "failed": failed, "skipped": skipped,
            "warnings": warnings, "errors": errors, "seconds": time.perf_counter() - t0}


# ---- the driver ----

def run(client, warcs, db, out, work=None, half_life=None, ship_db=False, compress=False,
        engine_options=None, site_opts=None, log=None, retries=2, max_bytes=None, say=None):
    """The four phases on a connected distributed.Client; a summary dict.
    log(*parts) takes the progress lines, say(*parts) (default: log) the
    damaged records' "NAME: MESSAGE" lines, which the CLI says even with -q."""
    log = log or (lambda *a: None)
    say = say or log
    warcs = [os.path.abspath(w) for w in warcs]
    out = os.path.abspath(out)
    db = os.path.abspath(db)
    work = os.path.abspath(work or os.path.join(out, ".parts"))
    os.makedirs(out, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    summary = {"warcs": len(warcs), "workers": len(client.scheduler_info()["workers"])}
    before = client.run(_reset_peak)

    t0 = time.perf_counter()
    # every task can run again: a partial file and a shard are written whole
    # (a temporary file renamed), and a merge counts pages merged already as
    # duplicates; a worker lost midway has its tasks run elsewhere
    futs = [client.submit(learn_shard, i, w, work, half_life, engine_options, max_bytes, pure=False,
                          retries=retries)
            for i, w in enumerate(warcs)]
    parts = client.gather(futs)
    t1 = time.perf_counter()
    pages = sum(p["pages"] for p in parts)
    summary["learn"] = {"seconds": t1 - t0, "pages": pages, "failed": sum(p["failed"] for p in parts),
                        "part_bytes": sum(p["bytes"] for p in parts)}
    log("map: %d pages of %d WARC files into %d partial files (%.1f MB) in %.2f s" % (
        pages, len(warcs), len(parts), summary["learn"]["part_bytes"] / 1e6, t1 - t0))

    rep = client.submit(merge_parts, db, [p["part"] for p in parts], pure=False, retries=retries).result()
    t2 = time.perf_counter()
    summary["merge"] = dict(rep, seconds=t2 - t1)
    log("reduce: merged into %s: %d sites, %d pages (%d counted, %d duplicates) in %.2f s" % (
        db, rep["site_count"], rep["pages"], rep["counted"], rep["duplicates"], t2 - t1))

    if ship_db:
        with open(db, "rb") as f:
            data = f.read()
        ref = client.scatter((hashlib.sha256(data).hexdigest(), data), broadcast=True)
    else:
        ref = db
    futs = [client.submit(extract_shard, i, w, ref, out, compress, engine_options, site_opts, max_bytes, pure=False,
                          retries=retries)
            for i, w in enumerate(warcs)]
    shards = client.gather(futs)
    t3 = time.perf_counter()
    n = sum(s["pages"] for s in shards)
    summary["extract"] = {"seconds": t3 - t2, "pages": n, "failed": sum(s["failed"] for s in shards),
                          "skipped": sum(s["skipped"] for s in shards),
                          "shards": [s["shard"] for s in shards], "shipped_db": bool(ship_db)}
    # what the CLI says on stderr of a record skipped or a WARC cut short: said here too
    for s in shards:
        for w in s["warnings"]:
            log("warning: %s" % w)
        for e in s.get("errors", ()):
            say(e)
    log("extract: %d pages into %d JSONL shards in %.2f s (%d skipped, %d failed)" % (
        n, len(shards), t3 - t2, summary["extract"]["skipped"], summary["extract"]["failed"]))

    summary["seconds"] = t3 - t0
    summary["pages_per_s"] = pages / (t3 - t0) if t3 > t0 else 0.0
    summary["worker_memory"] = client.run(memory)
    summary["worker_cpu_seconds"] = sum(m["cpu_seconds"] - before.get(w, {}).get("cpu_seconds", 0)
                                        for w, m in summary["worker_memory"].items())
    client.run(_close_dbs)
    for p in parts:
        try:
            os.unlink(p["part"])
        except OSError:
            pass
    try:
        os.rmdir(work)
    except OSError:
        pass
    return summary


def _reset_peak():
    """Counts the worker's peak RSS from now on (Linux: writing 5 to clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    return memory()


def _close_dbs():
    with _dbs_lock:
        for db in _dbs.values():
            db.close()
        _dbs.clear()
        while _shipped:
            try:
                os.unlink(_shipped.pop())
            except OSError:
                pass


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m winnow.dask", description=__doc__.split("\n\n")[0])
    ap.add_argument("warcs", nargs="+", metavar="WARC", help="WARC files (.warc, .warc.gz), in shard order")
    ap.add_argument("--db", required=True, help="the site database to learn into (created when missing)")
    ap.add_argument("-o", "--output", required=True, help="folder of the JSONL shards")
    ap.add_argument("--scheduler", help="address of a running scheduler (default: start a LocalCluster)")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster: worker processes (default 2)")
    ap.add_argument("--threads-per-worker", type=int, default=1, help="LocalCluster: threads each (default 1)")
    ap.add_argument("--memory-limit", default="auto", help="LocalCluster: memory per worker (default auto)")
    ap.add_argument("--work", help="folder of the partial files (default OUT/.parts)")
    ap.add_argument("--half-life", type=float, help="pages after which old evidence counts half (default 1000)")
    ap.add_argument("--ship-db", action="store_true",
                    help="broadcast a copy of the database to the workers instead of opening it at its path")
    ap.add_argument("--gzip", action="store_true", help="write shard-NNNNN.jsonl.gz")
    ap.add_argument("--mode", default="auto", choices=("auto", "site", "page"))
    ap.add_argument("--max-bytes", type=int,
                    help="skip records larger than this, each with a WINNOW_E_TOO_LARGE line (default 256 MiB)")
    ap.add_argument("--profile", action="store_true",
                    help="LocalCluster: keep the workers' statistical profiler (off by default: it costs CPU)")
    ap.add_argument("--retries", type=int, default=2, help="runs of a failed task again (default 2)")
    ap.add_argument("--stats", help="write the summary as JSON to this file")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)

    from distributed import Client, LocalCluster

    def log(*a):
        # warnings are said with -q too, as the CLI's are
        if not args.quiet or (a and str(a[0]).startswith("warning: ")):
            print("winnow.dask:", *a, file=sys.stderr)

    t0 = time.perf_counter()
    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        if not args.profile:
            # the workers' statistical profiler samples every thread's stack
            # every 10 ms: CPU taken from the extraction
            import dask
            dask.config.set({"distributed.worker.profile.enabled": False})
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=args.threads_per_worker,
                               processes=True, memory_limit=args.memory_limit, dashboard_address=":0")
        client = Client(cluster)
    start = time.perf_counter() - t0
    log("cluster: %d workers, ready in %.2f s" % (len(client.scheduler_info()["workers"]), start))
    try:
        summary = run(client, args.warcs, args.db, args.output, work=args.work, half_life=args.half_life,
                      ship_db=args.ship_db, compress=args.gzip,
                      site_opts={"mode": args.mode}, log=log, retries=args.retries, max_bytes=args.max_bytes,
                      say=lambda *a: print("winnow.dask:", *a, file=sys.stderr))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    summary["cluster_start_seconds"] = start
    mem = summary["worker_memory"]
    log("%d pages in %.2f s: %.1f pages/s (cluster start %.2f s apart); worker peak RSS %s MB" % (
        summary["learn"]["pages"], summary["seconds"], summary["pages_per_s"], start,
        ", ".join("%.1f" % (m["peak_rss_kb"] / 1024) for m in mem.values() if m.get("peak_rss_kb"))))
    if args.stats:
        with open(args.stats, "w") as f:
            json.dump(summary, f, indent=1)
    # the CLI's statuses: 1 a page or input failed, 4 a record was skipped
    if summary["learn"]["failed"] + summary["extract"]["failed"]:
        return 1
    return 4 if summary["extract"]["skipped"] else 0


if __name__ == "__main__":
    # the tasks are pickled by reference to winnow.dask, not to __main__
    from winnow.dask import main as _main
    sys.exit(_main())
