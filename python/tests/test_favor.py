"""The precision/recall dial: Extractor(favor=...) is the CLI's --favor."""
import os
import subprocess

import pytest

import winnow


def _page(root, name):
    with open(os.path.join(root, "tests", "data", "pages", name), "rb") as f:
        return f.read()


def test_precision_leaves_out_the_labels_around_the_story(root):
    html = _page(root, "synthetic-favor-edges.html")
    balanced = winnow.extract(html).text
    with winnow.Extractor(favor="precision") as ex:
        precise = ex.extract(html).text
    assert "Filed under transport and island life" in balanced
    assert "Filed under transport and island life" not in precise
    assert "The operator said the full timetable would be published" in precise
    # what precision keeps, balanced keeps too
    assert set(precise.splitlines()) <= set(balanced.splitlines())


def test_recall_keeps_more_and_the_default_is_balanced(root):
    html = _page(root, "synthetic-favor-recall.html")
    with winnow.Extractor(favor="recall") as ex:
        full = ex.extract(html).text
    with winnow.Extractor(favor="balanced") as ex:
        balanced = ex.extract(html).text
    assert balanced == winnow.extract(html).text
    assert "The library was built in 1904" in full and "The library was built in 1904" not in balanced
    assert set(balanced.splitlines()) <= set(full.splitlines())


def test_favor_matches_the_cli(root, cli):
    path = os.path.join(root, "tests", "data", "pages", "synthetic-favor-edges.html")
    out = subprocess.run([cli, "extract", "--favor", "precision", path], capture_output=True, check=True).stdout
    with winnow.Extractor(favor="precision") as ex:
        assert ex.extract(_page(root, "synthetic-favor-edges.html")).text == out.decode()


def test_unknown_favor_is_refused():
    with pytest.raises(winnow.ArgumentError):
        winnow.Extractor(favor="accuracy")


def test_favor_crosses_a_pickle(root):
    import pickle
    html = _page(root, "synthetic-favor-edges.html")
    with winnow.Extractor(favor="precision") as ex:
        again = pickle.loads(pickle.dumps(ex))
        assert again.settings["favor"] == "precision"
        assert again.extract(html).text == ex.extract(html).text
        again.close()
