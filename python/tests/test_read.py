"""winnow.read: directories, WARC and JSON lines through the library's readers."""
import gzip
import json
import os
import pickle

import pytest

import winnow


def test_directory(root, sample_paths):
    recs = list(winnow.read(os.path.join(root, "samples")))
    assert [r.file for r in recs] == sample_paths
    assert [r.id for r in recs] == [os.path.basename(p)[:-5] for p in sample_paths]
    for r, p in zip(recs, sample_paths):
        with open(p, "rb") as f:
            assert r.data == f.read()
        assert r.url is None and r.number == -1 and r.record_id is None and r.source == p
        assert winnow.extract(r).ok


def test_warc(small_warc):
    with winnow.read(small_warc) as reader:
        assert reader.format == "warc"
        recs = list(reader)
        assert reader.skipped >= 0
    assert len(recs) == 40
    numbers = [r.number for r in recs]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    for r in recs:
        assert r.url.startswith("http") and r.file == small_warc
        assert r.record_id.startswith("<urn:uuid:") and "#" in r.source
        assert isinstance(r.data, bytes) and len(r.data) > 100
    results = [winnow.extract(r) for r in recs]
    assert sum(r.ok for r in results) >= 35
    assert all(res.url == rec.url for res, rec in zip(results, recs))
    # a record survives pickling (Dask ships them between processes)
    r2 = pickle.loads(pickle.dumps(recs[0]))
    assert (r2.url, r2.data, r2.source, r2.number) == (recs[0].url, recs[0].data, recs[0].source, recs[0].number)


def test_warc_matches_cli_manifest(small_warc, cli, tmp_path):
    import subprocess
    out = tmp_path / "out"
    subprocess.run([cli, "extract", "-q", "-o", str(out), small_warc], check=False)
    with open(out / "manifest.tsv") as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    recs = list(winnow.read(small_warc))
    assert [(int(r[2]), r[3], r[4]) for r in rows] == [(r.number, r.record_id, r.url) for r in recs]
    for row, rec in zip(rows, recs):
        want = (out / row[0]).read_text(encoding="utf-8")
        assert winnow.extract(rec, output="str") == want, row[0]


def test_jsonl(tmp_path):
    page = "<html><head><title>T%d</title></head><body><p>%s</p></body></html>"
    lines = [json.dumps({"url": "https://a.example/%d" % i, "html": page % (i, "text of the page " * 10)})
             for i in range(3)]
    lines.insert(1, "{not json")
    p = tmp_path / "pages.jsonl"
    p.write_text("\n".join(lines) + "\n")
    with winnow.read(str(p)) as reader:
        recs = list(reader)
        assert reader.format == "jsonl"
    assert [r.url for r in recs] == ["https://a.example/%d" % i for i in range(3)]
    assert [r.number for r in recs] == [1, 3, 4]
    assert reader.skipped == 1 and reader.warnings
    assert [winnow.extract(r).title for r in recs] == ["T0", "T1", "T2"]
    gz = tmp_path / "pages.jsonl.gz"
    with gzip.open(gz, "wt") as f:
        f.write("\n".join(lines) + "\n")
    assert [r.data for r in winnow.read(gz)] == [r.data for r in recs]


def test_damaged_records_handed_out(tmp_path):
    """damaged=True: the malformed JSONL line and the WARC record cut short by
    the end of a truncated .warc.gz come as records with their error and no
    data (as the CLI reads them), the pages around them as before."""
    page = "<html><body><p>%s</p></body></html>" % ("text of the page " * 10)
    lines = [json.dumps({"url": "https://a.example/1", "html": page}), "{not json",
             json.dumps({"url": "https://a.example/3", "html": page})]
    p = tmp_path / "pages.jsonl"
    p.write_text("\n".join(lines) + "\n")
    with winnow.read(str(p), damaged=True) as reader:
        recs = list(reader)
    assert [r.number for r in recs] == [1, 2, 3]
    assert [r.error is None for r in recs] == [True, False, True]
    assert recs[1].data == b"" and recs[1].error
    assert pickle.loads(pickle.dumps(recs[1])).error == recs[1].error
    assert [r.number for r in winnow.read(str(p))] == [1, 3]  # skipped without it
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page.encode()
    warc = b"".join(gzip.compress(("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://ex.org/%d\r\n"
                                   "Content-Length: %d\r\n\r\n" % (i, len(http))).encode() + http + b"\r\n\r\n")
                    for i in range(2))[:-30]
    w = tmp_path / "cut.warc.gz"
    w.write_bytes(warc)
    recs = list(winnow.read(str(w), damaged=True))
    assert [(r.number, r.url, r.error is None) for r in recs] == [(0, "http://ex.org/0", True),
                                                                   (1, "http://ex.org/1", False)]
    assert "cut short" in recs[1].error and recs[1].data == b""
    assert len(list(winnow.read(str(w)))) == 1


def test_errors(tmp_path):
    with pytest.raises(winnow.FileError) as ei:
        winnow.read(str(tmp_path / "missing.warc.gz"))
    assert ei.value.status == "WINNOW_E_IO" and "missing.warc.gz" in ei.value.message
    assert isinstance(ei.value, OSError)
    notwarc = tmp_path / "x.bin"
    notwarc.write_bytes(b"hello, this is no WARC file\n" * 10)
    with pytest.raises(winnow.FormatError) as ei:
        winnow.read(str(notwarc), format="warc")
    assert ei.value.status == "WINNOW_E_FORMAT"
    with pytest.raises(winnow.ArgumentError):
        winnow.read(str(notwarc), format="pdf")
    with pytest.raises(winnow.ArgumentError):
        winnow.read(str(notwarc), max_record_bytes=0)


def test_too_large_records_are_skipped(small_warc):
    with winnow.read(small_warc, max_record_bytes=20000) as reader:
        recs = list(reader)
        assert all(len(r.data) <= 20000 for r in recs)
    assert reader.skipped > 0 and len(recs) + reader.skipped >= 40


def test_early_close(small_warc):
    reader = winnow.read(small_warc)
    first = next(reader)
    assert first.url
    reader.close()
    reader.close()
    assert list(reader) == []
    with winnow.read(small_warc) as r2:
        for i, _ in enumerate(r2):
            if i == 3:
                break
    assert list(r2) == []
    done, total = winnow.read(small_warc).progress()
    assert total == os.path.getsize(small_warc) and done >= 0
