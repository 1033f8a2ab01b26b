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
