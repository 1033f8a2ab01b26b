"""The page type: reported on the result, forced with page_type=, and in
the JSON rendering; the text extracted is the same whatever the kind."""
import json

import pytest

import winnow

KINDS = {"article", "forum", "product", "listing", "documentation", "service", "other"}

PRODUCT = b"""<html><head><title>Blue kettle</title>
<meta property="og:type" content="product">
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product", "name": "Blue kettle",
 "offers": {"@type": "Offer", "price": "39.00", "priceCurrency": "USD"},
 "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.5"}}</script></head>
<body><h1>Blue kettle</h1><p>Price: $39.00</p><form><select><option>1</option></select>
<button>Add to cart</button></form>
<p>A kettle of blue enamel that boils a litre of water in four minutes on any stove, gas or induction.</p>
</body></html>"""


def test_result_has_a_page_type():
    r = winnow.extract(PRODUCT, url="https://shop.example/products/blue-kettle")
    assert r.page_type in KINDS
    assert 0.0 < r.page_type_confidence <= 1.0
    assert r.page_type == "product"


def test_forced_page_type():
    with winnow.Extractor(page_type="forum", rules={"UNIT_MODEL": 0}) as ex:
        r = ex.extract(PRODUCT)
        assert r.page_type == "forum"
        assert r.page_type_confidence == 1.0
        # a thread's strategy keeps the parts the product strategy keeps
        # (the learned unit decision after it, off here, may drop a lone
        # price line from a thread)
        assert r.text == winnow.extract(PRODUCT, rules={"UNIT_MODEL": 0}).text
        doc = ex.extract(PRODUCT, format="json").json()
        assert doc["page_type"] == "forum" and doc["page_type_confidence"] == 1.0


def test_unknown_page_type_is_refused():
    with pytest.raises(winnow.ArgumentError):
        winnow.Extractor(page_type="blog")


def test_json_and_jsonl_name_it():
    doc = winnow.extract(PRODUCT, format="json").json()
    assert doc["page_type"] in KINDS
    line = json.loads(winnow.Extractor().jsonl(PRODUCT))
    assert line["page_type"] == doc["page_type"]
    assert line["page_type_confidence"] == doc["page_type_confidence"]


def _thread():
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "tests", "data", "pages", "synthetic-thread-posts.html"), "rb") as f:
        return f.read()


def test_thread_posts():
    """A forum thread's posts: the first post and every reply, in order, with
    author and date; as in the JSON; none when the page is read as an article."""
    page = _thread()
    with winnow.Extractor(page_type="forum") as ex:
        r = ex.extract(page)
        assert [(p["author"], p["date"]) for p in r.posts] == [
            ("alice", "March 3, 2024 9:15 AM"), ("bob42", "March 3, 2024 10:02 AM"),
            ("carol", "March 4, 2024 8:40 PM"), ("alice", "March 5, 2024 7:05 AM")]
        assert r.posts[1]["text"].startswith("Citric acid works better than vinegar")
        assert r.posts[0]["text"][:30] in " ".join(r.text.split())
        assert ex.extract(page, format="json").json()["posts"] == r.posts
        assert json.loads(ex.jsonl(page))["posts"] == r.posts
        assert r.to_dict()["posts"] == r.posts
    with winnow.Extractor(page_type="article") as ex:
        assert ex.extract(page).posts == []
    assert winnow.extract(PRODUCT).posts == []
