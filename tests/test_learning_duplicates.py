"""Duplicate views per (cluster, Apath): the counts, the shrunk keep factor, the page test."""

from __future__ import annotations

import pytest

from archiver.learning.duplicates import DuplicateRates
from archiver.page import body_digest, parse_html
from archiver.strategies.base import Visit


def test_keep_shrinks_towards_the_site_rate() -> None:
    t = DuplicateRates()
    assert t.site_rate() == 0.0 and t.keep((0, "/a")) == 1.0     # nothing seen: no penalty
    for _ in range(8):
        t.observe((0, "/html/body/a"), False)
    for _ in range(2):
        t.observe((0, "/html/body/dd/a"), True)
    assert t.site_rate() == pytest.approx(0.2)
    assert t.keep((0, "/html/body/a")) == pytest.approx(1 - (0 + 2 * 0.2) / (8 + 2))
    assert t.keep((0, "/html/body/dd/a")) == pytest.approx(1 - (2 + 2 * 0.2) / (2 + 2))
    assert t.keep((5, "/unseen")) == pytest.approx(0.8)          # the site's average
    assert t.keep((0, "/html/body/dd/a")) < t.keep((5, "/unseen")) < t.keep((0, "/html/body/a"))


def test_rows_round_trip() -> None:
    t = DuplicateRates()
    t.observe((1, "/x"), True)
    t.observe((1, "/x"), False)
    t.observe((-1, "/y"), False)
    back = DuplicateRates.from_rows(t.rows())
    assert back.counts == t.counts and back.total == t.total == [3, 1]
    assert list(t.rows()) == [[-1, "/y", 1, 0], [1, "/x", 2, 1]]


def test_rel_canonical_is_parsed_from_the_head() -> None:
    page = parse_html("http://s.test/t?id=1&sort=a",
                      b'<html><head><link rel="canonical" href="/t?id=1"></head>'
                      b'<body><link rel="canonical" href="/body-one"></body></html>')
    assert page.canonical == "http://s.test/t?id=1"
    assert parse_html("http://s.test/", b"<p>no head link</p>").canonical == ""


def _strategy():  # type: ignore[no-untyped-def]
    from archiver.profile import profile_from_dict
    from archiver.strategies.source import SourceUCCStrategy

    return SourceUCCStrategy(profile_from_dict({"name": "t", "seeds": ["http://s.test/"],
                                                "strategy": {"name": "source-ucc"}}))


@pytest.mark.parametrize(("url", "canonical", "duplicate"), [
    ("http://s.test/t?id=1&sort=a", "http://s.test/t?id=1", True),     # another view
    ("http://s.test/t?id=1", "http://s.test/t?id=1", False),           # itself
    ("http://s.test/post/1", "https://www.s.test/post/1/", False),     # scheme, www, slash
    ("http://s.test/t?b=2&a=1", "http://s.test/t?a=1&b=2", False),     # canonicalized
])
def test_rel_canonical_verdict(url: str, canonical: str, duplicate: bool) -> None:
    body = f'<html><head><link rel="canonical" href="{canonical}"></head></html>'.encode()
    page = parse_html(url, body)
    assert _strategy()._is_duplicate(Visit(page, 1, digest=body_digest(body))) is duplicate


def test_repeated_body_is_a_duplicate_unless_it_names_itself_canonical() -> None:
    s = _strategy()
    body = b"<html><body><p>same</p></body></html>"
    assert not s._is_duplicate(Visit(parse_html("http://s.test/a", body), 1,
                                     digest=body_digest(body)))
    assert s._is_duplicate(Visit(parse_html("http://s.test/a?replytocom=5", body), 1,
                                 digest=body_digest(body)))
    own = b'<html><head><link rel="canonical" href="http://s.test/c"></head></html>'
    s._is_duplicate(Visit(parse_html("http://s.test/c?sort=x", own), 1, digest=body_digest(own)))
    # the canonical page itself came second with the same bytes: still the page, not a view
    assert not s._is_duplicate(Visit(parse_html("http://s.test/c", own), 1,
                                     digest=body_digest(own)))


def test_redirect_to_a_fetched_page_counts_against_its_link() -> None:
    s = _strategy()
    s._fitted = True
    s._cluster_of["http://s.test/topic"] = 3
    s._via["http://s.test/reply?t=1"] = ("http://s.test/topic", "/html/body/div/a")
    s._via["http://s.test/short/1"] = ("http://s.test/topic", "/html/body/p/a")
    s.observe_fetch("http://s.test/login", 200, True)
    s.observe_fetch("http://s.test/reply?t=1", 302, False, location="http://s.test/login")
    assert s.dups.counts == {(3, "/html/body/div/a"): [1, 1]}
    # a redirect to a new page hands that page its link's pair
    s.observe_fetch("http://s.test/short/1", 301, False, location="http://s.test/topic/1")
    assert s._via["http://s.test/topic/1"] == ("http://s.test/topic", "/html/body/p/a")


def test_second_redirect_to_an_unfetched_target_is_a_duplicate() -> None:
    """/photos/x/1/fave → /signin/ (robots.txt keeps /signin/ out): the first redirect may be
    news, every later one to the same place is not."""
    s = _strategy()
    s._fitted = True
    s._cluster_of["http://s.test/photo/1"] = 2
    for n in (1, 2, 3):
        s._via[f"http://s.test/photo/{n}/fave"] = ("http://s.test/photo/1", "/html/body/a")
        s.observe_fetch(f"http://s.test/photo/{n}/fave", 302, False,
                        location="http://s.test/signin/")
    assert s.dups.counts == {(2, "/html/body/a"): [2, 2]}
