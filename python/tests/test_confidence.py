"""Result.confidence: the estimated chance that the text is the page's main
content, the same figure as the JSON's, high for a clean story and low for
a page of links."""
import json
import os

import winnow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MENU = b"""<html><head><title>Home</title></head><body><nav><ul><li><a href=/a>News</a></li>
<li><a href=/b>Sport</a></li><li><a href=/c>Weather</a></li><li><a href=/d>About us</a></li></ul></nav>
<footer><a href=/e>Contact</a> <a href=/f>Privacy</a></footer></body></html>"""


def _page(name):
    with open(os.path.join(ROOT, "tests", "data", "pages", name), "rb") as f:
        return f.read()


def test_confidence_orders_a_story_above_a_menu():
    story = winnow.extract(_page("aeb-aljazeera.com.html"))
    menu = winnow.extract(MENU)
    assert 0.9 <= story.confidence <= 1.0
    assert 0.0 <= menu.confidence < 0.3


def test_confidence_is_the_json_figure():
    html = _page("aeb-autoracing.com.br.html")
    r = winnow.extract(html)
    assert isinstance(r.confidence, float)
    doc = winnow.extract(html, format="json").json()
    assert doc["confidence"] == r.confidence
    line = json.loads(winnow.Extractor().jsonl(html))
    assert line["confidence"] == r.confidence
