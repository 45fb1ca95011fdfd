"""DUST rules (`archiver.learning.dust`): a page's other URLs learned from the crawl's own
same-page fetches, contradicted by different pages, and used to name known views."""

from __future__ import annotations

from archiver.learning.dust import MIN_SUPPORT, Dust

T = "http://f.test/topic/"


def _dust() -> Dust:
    return Dust(lambda url: 2)


def _same_pages(dust: Dust, one: str, other: str, n: int = MIN_SUPPORT) -> None:
    """Fetch pages 0..n-1 under both URL templates (``{}`` is the page's number), one
    digest per page."""
    for i in range(n):
        dust.page(one.format(i), f"page {i}".encode())
        dust.page(other.format(i), f"page {i}".encode())


def test_an_id_and_slug_segment_is_learned_from_same_page_urls() -> None:
    """/topic/N?page=2 and /topic/N-slug?page=2 gave the same page MIN_SUPPORT times: then
    /topic/9?page=2 is a view of the fetched /topic/9-slug?page=2, not before."""
    dust = _dust()
    dust.page(T + "9-slug?page=2", b"topic 9 page 2")
    for i in range(MIN_SUPPORT):
        assert dust.view(T + "9?page=2") is None
        dust.page(T + f"{i}-slug?page=2", f"topic {i} page 2".encode())
        dust.page(T + f"{i}?page=2", f"topic {i} page 2".encode())
    assert dust.support == {("segment", "http://f.test/topic/N", 2): MIN_SUPPORT}
    assert dust.view(T + "9?page=2") == 2
    assert dust.view(T + "9-other-slug?page=2") == 2
    assert dust.view(T + "9?page=3") is None                  # another page
    assert dust.view(T + "8?page=2") is None                  # not fetched
    assert dust.view(T + "9-slug?page=2") is None             # fetched: no view


def test_a_default_query_argument_is_learned_and_its_value_matters() -> None:
    dust = _dust()
    _same_pages(dust, T + "{}-slug", T + "{}-slug?page=1")
    dust.page(T + "7-slug", b"topic 7")
    assert dust.view(T + "7-slug?page=1") == 2
    assert dust.view(T + "7-slug?page=2") is None


def test_a_slug_after_an_id_is_one_shape_so_a_rule_learned_on_some_threads_holds_for_all(
        ) -> None:
    """Spirit and Askbot write a thread as /topic/63/its-slug/: the slug is a segment of
    its own. Were it part of the shape, each thread would be a shape of its own and its
    ?page=1 view would need MIN_SUPPORT pairs of that thread alone."""
    dust = _dust()
    for i in range(MIN_SUPPORT):
        dust.page(T + f"{i}/slug-{i}/", f"topic {i}".encode())
        dust.page(T + f"{i}/slug-{i}/?page=1", f"topic {i}".encode())
    assert dust.support == {("query", "http://f.test/topic/N/S/", "page=1"): MIN_SUPPORT}
    dust.page(T + "63/recipe-weld/", b"topic 63")
    assert dust.view(T + "63/recipe-weld/?page=1") == 2
    assert dust.view(T + "63/recipe-weld/?page=2") is None


def test_pages_that_differ_contradict_a_rule() -> None:
    """A site where the number is not an id (/archive/2024-spring, /archive/2024-autumn are
    two pages): the rule that three same-page pairs suggested is contradicted by pairs that
    differ, and is not used once they are more than a tenth of its support."""
    dust = _dust()
    a = "http://f.test/archive/"
    for i in range(MIN_SUPPORT):
        dust.page(a + f"{i}-spring", f"{i}".encode())
        dust.page(a + f"{i}-spring-2", f"{i}".encode())       # one page, two spellings
    assert dust.view(a + "0-autumn") == 2
    dust.page(a + "0-autumn", b"autumn 0")                     # another page: contradiction
    assert dust.against[("segment", "http://f.test/archive/N", 2)] == 1
    assert dust.view(a + "1-autumn") is None


def test_urls_that_differ_in_two_ways_or_both_ways_give_no_rule() -> None:
    dust = _dust()
    for i in range(MIN_SUPPORT + 1):
        dust.page(f"http://f.test/search?q=a{i}", b"no results")
        dust.page(f"http://f.test/search?q=b{i}", b"no results")
        dust.page(T + f"{i}-x/{i}-y", f"{i}".encode())
        dust.page(T + f"{i}-z/{i}-w", f"{i}".encode())
    assert dust.support == {}


def test_the_rest_of_a_scripts_path_as_a_query_argument_is_learned() -> None:
    """/index.php/Castle and /index.php?title=Castle gave the same page MIN_SUPPORT times
    (the zoo's MonoBook-like wiki has no rel=canonical): then either spelling of a fetched
    article is a view of it, whichever came first, not before; another argument, another
    script or another title is not."""
    w = "http://w.test/index.php"
    dust = _dust()
    dust.page(w + "/Castle_(album)", b"castle")
    dust.page(w + "?title=Piano", b"piano")
    assert dust.view(w + "?title=Castle_(album)") is None
    _same_pages(dust, w + "?title=A{}", w + "/A{}", MIN_SUPPORT - 1)
    assert dust.view(w + "?title=Castle_(album)") is None           # not before
    _same_pages(dust, w + "?title=B{}", w + "/B{}", 1)
    assert dust.support == {("pathinfo", w, "title"): MIN_SUPPORT}
    assert dust.view(w + "?title=Castle_%28album%29") == 2
    assert dust.view(w + "?title=Castle_(album)") == 2
    assert dust.view(w + "/Piano") == 2
    assert dust.view(w + "/Piano?action=history") is None          # another page
    assert dust.view(w + "?title=Piano&action=history") is None
    assert dust.view(w + "/Organ") is None                         # not fetched
    assert dust.view("http://w.test/doku.php/Piano") is None       # another script
    assert dust.view(w + "?id=Piano") is None                      # another argument


def test_a_script_whose_path_rest_is_another_page_contradicts_the_rule() -> None:
    """/shop.php/3 and /shop.php?item=3 agreed three times, but /shop.php/4 is not
    /shop.php?item=4: the rule is contradicted and, once contradictions pass a tenth of its
    support, not used."""
    s = "http://w.test/shop.php"
    dust = _dust()
    _same_pages(dust, s + "/{}", s + "?item={}")
    dust.page(s + "?item=9", b"item 9")
    assert dust.view(s + "/9") == 2
    dust.page(s + "/4", b"a category page")
    dust.page(s + "?item=4", b"item 4")
    assert dust.against[("pathinfo", s, "item")] == 1
    assert dust.view(s + "/9") is None


def test_the_strategy_skips_another_url_of_a_fetched_page(tmp_path) -> None:
    """Through SourceStrategy: after three topics fetched under both spellings, a fetched
    topic's other spelling is skipped on a page and when popped; with ``dust: false`` it is
    judged as any link."""
    from archiver.page import Link, parse_html
    from archiver.strategies import REGISTRY, Visit
    from archiver.strategies.base import Queued
    from tests.test_source_strategy import _profile

    def strategy(**params: object):  # type: ignore[no-untyped-def]
        s = REGISTRY["source-ucc"].from_profile(
            _profile("source-ucc", tmp_path / str(params), ["http://f.test/"], params=params))
        s._fitted = True                          # the fit, without a model
        for url, text in [(T + f"{i}{slug}?page=2", f"topic {i}") for i in range(4)
                          for slug in ("", "-slug")][:-1]:
            visit = Visit(parse_html(url, f"<p>{text}</p>".encode()), 2, digest=text.encode())
            s.describe(visit)
            s.decide(visit, [])
        return s

    s, off = strategy(), strategy(dust=False)
    assert s.params()["dust"] is True and off.params()["dust"] is False
    home = Visit(parse_html("http://f.test/", b"<p>home</p>"), 0, digest=b"home")
    s.describe(home)
    (d,) = s.decide(home, [Link(T + "3-other?page=2", "/html/body/a")])
    assert not d.follow and d.reason == "dust:-1"
    queued = Queued(1, T + "3-third?page=2", 3, "/html/body/a", "http://f.test/")
    [(_, again)] = list(s.rescore([queued]))
    assert not again.follow and again.reason == "dust:-1"
    off.describe(home)
    (d_off,) = off.decide(home, [Link(T + "3-other?page=2", "/html/body/a")])
    assert not d_off.reason.startswith("dust")


def test_paths_that_differ_in_case_alone_are_one_page_on_a_site_that_ignores_case() -> None:
    """A real An Otter Wiki looks its pages up without regard to case, and its sidebar
    names each page in title case (/Map%20Weather) where other links write /Map%20weather:
    once MIN_SUPPORT pages came under both spellings, any spelling of a fetched page is a
    view of it; another query is another page, and so is another path."""
    w = "http://w.test/"
    dust = _dust()
    dust.page(w + "Rain%20grinder/Notes", b"rain notes")
    for i in range(MIN_SUPPORT):
        assert dust.view(w + "Rain%20Grinder/NOTES") is None
        dust.page(w + f"Map%20weather/page{i}", f"page {i}".encode())
        dust.page(w + f"Map%20Weather/Page{i}", f"page {i}".encode())
    assert dust.support == {("case", "http://w.test", ""): MIN_SUPPORT}
    assert dust.view(w + "Rain%20Grinder/NOTES") == 2
    assert dust.view(w + "Rain Grinder/notes") == 2            # as the link is written
    assert dust.view(w + "Rain%20grinder/Notes?history") is None
    assert dust.view(w + "Rain%20grinder/Other") is None
    assert dust.view("http://other.test/Rain%20Grinder/NOTES") is None
    # spellings that differ in their percent-encoding alone show no case
    other = _dust()
    _same_pages(other, w + "a%20{}", w + "a {}")
    assert other.support == {}


def test_a_site_whose_paths_keep_their_case_contradicts_the_case_rule() -> None:
    """Two pages that differ in the case of their path alone and hold different pages (a
    case-sensitive wiki's /Foo and /FOO) contradict the rule."""
    w = "http://w.test/"
    dust = _dust()
    for i in range(MIN_SUPPORT):
        dust.page(w + f"a{i}", f"page {i}".encode())
        dust.page(w + f"A{i}", f"page {i}".encode())
    assert dust.view(w + "B0") is None
    dust.page(w + "b0", b"the page b0")
    assert dust.view(w + "B0") == 2
    dust.page(w + "B1", b"one page")
    dust.page(w + "b1", b"another page")
    assert dust.against == {("case", "http://w.test", ""): 1}
    assert dust.view(w + "B0") is None
