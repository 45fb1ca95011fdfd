"""Bag-of-XPaths features (SOUrCe §3.2–3.3): leaf XPaths, Apaths, TF-IDF eq. 1, L1 eq. 2."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from lxml import etree

from archiver.learning.features import (
    MIN_TEXT_CHARS,
    XPathVectorizer,
    block_text,
    body_text,
    canonical_apath,
    collapse_repeats,
    content_share,
    generalize_apath,
    leaf_xpaths,
    read_tree,
    text_chars,
)
from archiver.page import parse_html

DOC = b"""<!DOCTYPE html><html><head><title>t</title><script>var x;</script></head>
<body><div id="main" class="post">
  <h1>Title</h1>
  <p>Some <b>bold</b> text and <a class="more" href="/a">a link</a>.</p>
  <ul><li><a href="/b">one</a></li><li><a class="tag  hot" href="/c">two</a></li></ul>
  <img src="/x.png"><br>
  <a href="/d"><img src="/y.png"></a>
  <div class="empty"></div>
  <script>ignored()</script><noscript><p>ignored</p></noscript>
</div></body></html>"""


def test_leaf_xpaths_exact_on_a_small_document() -> None:
    page = parse_html("http://s.test/", DOC)
    assert leaf_xpaths(page.tree) == Counter({
        "/html/body/div/h1": 1,
        "/html/body/div/p": 1,                      # its own text around <b> and <a>
        "/html/body/div/p/b": 1,
        '/html/body/div/p/a[@class="more"]': 1,
        "/html/body/div/ul/li/a": 1,
        '/html/body/div/ul/li/a[@class="tag hot"]': 1,
        "/html/body/div/img": 1,
        "/html/body/div/a": 1,                      # an anchor is a leaf even around an image
        "/html/body/div/a/img": 1,
        "/html/body/div/div": 1,                    # displayed, childless
    })


def test_apaths_of_links_match_the_anchor_xpaths() -> None:
    page = parse_html("http://s.test/", DOC)
    apaths = {canonical_apath(link.anchor_path) for link in page.links if link.kind == "link"}
    anchors = {x for x in leaf_xpaths(page.tree) if x.rsplit("/", 1)[1].startswith("a")}
    assert apaths == anchors


def test_canonical_apath_keeps_tags_and_the_leaf_class_only() -> None:
    raw = ('/html/body[@class="x"]/div[@id="post-123"][@class="post"]/ul/li'
           '/a[@id="l9"][@class="title big"]')
    assert canonical_apath(raw) == '/html/body/div/ul/li/a[@class="title big"]'
    assert canonical_apath("/html/body/a") == "/html/body/a"
    assert canonical_apath('/html/body/a[@class="w-1/2"]') == '/html/body/a[@class="w-1/2"]'
    odd = 'not a path'
    assert canonical_apath(odd) == odd


def test_generalize_apath_zeroes_digits_and_collapses_repeats() -> None:
    assert (generalize_apath('/html/body/ol/li/ol/li/ol/li/div/a[@class="reply-12"]')
            == '/html/body/ol/li/div/a[@class="reply-0"]')
    assert generalize_apath("/html/body/div/div/div/a") == "/html/body/div/a"
    assert generalize_apath("/html/body/table/tr/td/a") == "/html/body/table/tr/td/a"


def test_tfidf_and_l1_norm_match_a_hand_computation() -> None:
    docs = [{"/a": 3, "/b": 1}, {"/a": 1}, {"/b": 2, "/c": 1}]
    X = XPathVectorizer(min_df=1).fit_transform(docs)
    idf_a = math.log(3 / 2 + 1)    # eq. 1: log(|D| / df + 1)
    idf_b = math.log(3 / 2 + 1)
    idf_c = math.log(3 / 1 + 1)
    w = [math.log(3 + 1) * idf_a, math.log(1 + 1) * idf_b]
    expected0 = [w[0] / sum(w), w[1] / sum(w), 0.0]           # eq. 2
    assert X.shape == (3, 3)
    assert np.allclose(X.toarray()[0], expected0)
    assert np.allclose(X.toarray()[1], [1.0, 0.0, 0.0])
    w2 = [math.log(3) * idf_b, math.log(2) * idf_c]
    assert np.allclose(X.toarray()[2], [0.0, w2[0] / sum(w2), w2[1] / sum(w2)])
    assert np.allclose(X.sum(axis=1), 1.0)


def test_min_df_filters_rare_paths_and_transform_ignores_unknown_ones() -> None:
    docs = [{"/common": 1, f"/rare{i}": 1} for i in range(5)]
    vec = XPathVectorizer(min_df=4).fit(docs)
    assert vec.feature_names_ == ["/common"]
    X = vec.transform([{"/common": 2, "/never-seen": 7}, {"/never-seen": 1}])
    assert X.toarray().tolist() == [[1.0], [0.0]]    # an empty row stays zero


def test_transform_one_is_the_dense_row_of_transform() -> None:
    docs = [{"/a": 2, "/b": 1}, {"/a": 1, "/c": 3}, {"/b": 1, "/c": 1}, {"/x": 4}]
    vec = XPathVectorizer(min_df=1).fit(docs)
    for doc in [*docs, {"/a": 5, "/unknown": 2}, {}]:
        row = vec.transform_one(doc)
        assert row.shape == (1, len(vec.feature_names_))
        assert np.array_equal(row, vec.transform([doc]).toarray())


def test_l2_norm_gives_unit_rows() -> None:
    docs = [{"/a": 3, "/b": 1}, {"/a": 1, "/c": 5}, {"/b": 2, "/c": 1}]
    X = XPathVectorizer(min_df=1, norm="l2").fit_transform(docs)
    assert np.allclose(np.sqrt(X.multiply(X).sum(axis=1)), 1.0)


def test_vectorizer_errors() -> None:
    with pytest.raises(RuntimeError, match="not fitted"):
        XPathVectorizer().transform([{"/a": 1}])
    with pytest.raises(ValueError, match="norm"):
        XPathVectorizer(norm="max").fit([{"/a": 1}])


def test_deep_pages_do_not_hit_the_recursion_limit() -> None:
    body = "<div>" * 3000 + "x" + "</div>" * 3000
    page = parse_html("http://s.test/", f"<html><body>{body}</body></html>".encode())
    bag = leaf_xpaths(page.tree)
    assert sum(bag.values()) == 1


@pytest.mark.parametrize(("xpath", "expected"), [
    ("/html/body/ol/li/ol/li/ol/li/article/p", "/html/body/ol/li/article/p"),
    ('/html/body/ol/li/ol/li/a[@class="reply-2"]', '/html/body/ol/li/a[@class="reply-2"]'),
    ("/html/body/ul/li/div/ul/li/div/span", "/html/body/ul/li/div/span"),   # three steps
    ("/html/body/div/div/div/main/p", "/html/body/div/div/div/main/p"),    # layout depth kept
    ("/html/body/ol/li/p", "/html/body/ol/li/p"),
])
def test_collapse_repeats(xpath, expected) -> None:
    assert collapse_repeats(xpath) == expected


def test_vectorizer_collapse_makes_reply_depth_one_feature() -> None:
    flat = {"/html/body/ol/li/p": 2, "/html/body/h1": 1}
    nested = {"/html/body/ol/li/p": 1, "/html/body/ol/li/ol/li/p": 1, "/html/body/h1": 1}
    docs = [flat, nested] * 2
    assert XPathVectorizer(min_df=1).fit(docs).feature_names_ == [
        "/html/body/h1", "/html/body/ol/li/ol/li/p", "/html/body/ol/li/p"]
    vec = XPathVectorizer(min_df=1, collapse=True).fit(docs)
    assert vec.feature_names_ == ["/html/body/h1", "/html/body/ol/li/p"]
    X = vec.transform(docs).toarray()
    assert np.allclose(X[0], X[1])                 # same counts once collapsed


# --- content share (visible text outside links) ---------------------------------------------
def _tree(html: str) -> etree._Element:
    tree = parse_html("http://s.test/", html.encode()).tree
    assert tree is not None
    return tree


def test_text_chars_counts_visible_non_whitespace_text_outside_and_inside_links() -> None:
    # outside: "Some"(4) "bold"(4) "text"(4) "and"(3) "."(1) "Title"(5) = 21
    # links:   "alink"(5) "one"(3) "two"(3) = 11; title, scripts and noscript not counted
    assert text_chars(_tree(DOC.decode())) == (21, 32)


def test_text_chars_counts_nested_link_markup_once_as_link_text() -> None:
    tree = _tree("<html><body><p>abc <a href='/x'>de<b>fg<i>hi</i></b>jk</a>lm</p>"
                 "<map><area href='/y' alt='z'></map></body></html>")
    assert text_chars(tree) == (5, 13)           # abc + lm outside; defghijk in the link
    # An anchor inside an anchor (the HTML parser never builds one; XML-ish input can):
    # its text is link text, counted once.
    body = etree.fromstring("<body>out<a href='/1'>one<a href='/2'>two</a>three</a>tail</body>")
    assert text_chars(body) == (7, 18)


def test_text_chars_ignores_script_style_noscript_and_template_but_keeps_their_tails() -> None:
    tree = _tree("<html><head><style>p{}</style></head><body>"
                 "<script>var long_code = 1;</script>after"
                 "<style>.x{color:red}</style><noscript>enable js</noscript>"
                 "<template><p>hidden</p></template>"
                 "<a href='/x'>go<script>inlinecode()</script></a>end</body></html>")
    assert text_chars(tree) == (8, 10)            # "after" + "end"; "go" in the link


def test_text_chars_of_empty_or_bodyless_documents() -> None:
    assert text_chars(_tree("<html><body></body></html>")) == (0, 0)
    assert text_chars(_tree("<html><body>   \n\t </body></html>")) == (0, 0)
    assert text_chars(etree.fromstring("<html><head><title>t</title></head></html>")) == (0, 0)
    assert text_chars(etree.Comment("c")) == (0, 0)
    assert content_share(_tree("<html><body></body></html>")) is None


def test_one_walk_gives_the_bag_and_the_body_text_and_a_page_keeps_it() -> None:
    """`read_tree` reads both in one walk: the bag leaves the head out, the text takes only
    what is inside the root's body (not a stray text beside it, not a body nested deeper)."""
    root = etree.fromstring("<html><head><title>T</title></head>stray<body>in<p>para"
                            "<a href='/x' class='k'>link</a>tail</p></body>after</html>")
    bag, (own, linked) = read_tree(root)
    assert bag == Counter({"/html": 1,           # its own text ("stray") is a leaf
                           "/html/body": 1, "/html/body/p": 1,
                           '/html/body/p/a[@class="k"]': 1})
    assert (sorted(own), linked) == (["in", "para", "tail"], ["link"])
    nested = etree.fromstring("<root><div><body>deep</body></div></root>")
    assert read_tree(nested)[1] == ([], [])
    page = parse_html("http://s.test/", b"<html><body><p>x <a href='/y'>y</a></p></body></html>")
    assert page.read() is page.read()                     # read once, then kept
    assert page.bag() == leaf_xpaths(page.tree) and page.body_text() == body_text(page.tree)


def test_block_text_joins_emphasis_into_its_block_in_document_order() -> None:
    """A shingle of `archiver.learning.discovery` runs within a block: the words of a
    paragraph stay one run across its emphasis and code, a line break is formatting inside
    it; a link's text is a piece of its own (a listing's title beside its date), as are a
    nested block, a list item, a cell and a paragraph of plain text; hidden elements are
    left out but not their tails."""
    tree = _tree("<html><head><title>t</title></head><body>intro"
                 "<p>during <em>route file</em> we <a href='/x'>tools <b>x</b></a> that"
                 "<br>stove</p><ul><li>one <b>two</b></li><li>three</li></ul>after list"
                 "<div>cell<script>code()</script> text<table><tr><td>a</td><td>b "
                 "<span>c</span></td></tr></table>end</div><!-- note -->last"
                 "<pre>first para\nline two\n  \nsecond para</pre></body></html>")
    def words(root: etree._Element) -> list[str]:
        return [" ".join(piece.split()) for piece in block_text(root)]

    assert words(tree) == ["intro", "during route file we", "tools x", "that stove", "one two",
                           "three", "after list", "cell text", "a", "b c", "end", "last",
                           "first para line two", "second para"]
    assert block_text(_tree("<html><body></body></html>")) == []
    assert block_text(etree.fromstring("<html><head><title>t</title></head></html>")) == []
    assert words(_tree(DOC.decode())) == ["Title", "Some bold text and", "a link", ".", "one",
                                          "two"]


def test_content_share_needs_enough_text() -> None:
    tiny = _tree("<html><body><p>Moved <a href='/new'>here</a></p></body></html>")
    assert text_chars(tiny) == (5, 9)
    assert content_share(tiny) is None              # a redirect body says nothing
    assert content_share(tiny, min_chars=9) == pytest.approx(5 / 9)
    words = "x" * (MIN_TEXT_CHARS - 10)
    page = _tree(f"<html><body><p>{words}</p><a href='/n'>{'y' * 10}</a></body></html>")
    assert content_share(page) == pytest.approx((MIN_TEXT_CHARS - 10) / MIN_TEXT_CHARS)
    assert content_share(_tree(f"<html><body><a href='/n'>{'y' * 99}</a></body></html>")) == 0
