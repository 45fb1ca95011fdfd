"""Feeds in SOUrCe: a syndicated copy of pages is a dead destination while sampling and a
duplicate view of its link's pair while harvesting (archiver.strategies.source)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from archiver.crawl import Crawl
from archiver.profile import profile_from_dict
from archiver.strategies.source import SourceUCCStrategy, is_machine_readable
from archiver.zoo import make_site, serve


def _strategy() -> SourceUCCStrategy:
    return SourceUCCStrategy(profile_from_dict({"name": "t", "seeds": ["http://s.test/"],
                                                "strategy": {"name": "source-ucc"}}))


@pytest.mark.parametrize(("media", "feed"), [
    ("application/rss+xml", True), ("application/atom+xml", True), ("text/xml", True),
    ("application/xml", True), ("application/feed+json", True),
    ("text/html", False), ("application/xhtml+xml", True), ("image/jpeg", False),
    ("application/pdf", False), ("", False), ("application/json", True),
    ("application/ld+json", True), ("text/javascript", True), ("text/css", True),
    ("text/plain", False), ("video/mp4", False)])
def test_is_machine_readable(media: str, feed: bool) -> None:
    """XHTML is caught too, but it never gets here: a parsed page has is_page = True."""
    assert is_machine_readable(media) is feed


def test_a_sampled_feed_is_a_dead_destination_and_a_pdf_is_not() -> None:
    s = _strategy()
    s.observe_fetch("http://s.test/feed/", 200, False, content_type="application/rss+xml")
    s.observe_fetch("http://s.test/paper.pdf", 200, False, content_type="application/pdf")
    assert "http://s.test/feed/" in s.sampler.dead_
    assert "http://s.test/paper.pdf" not in s.sampler.dead_


def test_sampled_refusals_close_their_kind_but_feeds_a_pdf_and_a_503_do_not() -> None:
    """A real MoinMoin refuses its action views to crawlers (403: 334 of 476 sampled
    requests): four of a kind close it (`SiteSampler`, "Refused kinds"). A feed stays open
    (its link shares an Apath with the page it syndicates: the zoo forum v1's recall fell
    0.824 -> 0.773 when feeds settled them); a document is content, and a 5xx or a 429 may
    pass."""
    s = _strategy()
    for n in range(4):
        s.observe_fetch(f"http://s.test/feeds/t{n}.rss", 200, False,
                        content_type="application/rss+xml")
        s.observe_fetch(f"http://s.test/w/p{n}?action=info", 403, False)
        s.observe_fetch(f"http://s.test/papers/p{n}.pdf", 200, False,
                        content_type="application/pdf")
        s.observe_fetch(f"http://s.test/busy/b{n}", 503, False)
        s.observe_fetch(f"http://s.test/slow/s{n}", 429, False)
    assert "/w/*?action" in s.sampler.closed_kinds_
    assert not any(k.startswith(("/feeds", "/papers", "/busy", "/slow"))
                   for k in s.sampler.closed_kinds_)
    assert "http://s.test/feeds/t0.rss" in s.sampler.dead_      # still a dead destination


def test_a_harvested_feed_counts_against_its_links_pair() -> None:
    s = _strategy()
    s._fitted = True
    s._cluster_of["http://s.test/post/1"] = 2
    key = (2, "/html/body/div/a")
    for n in range(8):           # new pages elsewhere: the site is not all duplicates
        s._via[f"http://s.test/post/{n}"] = ("http://s.test/post/1", "/html/body/ul/li/a")
        s._duplicate_seen(f"http://s.test/post/{n}", False)
    before = s.dups.keep(key)
    for n in range(3):
        s._via[f"http://s.test/post/{n}/feed/"] = ("http://s.test/post/1", key[1])
        s.observe_fetch(f"http://s.test/post/{n}/feed/", 200, False,
                        content_type="application/atom+xml")
    s.observe_fetch("http://s.test/paper.pdf", 200, False, content_type="application/pdf")
    assert s.dups.keep(key) < before
    rows = list(s.dups.rows())
    assert rows and all(row[0] == 2 for row in rows)          # the PDF had no pair


@pytest.mark.slow
def test_the_crawl_loop_tells_the_strategy_a_feed_is_a_feed(tmp_path: Path) -> None:
    """The wiring: the loop passes each response's media type, so the zoo blog's RSS feeds
    fetched while sampling end up dead in the sampler."""
    site = make_site("blog", 0, "small", 0)
    with serve(site) as served:
        crawl = Crawl(profile_from_dict({
            "name": "t-feeds", "seeds": [served.url + p for p in site.seeds()],
            "politeness": {"delay": 0, "retries": 0}, "limits": {"max_requests": 120},
            "output": {"dir": str(tmp_path / "job")},
            "strategy": {"name": "source-ucc", "sample_size": 100}}))
        crawl.run()
    assert isinstance(crawl.strategy, SourceUCCStrategy)
    feeds = {u for u in crawl.strategy._fetched if urlsplit(u).path.endswith("/feed/")}
    assert feeds and feeds <= crawl.strategy.sampler.dead_
