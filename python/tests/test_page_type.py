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
    with winnow.Extractor(page_type="forum") as ex:
        r = ex.extract(PRODUCT)
        assert r.page_type == "forum"
        assert r.page_type_confidence == 1.0
        # reported only: the text is the model's choice's
        assert r.text == winnow.extract(PRODUCT).text
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
