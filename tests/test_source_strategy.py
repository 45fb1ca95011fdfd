"""SOUrCe strategies: registry conformance, learning → harvest through the real crawl loop,
model reuse across runs, and quality floors against BFS on small zoo sites (STYLE.md §12)."""

from __future__ import annotations

import dataclasses
import json
import math
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import numpy as np
import pytest
from warcio.archiveiterator import ArchiveIterator

import archiver.strategies.source as source
from archiver.crawl import Crawl
from archiver.errors import JobError
from archiver.evaluation import metrics as m
from archiver.evaluation import read_captures, zoo_truth
from archiver.page import Link, parse_html
from archiver.profile import SiteProfile, profile_from_dict
from archiver.strategies import REGISTRY, Decision, Visit
from archiver.zoo import ServedSite, Site, make_site, serve

FLOORS = Path(__file__).with_name("quality_floors.json")
EPSILON = 0.02
BUDGET = 0.25          # SOUrCe §5.3: a quarter of the mirror
FIXTURE = b"""<!doctype html><html><head><title>Board</title></head><body>
<div id="nav"><a href="/login">Log in</a><a href="/faq">FAQ</a></div>
<ul class="topics"><li><a class="title" href="/t/1">One</a></li>
<li><a class="title" href="/t/2">Two</a></li><li><a class="title" href="/t/3">Three</a></li></ul>
<div class="pages"><a href="/board?page=2">2</a></div><p>Some text</p></body></html>"""


def _profile(name: str, out: Path, seeds: list[str], max_requests: int = 100,
             **strategy: Any) -> SiteProfile:
    if name == "source-target":
        strategy.setdefault("target_example", seeds[0].rstrip("/") + "/t/1")
    return profile_from_dict({
        "name": "t-" + name, "seeds": seeds, "politeness": {"delay": 0, "retries": 0},
        "limits": {"max_requests": max_requests}, "output": {"dir": str(out)},
        "strategy": {"name": name, **strategy}}, source=f"<test {name}>")


# --- content share: orders the frontier, not the verdict -------------------------------------
def _listing_strategy(tmp_path: Path, **params: Any) -> Any:
    """source-ucc on the hand-made Flickr-like model of tests/test_learning_navigation.py:
    home C0, thumbnail lists C1 (hub, larger DSim, little text outside links), photos C2."""
    from tests.test_learning_navigation import (
        LISTING_CONTENT,
        LISTING_DSIM,
        listing_site_table,
    )

    # its pages are named, not addressed ("l1", "d1"): no URL form tells a page type
    return _hand_strategy(tmp_path, "source-ucc", listing_site_table(),
                          ["h", "l1", "l2", "l3", *(f"d{i}" for i in range(1, 9))],
                          [0, 1, 1, 1, *[2] * 8], {"mode": "ucc"},
                          {"page_family": False, **params},
                          dsim=LISTING_DSIM, content=LISTING_CONTENT)


def _hand_strategy(tmp_path: Path, name: str, table: Any, urls: list[str], labels: list[int],
                   info: dict[str, Any], params: dict[str, Any], *,
                   dsim: np.ndarray, content: np.ndarray) -> Any:
    """Strategy `name` using a model built by hand around the navigation table `table`."""
    import scipy.sparse as sp

    from archiver.learning.model import SourceModel

    model = SourceModel()
    model.navigation_ = table
    model.n_clusters_ = table.n_clusters_
    model.dsim_, model.content_ = dsim, content
    model.urls_ = urls
    model.labels_ = np.array(labels)
    model.info = info
    # what the sitemap rows read (no page is ever classified here)
    model.vectorizer_ = SimpleNamespace(feature_names_=["/html/body/p"])
    model.classifier_ = SimpleNamespace(X_=sp.csr_matrix(np.ones((len(model.urls_), 1))))
    # a hand model's X is a placeholder, so DSim per page type (``type_scores``, on by
    # default) could not be computed from it; its own tests build models that have one
    strategy = REGISTRY[name].from_profile(
        _profile(name, tmp_path, ["http://m.test/"], params={"type_scores": False, **params}))
    strategy._use(model)
    return strategy


def test_content_share_puts_listings_behind_content_but_keeps_them_followed(
        tmp_path: Path) -> None:
    from tests.test_learning_navigation import X_LISTS, X_PHOTO

    # hub_share 0: the home page is not valued as a listing here (see the hub_share test)
    on = _listing_strategy(tmp_path / "on", hub_share=0)
    assert on.use_content and on.params()["content"] is True
    to_list, to_photo = (on._judge(u, 0, x) for u, x in (("l9", X_LISTS), ("d9", X_PHOTO)))
    assert to_list.follow and to_photo.follow                  # both worth following ...
    assert to_photo.priority > to_list.priority > 0            # ... photos first
    assert to_list.reason.startswith("source:") and to_list.cluster == 1
    off = _listing_strategy(tmp_path / "off", content=False, hub_share=0)
    to_list_off, to_photo_off = (off._judge(u, 0, x)
                                 for u, x in (("l9", X_LISTS), ("d9", X_PHOTO)))
    assert to_list_off.priority > to_photo_off.priority        # eq. 11 alone: lists first
    assert [d.follow for d in (to_list_off, to_photo_off)] == [True, True]
    assert on._static.tolist() == off._static.tolist()         # the verdict is unchanged
    rows = {r.id: r.info for r in on.clusters() if r.id >= 0}
    assert rows[1]["content"] == pytest.approx(0.14)
    assert rows[1]["content_factor"] == pytest.approx(0.14 / 0.5)    # min(1, s / CONTENT_FULL)
    assert rows[2]["content_factor"] == 1.0
    assert {r.info["content_factor"] for r in off.clusters() if r.id >= 0} == {1.0}



def test_with_hub_share_a_listing_of_the_content_is_worth_what_it_lists(
        tmp_path: Path) -> None:
    """The home page (C0) is worth 0.03 of the best cluster by eq. 11 (its pages are alike:
    small DSim), under `low_value`; half of its sampled links lead to photos (C2, the
    cluster the frontier ranks first, worth 0.83). With ``hub_share`` at most 0.5 (1/3 by
    default) the verdict values it at 0.5 · 0.83, and exhaustion, not the verdict, stops
    its links (a real FlaskBB's forum pagination: 0.013 of the topics' value, 0.38 of its
    links to topics). In the frontier's order it is worth L/(L+1) of the photos' Score, L
    = 1 link to a photo per sampled home page: fetching it and what it lists costs L + 1
    requests for L photos. The verdict's second opinion (``verdict_reset``) is off here:
    randomized HITS values the home page above the line by itself."""
    from archiver.strategies.source import LOW_VALUE
    from tests.test_learning_navigation import X_LISTS

    def kleinberg(path: Path, **params: Any) -> Any:
        return _listing_strategy(path, verdict_reset=0, **params)

    values, scores = {}, {}
    for share in (0.0, 1 / 3, 0.5, 0.6):
        s = kleinberg(tmp_path / str(share), hub_share=share)
        assert s._protected == 2
        values[share] = s._static.tolist()
        scores[share] = s.scorer.cluster_scores().tolist()
        # links from the home page lead to lists: their own order is unchanged
        assert s._judge("l9", 0, X_LISTS).priority == pytest.approx(
            kleinberg(tmp_path / f"{share}-0", hub_share=0)
            ._judge("l9", 0, X_LISTS).priority)
    default = kleinberg(tmp_path / "default")
    assert default.hub_share == pytest.approx(1 / 3) and default.params()["hub_share"] == 1 / 3
    assert default._static.tolist() == values[1 / 3]
    assert default.scorer.cluster_scores().tolist() == scores[1 / 3]
    assert scores[0.0][0] < 0.1 * scores[0.0][2]
    assert scores[1 / 3][0] == scores[0.5][0] == pytest.approx(0.5 * scores[0.0][2])
    assert scores[0.6] == scores[0.0] and scores[1 / 3][1:] == scores[0.0][1:]
    assert values[0.0][0] < LOW_VALUE and values[0.0][0] == pytest.approx(0.03, abs=0.01)
    assert values[1 / 3][0] == values[0.5][0] == pytest.approx(0.5 * values[0.0][2])
    assert values[0.6] == values[0.0]
    assert np.allclose(values[1 / 3][1:], values[0.0][1:])   # C1 leads to C2, worth more
    off = kleinberg(tmp_path / "no-exhaustion", exhaustion=0, hub_share=0.5)
    assert off._static.tolist() == values[0.0]           # nothing else would stop its links
    assert off.scorer.cluster_scores().tolist() == scores[0.0]
    assert _listing_strategy(tmp_path / "walk", hub_share=0)._static[0] >= LOW_VALUE


def _novel(strategy: Any, cluster: int, url: str, body: str) -> bool:
    """Whether a harvested page of `cluster` with this body counted as new
    (`SourceStrategy._novel`)."""
    strategy.model.classify = lambda bag: cluster
    visit = Visit(page=parse_html(url, f"<html><body>{body}</body></html>".encode()),
                  depth=1, digest=url.encode())
    strategy.describe(visit)
    return bool(strategy._novel[url])


def test_a_short_listing_of_the_content_is_new_by_its_links_not_its_text(
        tmp_path: Path) -> None:
    """A page of a cluster valued as a listing (the home page, C0) too short to judge by its
    text brings what it lists: exhaustion and `Worth` judge it by the new pages it found. On
    the zoo's Flickr-like site a member's contacts page (names in links, no shingle)
    counted as new, and source-ucc fetched all 302 of them. A listing long enough to judge
    (excerpts of questions not yet fetched), and a short photo page (C2), keep their text;
    ``listings_by_links: false`` restores it everywhere."""
    from tests.test_learning_discovery import _text

    names = "".join(f'<li><a href="/u/{i}">{_text(i, 2)}</a></li>' for i in range(8))

    on = _listing_strategy(tmp_path / "on")
    assert on.scorer.is_listing(0) and not on.scorer.is_listing(2)
    assert not on.scorer.is_listing(-1)
    assert not _novel(on, 0, "http://m.test/h2", f"<h1>Following</h1><ul>{names}</ul>")
    assert _novel(on, 0, "http://m.test/h3", f"<p>{_text(3)}</p>")          # judged: new
    assert _novel(on, 2, "http://m.test/d20", f"<ul>{names}</ul>")
    off = _listing_strategy(tmp_path / "off", listings_by_links=False)
    assert off.params()["listings_by_links"] is False
    assert _novel(off, 0, "http://m.test/h2", f"<h1>Following</h1><ul>{names}</ul>")


def test_a_page_with_no_text_outside_the_content_is_new_by_its_links(tmp_path: Path) -> None:
    """A page with no text at all (no shingle, no new word) that is not of the content
    cluster is new only through the new pages it found: on the zoo's 500px-like site a
    member's galleries, thumbnails with no caption, counted as new and source-ucc fetched
    520 of them in a row once every photo they showed was known. A caption-less photo of
    the content cluster (C2) is still new, as is a page with one new word. On by default
    since exhaustion judges a split pair per URL pattern (``split_kinds``): before, on two
    other zoo seeds, album pages judged so ended the kind of link to members that shared
    their Apath, and the crawl stopped without 5% of the members; ``empty_by_links:
    false`` restores the no-shingle clause."""
    thumbs = "".join(f'<a href="/p/{i}"><img src="/i/{i}.jpg"></a>' for i in range(8))

    on = _listing_strategy(tmp_path / "on")
    assert on._protected == 2 and not on.scorer.is_listing(1)
    assert on.params()["empty_by_links"] is True
    assert not _novel(on, 1, "http://m.test/g1", thumbs)
    assert not _novel(on, -1, "http://m.test/g2", thumbs)
    assert _novel(on, 2, "http://m.test/d1", thumbs)
    assert _novel(on, 1, "http://m.test/g3", f"<h1>Zyzzyvas</h1>{thumbs}")
    off = _listing_strategy(tmp_path / "off", empty_by_links=False)
    assert off.params()["empty_by_links"] is False
    assert _novel(off, 1, "http://m.test/g1", thumbs)


def test_hub_share_is_off_crawling_for_a_target(tmp_path: Path) -> None:
    """Crawling for a target, Score(C) = Info(C) keeps HITS's hub part, and 1/3 took the
    zoo forum's detail harvest rate 0.980 -> 0.767: off by default there, and the order's
    floor is never used (the verdict's share is, when asked for)."""
    profile = _profile("source-target", tmp_path, ["http://m.test/"])
    assert REGISTRY["source-target"].from_profile(profile).hub_share == 0.0
    from archiver.learning.navigation import LinkScorer
    from tests.test_learning_navigation import LISTING_DSIM, listing_site_table

    scorer = LinkScorer(listing_site_table(), LISTING_DSIM, mode="target", target=2)
    before = scorer.cluster_scores().tolist()
    scorer.set_listings(np.array([0.5, 0.0, 0.0]), 2)
    assert scorer.cluster_scores().tolist() == before


def _forum_target_strategy(tmp_path: Path, **params: Any) -> Any:
    """source-target on the hand-made FlaskBB-like model of tests/test_learning_navigation.py:
    topics C0 (the target), a forum's topic list C1 met 3 times, users' post lists C2."""
    from tests.test_learning_navigation import forum_site_table

    return _hand_strategy(tmp_path, "source-target", forum_site_table(),
                          [*(f"t{i}" for i in range(40)), "f0", "f1", "f2",
                           *(f"u{i}" for i in range(30))],
                          [0] * 40 + [1] * 3 + [2] * 30, {"mode": "target", "target": 0},
                          # named, not addressed: no URL form tells a page type
                          {"target_family": False, **params}, dsim=np.ones(3),
                          content=np.ones(3))


def test_crawling_for_a_target_a_rarely_sampled_list_is_judged_per_page(
        tmp_path: Path) -> None:
    """A real FlaskBB's forum list, a cluster of 4 sampled pages after a near tie in the
    choice of eps, had a hub of 0.05 by eq. 6 and its pagination was skipped as low-value
    (source-target recall 0.524). Scored per sampled page, its next page is followed and
    ranked above the users' lists, which hold fewer topics a page."""
    from tests.test_learning_navigation import X_PAGES, X_POSTS

    default = _forum_target_strategy(tmp_path / "default")
    assert default.hub_per_page is None and default.params()["hub_per_page"] is None
    assert default.scorer.hub_.argmax() == 1                  # the forum list, per page
    next_list, user_list = (default._judge(u, c, x)
                            for u, c, x in (("f9", 1, X_PAGES), ("u9", 2, X_POSTS)))
    assert next_list.follow and next_list.cluster == 1 and user_list.follow
    scores = default.scorer.cluster_scores()
    assert scores[1] > scores[2]                    # a forum list before a user's list
    counted = _forum_target_strategy(tmp_path / "counted", hub_per_page=False)
    skipped = counted._judge("f9", 1, X_PAGES)
    assert not skipped.follow and skipped.reason == "low-value:1"
    assert counted._judge("u9", 2, X_POSTS).follow
    assert counted.scorer.cluster_scores()[1] < counted.scorer.cluster_scores()[2]
    assert counted.scorer.hub_.argmax() == 2                  # the users' lists, by count
    # crawling for UCC the hub stays eq. 6's unless asked for, also when source-target
    # crawls for UCC because its example fell in no cluster
    from archiver.learning import navigation
    from tests.test_learning_navigation import forum_site_table

    fallback = _hand_strategy(tmp_path / "fallback", "source-target", forum_site_table(),
                              default.model.urls_, default.model.labels_.tolist(),
                              {"mode": "target", "target": None}, {},
                              dsim=np.ones(3), content=np.ones(3))
    assert fallback.scorer.mode == "ucc"
    table = forum_site_table()
    A = table.adjacency_ - np.diag(np.diag(table.adjacency_))
    assert np.allclose(fallback.scorer.hub_, navigation.hits(A)[0])
    asked = _hand_strategy(tmp_path / "asked", "source-target", forum_site_table(),
                           default.model.urls_, default.model.labels_.tolist(),
                           {"mode": "target", "target": None}, {"hub_per_page": True},
                           dsim=np.ones(3), content=np.ones(3))
    assert not np.allclose(asked.scorer.hub_, fallback.scorer.hub_)


def test_a_link_that_redirects_is_ranked_by_its_value_per_request(tmp_path: Path) -> None:
    """A real FlaskBB's post permalink answers with a redirect to its topic's page: two
    requests for one page, ranked with the topics' own links (235 of 1,088 requests). Each
    pair counts its links' requests and redirects; the score is divided by the requests per
    page. The verdict is unchanged; the sample's counts are saved with the model."""
    from archiver.learning.features import canonical_apath
    from tests.test_learning_navigation import X_LISTS, X_PHOTO

    def follow(strategy: Any, n: int, redirect: bool) -> None:
        for i in range(n):
            link = f"http://m.test/p{i}"
            strategy._via[link] = ("h", X_PHOTO)
            strategy.observe_fetch(link, 302 if redirect else 200, not redirect,
                                   location=f"http://m.test/t{i}" if redirect else "")
            if redirect:
                strategy.observe_fetch(f"http://m.test/t{i}", 200, True)

    plain = _listing_strategy(tmp_path / "plain")
    before = plain._judge("d9", 0, X_PHOTO)
    on = _listing_strategy(tmp_path / "on")
    follow(on, 3, redirect=True)
    assert on.hops.pairs == {(0, canonical_apath(X_PHOTO)): [6, 3, 0]}    # no file
    after = on._judge("d9", 0, X_PHOTO)
    assert (after.follow, after.reason) == (before.follow, before.reason)
    assert after.priority == pytest.approx(before.priority / 2)
    follow(on, 3, redirect=False)          # 9 requests for 6 pages
    assert on._judge("d9", 0, X_PHOTO).priority == pytest.approx(before.priority / 1.5)
    assert on._judge("l9", 0, X_LISTS).priority == plain._judge("l9", 0, X_LISTS).priority
    off = _listing_strategy(tmp_path / "off", redirect_cost=False)
    follow(off, 3, redirect=True)
    assert off._judge("d9", 0, X_PHOTO).priority == pytest.approx(before.priority)
    # a loaded model brings the sample's counts, files too; one saved before they were
    # counted has none
    model = on.model
    for row in ([0, canonical_apath(X_PHOTO), 4, 2], [0, canonical_apath(X_PHOTO), 4, 2, 0]):
        model.info["redirects"] = [row]
        loaded = _listing_strategy(tmp_path / f"loaded{len(row)}")
        loaded._use(model)
        assert loaded.hops.pairs == {(0, canonical_apath(X_PHOTO)): [4, 2, 0]}
        assert loaded._judge("d9", 0, X_PHOTO).priority == pytest.approx(before.priority / 2)

# --- harvest evidence: fetched destinations correct the navigation table -------------------
def test_harvest_evidence_turns_a_pair_whose_pages_are_outliers_low_value(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The home page's photo link (C0, X_PHOTO) was sampled once, to a photo (C2). Pages
    fetched through that pair that fit no cluster, or fail, are evidence against it: the
    verdict is taken on the Dirichlet posterior, the sampled link weighing as
    EVIDENCE_PRIOR = 4, and flips exactly when its value falls under `low_value`. Pages of
    a learned cluster only confirm the sample's known part (which cluster is the sample's
    call: the zoo wiki's talk pages, valued 0.005 by HITS, were lost when the observed
    clusters counted). With ``evidence: false`` nothing changes."""
    import archiver.strategies.source as source
    from tests.test_learning_navigation import X_PHOTO

    monkeypatch.setattr(source, "TRUSTED_SAMPLE", 1)   # outliers worth 0, as on a real sample

    def observe(strategy: Any, n: int, cluster: int, start: int = 100) -> None:
        for i in range(start, start + n):
            strategy._via[f"d{i}"] = ("h", X_PHOTO)
            strategy._observe_destination(f"d{i}", cluster)

    on = _listing_strategy(tmp_path / "on")
    before = on._judge("d9", 0, X_PHOTO)
    assert before.follow and before.cluster == 2 and on._static[-1] == 0.0
    on._via["d99"] = ("h", X_PHOTO)
    on.observe_fetch("d99", 404, False)                     # dead: the outlier column
    (row,) = on.evidence.by_pattern.values()
    assert row.tolist() == [0, 0, 0, 1]
    # smallest k with 4·s2 / (4 + k) < low_value, the dead fetch included
    needed = math.floor(source.EVIDENCE_PRIOR * on._static[2] / on.low_value
                        - source.EVIDENCE_PRIOR) + 1
    observe(on, needed - 2, -1)
    still = on._judge("d9", 0, X_PHOTO)
    assert still.follow and "+seen" in still.reason and still.priority < before.priority
    observe(on, 1, -1, start=500)
    after = on._judge("d9", 0, X_PHOTO)
    assert not after.follow and after.reason == "low-value:-1"
    known = _listing_strategy(tmp_path / "known")
    observe(known, 200, 0)                                  # home-like pages, worth 0.03
    confirmed = known._judge("d9", 0, X_PHOTO)
    assert confirmed.reason == "source:exact+seen:2"
    assert (confirmed.follow, confirmed.priority) == (True, pytest.approx(before.priority))
    off = _listing_strategy(tmp_path / "off", evidence=False)
    observe(off, needed + 10, -1)
    assert off._judge("d9", 0, X_PHOTO) == before and not off.evidence.by_pattern


def test_links_of_url_patterns_never_sampled_share_their_pairs_evidence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Real MediaWiki: past its articles, source-ucc followed the API documentation's example
    links, each of a URL pattern of its own (/api.php?action=..&list=..), so evidence kept
    per pattern never added up. A link of a pattern the sample never saw at its pair is
    judged by the evidence of all links at the pair; a sampled pattern keeps its own."""
    import archiver.strategies.source as source
    from archiver.learning.features import canonical_apath
    from tests.test_learning_navigation import X_PHOTO

    monkeypatch.setattr(source, "TRUSTED_SAMPLE", 1)
    strategy = _listing_strategy(tmp_path)
    link = "http://m.test/api.php?z=1"
    assert strategy._judge(link, 0, X_PHOTO).follow
    urls = [f"http://m.test/api.php?p{i}=v" for i in range(100)]
    assert len({strategy._pattern(u) for u in [*urls, link]}) == 101
    for url in urls:
        strategy._via[url] = ("h", X_PHOTO)
        strategy._observe_destination(url, -1)
    after = strategy._judge(link, 0, X_PHOTO)
    assert not after.follow and after.reason == "low-value:-1"
    sampled = (0, canonical_apath(X_PHOTO), strategy._pattern(link))
    strategy.scorer.table._sampled_by_pattern[sampled] = 1
    strategy.evidence._posterior.clear()
    assert strategy._judge(link, 0, X_PHOTO).follow         # no evidence of its own yet


def test_a_noindex_page_is_evidence_against_the_link_that_found_it(tmp_path: Path) -> None:
    """A page the site asks robots not to index counts as an outlier destination for the
    harvest evidence (real MediaWiki: the API help pages share the articles' skin and
    cluster), while it keeps its cluster for Balance and the sitemap."""
    from archiver.learning.features import canonical_apath
    from tests.test_learning_navigation import X_PHOTO

    strategy = _listing_strategy(tmp_path)
    strategy.model.classify = lambda bag: 2                 # every page looks like a photo

    def visit(url: str, robots: str) -> None:
        html = f'<html><head><meta name="robots" content="{robots}"></head><body><p>{url}</p>'
        strategy._via[url] = ("h", X_PHOTO)
        strategy.describe(Visit(page=parse_html(url, html.encode()), depth=1,
                                digest=url.encode()))

    for i in range(3):
        visit(f"http://m.test/ok{i}", "all")
    visit("http://m.test/ni", "noindex, nofollow")
    assert strategy.evidence.by_pair[(0, canonical_apath(X_PHOTO))].tolist() == [0, 0, 3, 1]
    assert strategy._cluster_of["http://m.test/ni"] == 2
    assert strategy.scorer.crawled_.tolist() == [0, 0, 4, 0]


def test_links_equal_by_eq12_pop_in_an_order_unrelated_to_the_site(tmp_path: Path) -> None:
    """Exhaustion judges a kind of link by a run of misses, which assumes the links tried are
    a fair draw of the kind. A WordPress archive widget lists the months newest first, and
    in discovery order the first twenty tried were the months the home page's pagination
    had already listed whole (real WordPress at 2,000 posts: recall 0.994). Links equal by
    eq. 12 get priorities spread by a hash of their URL: the same for the same URL on every
    page, too little to reorder links that eq. 12 tells apart; 0 stays 0. Off by default
    (`SourceStrategy._spread`: it costs requests where discovery order did no harm)."""
    on = _listing_strategy(tmp_path / "on", spread_ties=True)
    months = [f"http://w.test/2026/{m:02d}/" for m in range(12, 0, -1)]
    decided = on._judge_page(0, [Link(u, '/html/body/aside/ul/li/a') for u in months])
    assert len({d.reason for d in decided}) == 1 and all(d.follow for d in decided)
    order = [d.url for d in sorted(decided, key=lambda d: -d.priority)]
    assert sorted(order) == sorted(months) and order != months and order != months[::-1]
    again = on._judge_page(1, [Link(months[0], '/html/body/aside/ul/li/a')])[0]
    base = on._judge(months[0], 1, '/html/body/aside/ul/li/a').priority
    assert again.priority == on._spread(months[0], base) > base
    assert on._spread(months[0], base) < base * (1 + source.ORDER_SPREAD)
    assert on._spread(months[0], 0.0) == 0.0
    off = _listing_strategy(tmp_path / "off")               # the default
    assert off.params()["spread_ties"] is False
    assert [d.priority for d in off._judge_page(0, [Link(u, '/html/body/aside/ul/li/a')
                                                    for u in months])] == \
        [off._judge(u, 0, '/html/body/aside/ul/li/a').priority for u in months]


def test_one_page_links_alike_share_a_verdict_and_it_is_the_same(tmp_path: Path) -> None:
    """`decide` judges the links of one page through a memo keyed by what the verdict reads
    (Apath, URL pattern, URL kind, target shape): fewer computations than links, and each
    decision must equal the link's own."""
    from archiver.learning.features import canonical_apath
    from tests.test_learning_navigation import X_LISTS, X_PHOTO

    strategy = _listing_strategy(tmp_path)
    table = strategy.scorer.table   # the sample saw links of the pattern of /a/b?x=1 there
    table._sampled_by_pattern[(0, canonical_apath(X_PHOTO), strategy._pattern("/a/b?x=1"))] = 3
    for i, name in enumerate("pqrstu"):   # evidence against one URL pattern of the pair
        strategy._via[f"/a/{name}?x={i}"] = ("h", X_PHOTO)
        strategy._observe_destination(f"/a/{name}?x={i}", -1)
        strategy._via[f"/e/{name}"] = ("h", X_PHOTO)   # and for the pair's other patterns
        strategy._observe_destination(f"/e/{name}", 2)
    photo = (0, canonical_apath(X_PHOTO))
    for i in range(8):   # noindex pages behind one URL kind (/c/*?x) of the pair, not /a/*?x
        strategy.dups.observe(photo, False, True, f"/c/k{i}?x={i}")
        strategy.dups.observe((1, "/other"), False, False, f"/o/{i}")
    links = [(f"d{i}", X_PHOTO) for i in range(9, 14)] + [("l9", X_LISTS), ("l10", X_LISTS),
                                                           ("/a/b?x=1", X_PHOTO),
                                                           ("/a/c?x=2", X_PHOTO),
                                                           ("/a/b?x=zz", X_PHOTO),   # pattern
                                                           ("/c/b?x=1", X_PHOTO)]    # kind
    # each link's own verdict, its priority spread by its URL (`_spread`)
    own = []
    for url, x in links:
        verdict = strategy._judge(url, 0, x)
        own.append(dataclasses.replace(verdict, priority=strategy._spread(url, verdict.priority)))
    judged: list[str] = []
    judge = strategy._judge

    def counted(url: str, *args: Any) -> Any:
        judged.append(url)
        return judge(url, *args)

    strategy._judge = counted
    shared = strategy._judge_page(0, [Link(u, x) for u, x in links])
    assert shared == own
    assert 0 < len(judged) < len(links)
    # the memo must tell apart what the verdict reads: URL pattern and URL kind
    b1, c2, bzz, cb1 = (d.priority for d in shared[-4:])
    assert b1 == pytest.approx(c2, rel=source.ORDER_SPREAD) and bzz > b1 and cb1 < b1


# --- URL patterns: order the frontier, not the verdict --------------------------------------
def _tab_strategy(path: Path, **params: Any) -> Any:
    """source-ucc on tests/test_learning_navigation.py's `tab_table`: profiles (C0) whose
    tab menu, one Apath, links contact lists (C1) and album lists (C2, DSim 0)."""
    import scipy.sparse as sp

    from archiver.learning.model import SourceModel
    from tests.test_learning_navigation import tab_table

    model = SourceModel()
    model.navigation_ = tab_table()
    model.n_clusters_ = 3
    model.dsim_, model.content_ = np.array([1.0, 1.0, 0.0]), np.ones(3)
    model.urls_ = [f"/people/u{i}/" for i in range(12)]
    model.labels_ = np.zeros(12, dtype=int)
    model.info = {"mode": "ucc"}
    model.vectorizer_ = SimpleNamespace(feature_names_=["/html/body/p"])
    model.classifier_ = SimpleNamespace(X_=sp.csr_matrix(np.ones((12, 1))))
    s = REGISTRY["source-ucc"].from_profile(_profile(
        "source-ucc", path, ["http://m.test/"],
        params={"low_value": 0.2, "duplicates": False, "type_scores": False, **params}))
    s._use(model)
    return s


def test_url_patterns_rank_links_of_one_apath_but_the_verdict_stays_the_pairs(
        tmp_path: Path) -> None:
    """Profile pages' tab menu (one Apath) links contact lists (C1) and album lists (C2, worth
    nothing here: DSim 0). With the split the contacts tab ranks far above the albums tab;
    the albums tab stays followed because the verdict uses the pair's mixture (module
    docstring of archiver.strategies.source)."""
    from tests.test_learning_navigation import X_TABS

    def strategy(**params: Any) -> Any:
        return _tab_strategy(tmp_path / str(len(params)), **params)

    on = strategy()
    contacts, albums = (on._judge(u, 0, X_TABS) for u in
                        ("http://m.test/people/zed/contacts/", "http://m.test/photos/zed/albums/"))
    assert contacts.reason == "source:exact+url:1" and albums.reason == "source:exact+url:2"
    assert contacts.follow and albums.follow                   # the pair's value: 0.6 > 0.2
    assert contacts.priority > 5 * albums.priority > 0
    off = strategy(url_patterns=False)
    level = [off._judge(u, 0, X_TABS) for u in
             ("http://m.test/people/zed/contacts/", "http://m.test/photos/zed/albums/")]
    assert level[0].priority == level[1].priority and level[0].reason == "source:exact:1"


def test_exhaustion_judges_a_split_pair_per_url_pattern(tmp_path: Path) -> None:
    """A pair the sample split by URL pattern (one Apath linking two page types) is a kind
    of link per cluster its patterns lead to, for exhaustion (``split_kinds``), each in
    that cluster's family. On the zoo's Flickr-like site (seed 1) a profile's album list and
    its "following" list share one class-less Apath; twenty album pages that brought
    nothing exhausted the kind, and with it the links to 104 members never fetched."""
    from tests.test_learning_navigation import X_TABS

    holder = "http://m.test/people/ann/"
    contacts, albums = "http://m.test/people/zed/contacts/", "http://m.test/photos/zed/albums/"
    for split in (True, False):
        s = _tab_strategy(tmp_path / str(split), split_kinds=split)
        assert s.params()["split_kinds"] is split
        kind = s._kind(0, X_TABS, holder, albums)
        assert (kind == (0, f"{X_TABS} ~2")) is split
        assert s._family(kind) == ((0, "to 2") if split else (0, "to 1"))
        for i in range(s.exhaustion):
            s.discovery.settle(f"http://m.test/photos/u{i}/albums/", kind, productive=False)
        assert s._judge(albums, 0, X_TABS).reason == "exhausted:2"
        assert s._judge(contacts, 0, X_TABS).follow is split


def test_exhaustion_judges_views_of_fetched_paths_apart(tmp_path: Path) -> None:
    """A link whose path another fetched URL already had (another view of a page fetched: a
    post's permalink ``?post=N`` to a topic already archived) is a kind of its own, in the
    same family (``path_views``). On a real django-machina forum the member post lists'
    ``?post=`` links were mostly views of topics already archived; their kind was
    exhausted, and with it the last known links to 10 topics no other route reached."""
    from archiver.strategies.source import VIEW_MARK
    from tests.test_learning_navigation import X_TABS

    holder = "http://m.test/people/ann/"
    known = "http://m.test/people/zed/contacts/"
    view, fresh = f"{known}?post=7", "http://m.test/people/amy/contacts/?post=9"
    for on in (True, False):
        s = _tab_strategy(tmp_path / str(on), path_views=on)
        assert s.params()["path_views"] is on
        assert s._kind(0, X_TABS, holder, view) == s._kind(0, X_TABS, holder, fresh)
        s.observe_fetch(known, 200, True)
        kind, other = s._kind(0, X_TABS, holder, view), s._kind(0, X_TABS, holder, fresh)
        assert (kind == (other[0], other[1] + VIEW_MARK)) is on and (kind == other) is not on
        assert s._family(kind) == s._family(other) is not None
        s.observe_fetch(view, 200, True)     # fetched, it is settled under the kind it had
        assert s._kind(0, X_TABS, holder, view) == kind
        for i in range(s.exhaustion):
            s.discovery.settle(f"{known}?post={i}", kind, productive=False)
        assert s._judge(view, 0, X_TABS).reason.startswith("exhausted:")
        assert s._judge(fresh, 0, X_TABS).follow is on


def test_a_page_is_not_credited_by_new_links_of_its_own_link_s_family(
        tmp_path: Path) -> None:
    """A page waits for exhaustion on the new links it found (`archiver.learning.discovery`),
    but not on those of the kind that led to it, nor, with ``family_runs``, of that kind's
    family, which shares its run of misses: a listing links more of itself by its pages,
    page sizes and sorts."""
    from tests.test_learning_navigation import X_LIST, X_TABS

    ann, bob = "http://m.test/people/ann/", "http://m.test/people/bob/"
    html = ('<html><body><ul><li><a class="tab" href="/photos/bob/albums/">albums</a></li>'
            '</ul></body></html>')
    for on in (True, False):
        s = _tab_strategy(tmp_path / str(on), family_runs=on)
        assert s.params()["family_runs"] is on
        listed = s._kind(0, X_LIST, ann, bob)                 # to albums, as sampled
        tab = s._kind(0, X_TABS, bob, "http://m.test/photos/bob/albums/")   # split: ~2
        contacts = s._kind(0, X_TABS, bob, "http://m.test/people/bob/contacts/")
        assert tab != listed and s._family(tab) == s._family(listed) == (0, "to 2")
        assert s._same_run(listed, listed) and s._same_run(tab, listed) is on
        assert not s._same_run(contacts, listed) and not s._same_run(tab, None)
        # bob's page, reached by ann's list and classified with her, found a tab to albums
        s.model.classify = lambda bag: 0
        s._via[bob], s._cluster_of[ann] = (ann, X_LIST), 0
        visit = Visit(page=parse_html(bob, html.encode()), depth=1, digest=b"bob")
        s.describe(visit)
        s._novel[bob] = False                                  # no new text of its own
        decisions = s.decide(visit, visit.page.links)
        assert [d.follow for d in decisions] == [True]
        assert (bob in s.discovery._pending) is not on         # it waits only without
        assert s.discovery.runs.get(listed, 0) == (1 if on else 0)


X_TOPIC, X_USER, X_PAGER = ("/html/body/table/tr/td/a", "/html/body/table/tr/td/span/a",
                             "/html/body/ul/li/a")


def _split_topics_model() -> Any:
    """Forum lists (C0) that link topics the sample split in two clusters of one URL form
    (C1, C2; odd topics in C1) and many profiles (C3)."""
    import scipy.sparse as sp

    from archiver.learning.model import SourceModel
    from archiver.learning.navigation import NavigationTable

    groups: dict[str, dict[str, list[str]]] = {}
    clusters: dict[str, int] = {}
    for f in range(4):
        forum = f"http://m.test/forum/f-{f}/"
        topics = [f"http://m.test/forum/f-{f}/topic/t-{f}{i}/" for i in range(4)]
        users = [f"http://m.test/member/profile/{f}{i}/" for i in range(6)]
        groups[forum] = {X_TOPIC: topics, X_USER: users, X_PAGER: [f"{forum}?page=2"]}
        clusters[forum] = 0
        for i, topic in enumerate(topics):
            clusters[topic] = 1 if i % 2 else 2
            groups[topic] = {X_USER: users[:3]}
        clusters.update(dict.fromkeys(users, 3))
        clusters[f"{forum}?page=2"] = 0
    pages = sorted(clusters)
    model = SourceModel()
    model.navigation_ = NavigationTable().fit(groups, clusters, n_clusters=4)
    model.n_clusters_ = 4
    model.dsim_, model.content_ = np.array([0.01, 1.0, 0.9, 0.0]), np.ones(4)
    model.urls_ = pages
    model.labels_ = np.array([clusters[u] for u in pages])
    model.info = {"mode": "ucc"}
    model.vectorizer_ = SimpleNamespace(feature_names_=["/html/body/p"])
    model.classifier_ = SimpleNamespace(X_=sp.csr_matrix(np.ones((len(pages), 1))))
    return model


def test_a_listing_of_the_content_counts_every_cluster_of_the_content_s_page_type(
        tmp_path: Path) -> None:
    """Forum lists (C0) link topics that the sample split in two clusters of one URL form
    (C1, C2) and many profiles (C3). Into C1 alone a third of their links is not reached,
    so without ``page_family`` the lists are low-value and their pager is skipped; into the
    topics' page type they are a listing of the content (a real django-machina: its topics
    in five clusters, 1,097 -> 786 requests). Lists the site marks noindex do not."""
    model = _split_topics_model()
    for on in (True, False):
        s = REGISTRY["source-ucc"].from_profile(_profile(
            "source-ucc", tmp_path / str(on), ["http://m.test/"],
            params={"duplicates": False, "page_family": on, "verdict_reset": 0,
                    "type_scores": False}))
        s._use(model)
        assert s.params()["page_family"] is on and s.content_cluster in (1, 2)
        assert s.scorer.is_listing(0) is on
        pager = s._judge("http://m.test/forum/f-9/?page=2", 0, X_PAGER)
        assert pager.follow is on, pager.reason
    # lists the site marks noindex count into the first cluster alone (a wiki's revisions)
    model.info = {"mode": "ucc", "noindex_clusters": [0]}
    s = REGISTRY["source-ucc"].from_profile(_profile(
        "source-ucc", tmp_path / "noindex", ["http://m.test/"],
        params={"duplicates": False, "verdict_reset": 0, "type_scores": False}))
    s._use(model)
    assert not s.scorer.is_listing(0)


def test_crawling_for_a_target_every_cluster_of_its_page_type_is_a_target(
        tmp_path: Path) -> None:
    """The example topic is in C1; the sample split the topics' one URL form over C1 and
    C2. With ``target_family`` both hold authority 1 (§4.4.2 fixes it for the target
    cluster), so a link into C2 is worth a link into C1; without it C2's topics are worth
    only their hub part. A real Puput's entries fell in three clusters (source-target 724
    -> 684 requests) and a real MediaWiki's articles in two (recall 0.916 -> 1.000)."""
    model = _split_topics_model()
    example = "http://m.test/forum/f-0/topic/t-01/"
    model.info = {"mode": "target", "target": 1, "target_example": example}
    scores = {}
    for on in (True, False):
        s = REGISTRY["source-target"].from_profile(_profile(
            "source-target", tmp_path / str(on), ["http://m.test/"],
            params={"duplicates": False, "target_family": on}))
        s._use(model)
        assert s.params()["target_family"] is on and s.content_cluster == 1
        assert s.targets == ([1, 2] if on else [1])
        assert s.scorer.authority_.tolist() == ([0, 1, 1, 0] if on else [0, 1, 0, 0])
        marked = {row.id for row in s.clusters() if row.info.get("target")}
        assert marked == ({1, 2} if on else {1})       # the admin's sitemap shows them
        scores[on] = s.scorer.cluster_scores()
    assert scores[True][2] == pytest.approx(scores[True][1])      # C2 is a target too
    assert scores[False][2] < 0.5 * scores[False][1]              # a hub of C1 only


# --- conformance -----------------------------------------------------------------------------
def test_registry_names_are_unique_and_match() -> None:
    assert len({cls.name for cls in REGISTRY.values()}) == len(REGISTRY)
    assert all(name == cls.name for name, cls in REGISTRY.items())
    assert {"bfs", "source-ucc", "source-target"} <= set(REGISTRY)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_conformance(name: str, tmp_path: Path) -> None:
    seeds = ["http://forum.test/"]

    def decide() -> list[Decision]:
        strategy = REGISTRY[name].from_profile(_profile(name, tmp_path, seeds, sample_size=50))
        page = parse_html("http://forum.test/", FIXTURE)
        links = [link for link in page.links if link.kind == "link"]
        visit = Visit(page=page, depth=0)
        strategy.describe(visit)
        out = strategy.decide(visit, links)
        assert [d.url for d in out] == [link.url for link in links]
        assert math.isfinite(strategy.seed_priority())
        return out

    first = decide()
    assert first and all(math.isfinite(d.priority) for d in first)
    assert all(urlsplit(d.url).hostname == "forum.test" for d in first)
    assert first == decide()   # same inputs, same output (seeded sampling)


def test_source_target_fetches_the_example_as_a_seed(tmp_path: Path) -> None:
    strategy = REGISTRY["source-target"].from_profile(
        _profile("source-target", tmp_path, ["http://forum.test/"]))
    assert strategy.extra_seeds() == ["http://forum.test/t/1"]
    assert REGISTRY["source-ucc"].from_profile(
        _profile("source-ucc", tmp_path, ["http://forum.test/"])).extra_seeds() == []


# --- zoo crawls ------------------------------------------------------------------------------
def _example(site: Site, kind: str) -> str:
    """A valid page of the target kind (the middle one in path order)."""
    urls = site.manifest(with_digest=False)["urls"]
    types = site.target_types[kind]
    paths = sorted(u for u, d in urls.items() if d["page_type"] in types
                   and d["valid"] == "valid" and not d.get("disallowed"))
    return paths[len(paths) // 2]


@pytest.fixture(scope="module")
def zoo() -> Iterator[dict[str, tuple[Site, ServedSite]]]:
    served: dict[str, tuple[Site, ServedSite]] = {}
    managers = []
    for family in ("forum", "qa"):
        site = make_site(family, 0, "small", 0)
        cm = serve(site)
        served[family] = (site, cm.__enter__())
        managers.append(cm)
    yield served
    for cm in managers:
        cm.__exit__(None, None, None)


def _crawl(site: Site, served: ServedSite, name: str, out: Path, budget: int,
           **strategy: Any) -> Crawl:
    seeds = [served.url + p for p in site.seeds()]
    if name != "bfs":
        strategy.setdefault("sample_size", max(20, budget // 5))   # as the harness does
    if name == "source-target":
        strategy.setdefault("target_example", served.url + _example(site, "detail"))
    crawl = Crawl(_profile(name, out, seeds, budget, **strategy))
    crawl.run()
    return crawl


def _measure(site: Site, served: ServedSite, out: Path, budget: int) -> dict[str, float]:
    truth = zoo_truth(site, urlsplit(served.url).hostname or "")
    caps = read_captures(sorted((out / "warcs").glob("*.warc.gz")), keep_payload=False)
    judged = m.judge(caps, truth)[:budget]
    return {"valid_ratio": m.valid_ratio(judged) or 0.0,
            "recall": m.recall_entities(judged, truth) or 0.0}


CASES = [(f, s) for f in ("forum", "qa") for s in ("bfs", "source-ucc", "source-target")]
DRAWS = (0, 1, 2)         # the samples a learned crawler's floor is the median of


@pytest.mark.slow
@pytest.mark.parametrize(("family", "name"), CASES)
def test_quality_floors(zoo: dict[str, tuple[Site, ServedSite]], tmp_path: Path,
                        family: str, name: str) -> None:
    """A learned crawler's figures are the median of three samples (`random_state` 0, 1, 2):
    one draw is luck. On the small qa, source-ucc's recall is 0.301, 0.711 or 0.916 by the
    draw (the 33-page sample holds 6 or 10 question pages)."""
    site, served = zoo[family]
    budget = math.ceil(BUDGET * site.manifest(with_digest=False)["counts"]["urls"])
    runs = []
    for random_state in ((None,) if name == "bfs" else DRAWS):
        out = tmp_path / f"job-{random_state}"
        _crawl(site, served, name, out, budget,
               **({} if random_state is None else {"params": {"random_state": random_state}}))
        runs.append(_measure(site, served, out, budget))
    floors = json.loads(FLOORS.read_text())
    assert floors["digests"][family] == site.digest(), "zoo changed: re-measure the floors"
    floor = floors["floors"][f"{family}/{name}"]
    for metric in floor:
        value = float(np.median([run[metric] for run in runs]))
        assert value >= floor[metric] - EPSILON, (family, name, metric, runs, floor[metric])


@pytest.mark.slow
def test_learned_sitemap_and_low_value_links_in_the_db(
        zoo: dict[str, tuple[Site, ServedSite]], tmp_path: Path) -> None:
    site, served = zoo["forum"]
    _crawl(site, served, "source-target", tmp_path / "job", 129)
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    clusters = conn.execute("SELECT id, label, info FROM cluster").fetchall()
    assert len(clusters) >= 2 and any("(target)" in label for _, label, _ in clusters)
    info = json.loads(clusters[-1][2])
    assert info["example_urls"] and "hub" in info and "authority" in info
    assert conn.execute("SELECT COUNT(*) FROM cluster_edge").fetchone()[0] > 0
    low = conn.execute("SELECT reason, cluster FROM url WHERE state = 'skipped'"
                       " AND reason LIKE 'strategy:low-value:%'").fetchall()
    assert low, "forum profiles are not worth following when the target is topics"
    assert all(reason == f"strategy:low-value:{c}" for reason, c in low)
    pages = conn.execute("SELECT COUNT(*) FROM page WHERE cluster IS NOT NULL").fetchone()[0]
    assert pages > 0


def _warc_records(folder: Path) -> list[tuple[str, str, dict[str, str]]]:
    out = []
    for path in sorted(folder.glob("*.warc.gz")):
        with open(path, "rb") as fh:
            for rec in ArchiveIterator(fh):
                meta: dict[str, str] = {}
                if rec.rec_type == "metadata":
                    for line in rec.content_stream().read().decode().splitlines():
                        key, _, value = line.partition(": ")
                        meta.setdefault(key, value)
                out.append((rec.rec_type, rec.rec_headers.get_header("WARC-Target-URI"), meta))
    return out


@pytest.mark.slow
def test_sample_fetches_are_archived_and_counted(
        zoo: dict[str, tuple[Site, ServedSite]], tmp_path: Path) -> None:
    site, served = zoo["forum"]
    crawl = _crawl(site, served, "source-ucc", tmp_path / "job", 15, sample_size=50)
    assert crawl.stats.requests == 15          # the sample stopped at max_requests
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    job = conn.execute("SELECT requests, phase, stop_reason FROM job").fetchone()
    assert job == (15, "learn", "max_requests")
    records = _warc_records(tmp_path / "job" / "warcs")
    fetched = {r[0] for r in conn.execute(
        "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id")}
    archived = {uri for kind, uri, _ in records if kind in ("response", "revisit")}
    assert fetched == archived and len(fetched) == 15
    learn = [uri for kind, uri, meta in records
             if kind == "metadata" and meta.get("archiver-phase") == "learn"]
    assert len(learn) == conn.execute("SELECT COUNT(*) FROM page").fetchone()[0] > 0


@pytest.mark.slow
def test_saved_model_is_reused_without_relearning(
        zoo: dict[str, tuple[Site, ServedSite]], tmp_path: Path) -> None:
    site, served = zoo["forum"]
    job = tmp_path / "job"
    _crawl(site, served, "source-ucc", job, 60)
    manifest = job / "model" / "manifest.json"
    assert manifest.exists()
    conn = sqlite3.connect(job / "crawl.sqlite3")
    learned = conn.execute("SELECT COUNT(*) FROM event WHERE kind = 'phase'").fetchone()[0]
    assert learned == 1
    conn.close()
    info = json.loads(manifest.read_text())["info"]
    sampled = info["sample_pages"]
    # the sample's requests per (cluster, Apath), for the redirect cost, and its files
    redirects = {(c, x): (n, r) for c, x, n, r, _ in info["redirects"]}
    assert sum(n for n, _ in redirects.values()) >= sampled - 1 > 0   # the seed has no pair
    assert all(0 <= r <= n for n, r in redirects.values())
    assert all(0 <= f <= n - r for _, _, n, r, f in info["redirects"])
    second = _crawl(site, served, "source-ucc", job, 100)
    # the first run's sample replayed (archiver.replay), nothing sampled this run
    assert second.strategy.sampler.n_pages == sampled
    # the loaded counts, plus the first run's harvest replayed: the sample not counted twice
    hops = second.strategy.hops.pairs
    assert all(hops[k][0] >= n for k, (n, _) in redirects.items())
    first = sum(n for n, _ in redirects.values())
    harvested_first = 60 - first - 1
    assert sum(row[0] for row in hops.values()) - first <= harvested_first + second.stats.requests
    assert second.stats.requests <= 40
    conn = sqlite3.connect(job / "crawl.sqlite3")
    assert conn.execute("SELECT COUNT(*) FROM event WHERE kind = 'phase'").fetchone()[0] == 1
    meta = [meta for kind, _, meta in _warc_records(job / "warcs") if kind == "metadata"]
    phases = [x["archiver-phase"] for x in meta if "archiver-phase" in x]  # not redirects
    assert phases.count("learn") > 0 and phases[-1] == "harvest"
    harvested = conn.execute("SELECT COUNT(*) FROM page WHERE cluster IS NOT NULL").fetchone()[0]
    assert harvested > 0
    conn.close()


@pytest.mark.slow
def test_another_target_example_on_a_learned_job_is_refused(
        zoo: dict[str, tuple[Site, ServedSite]], tmp_path: Path) -> None:
    """The job's seen-set holds every sampled URL, so it cannot relearn for a new example:
    it says so and how to fix it, instead of harvesting without a model."""
    site, served = zoo["forum"]
    job = tmp_path / "job"
    _crawl(site, served, "source-target", job, 60)
    other = served.url + _example(site, "profile")
    with pytest.raises(JobError, match=r"crawl into a new --out folder") as err:
        _crawl(site, served, "source-target", job, 120, target_example=other)
    assert str(job / "model") in str(err.value) and other in str(err.value)
    assert _crawl(site, served, "source-target", job, 61).stats.requests == 1  # resumes


@pytest.mark.slow
def test_target_url_shape_finds_the_example_type_inside_a_mixed_cluster(tmp_path: Path) -> None:
    """The zoo blog renders author, category and date archives with one template: they share
    a cluster, and only the URL shape (/author/*) tells the author pages, the target, apart."""
    site = make_site("blog", 0, "small", 0)
    with serve(site) as served:
        example = served.url + _example(site, "profile")          # /author/<name>/page/3/
        authors = {}
        for shape in (True, False):
            job = tmp_path / f"shape-{shape}"
            _crawl(site, served, "source-target", job, 150, sample_size=100,
                   target_example=example, params={"url_shape": shape})
            caps = read_captures(sorted((job / "warcs").glob("*.warc.gz")), keep_payload=False,
                                 parse=False)
            authors[shape] = sum(urlsplit(c.url).path.startswith("/author/") for c in caps)
            model = json.loads((job / "model" / "manifest.json").read_text())
            assert (model["info"]["target_shape"] is not None) is shape
    total = sum(1 for d in site.manifest(with_digest=False)["urls"].values()
                if d["page_type"] == "author")
    assert authors[True] == total > authors[False]        # measured: 16 of 16 vs 7


@pytest.mark.slow
def test_noindex_pages_give_way_to_content_on_a_wiki(tmp_path: Path) -> None:
    """The zoo wiki marks diffs, history, edit, login and special pages noindex; its diffs
    land in the article cluster. Counting noindex pages against their links (and URL
    shapes) must spend less of the budget on them than the same crawl without the
    duplicate-view factor, and archive no less user-created content. Half the site as the
    budget: on this 80-article wiki, a quarter is mostly spent before the URL kinds have
    been seen often enough to be demoted."""
    site = make_site("wiki", 0, "small", 0)
    budget = math.ceil(0.5 * site.manifest(with_digest=False)["counts"]["urls"])
    runs: dict[tuple[bool, bool], list[tuple[float, float]]] = {}
    with serve(site) as served:
        for balance in (True, False):
            for on in (True, False):
                for random_state in DRAWS:
                    out = tmp_path / f"job-{balance}-{on}-{random_state}"
                    _crawl(site, served, "source-ucc", out, budget, params={
                        "duplicates": on, "balance": balance, "random_state": random_state})
                    caps = read_captures(sorted((out / "warcs").glob("*.warc.gz")))
                    truth = zoo_truth(site, urlsplit(served.url).hostname or "")
                    judged = m.judge(caps, truth)[:budget]
                    noindex = sum(1 for c in caps[:budget] if c.is_html and c.payload
                                  and parse_html(c.url, c.payload).noindex)
                    runs.setdefault((balance, on), []).append(
                        (noindex / len(judged), m.recall_entities(judged, truth) or 0.0))
    # the median share and recall of three samples (one draw is luck: at random_state 0
    # the sample's four talk pages are judged low-value, recall 0.73 and 0.79)
    got = {key: tuple(float(np.median(x)) for x in zip(*values, strict=True))
           for key, values in runs.items()}
    # Session 53, medians of three draws: with Balance 21% vs 47% of the budget on noindex
    # pages, recall 1.00 vs 0.96; without, 20% vs 46%, recall 1.00 vs 0.85. Before, one
    # draw each: with Balance (eq. 10), 56% vs 64% of the budget on noindex pages, recall
    # 0.73 vs 0.73 (vs 73% before the content-share factor, which puts some of these
    # link-heavy pages back too). Since a promoted URL takes the link that promoted it
    # (archiver/linking.py), the crawl without the factor finds more here (recall 0.76; with
    # it still 0.73): the tolerance went from 0.01 to 0.04 on purpose, reported on issue 4.
    # Without Balance (the default since session 10) fewer noindex pages are fetched either
    # way, 41% vs 44%, and the factor raises recall, 0.74 -> 0.79: the margin is smaller.
    # On the full-size wiki the factor keeps its recall (0.883) and VR 0.810
    # (benchmarks/results/source-zoo.md).
    for balance, margin in ((True, 0.05), (False, 0.02)):
        (share_on, recall_on), (share_off, recall_off) = got[balance, True], got[balance, False]
        assert share_on < share_off - margin, got
        assert recall_on >= recall_off - 0.04, got


def test_target_url_shape_counts_a_view_the_example_is_not_as_another_type() -> None:
    """A Q&A site's user tabs (?tab=activity) are one template with the profile, so they share
    its cluster; they differ from the example only by the query, and that mix of types must
    turn the URL shape on (zoo qa profile HR 0.455 without, 0.760 with)."""
    from archiver.strategies.source import SourceStrategy

    host = "http://qa.test"
    profiles = [f"{host}/users/{i}/u{i}" for i in range(8)]
    tabs = [f"{host}/users/{i}/u{i}?tab=activity" for i in range(6)]
    questions = [f"{host}/questions/{i}/q{i}" for i in range(10)]
    model = SimpleNamespace(urls_=profiles + tabs + questions,
                            labels_=np.array([1] * 14 + [0] * 10), n_clusters_=3)
    strategy = SimpleNamespace(target_example=profiles[3], target_family=True,
                               link_family=False)
    strategy._target_family = lambda m, t: SourceStrategy._target_family(
        strategy, m, t)  # type: ignore[arg-type]
    strategy._page_type = lambda m, c: SourceStrategy._page_type(
        strategy, m, c)  # type: ignore[arg-type]
    shape = SourceStrategy._target_shape(strategy, model, 1)  # type: ignore[arg-type]
    assert shape is not None and str(shape) == "/users/#/*"
    assert all(shape.matches(u) for u in profiles) and not any(shape.matches(u) for u in tabs)
    # the tabs in a cluster of their own: with ``target_family`` they are of the
    # example's page type by URL form (users/*/*), so the mix is still there; the
    # profiles' cluster alone is no mix: no shape
    model.labels_ = np.array([1] * 8 + [2] * 6 + [0] * 10)
    assert str(SourceStrategy._target_shape(strategy, model, 1)) == "/users/#/*"  # type: ignore[arg-type]
    strategy.target_family = False
    assert SourceStrategy._target_shape(strategy, model, 1) is None  # type: ignore[arg-type]


def test_the_target_page_type_holds_the_clusters_its_links_led_to() -> None:
    """A hierarchical wiki's article URLs keep their section (``/garden/x/``,
    ``/cycling/y/``), so no URL form is most of a cluster's and `page_family` is the
    example's cluster alone; with ``link_family`` the clusters one kind of sampled link
    led to with it join (`NavigationTable.co_destinations`): a real django-wiki's articles
    with a list or a table of contents."""
    from archiver.strategies.source import SourceStrategy

    host = "http://wiki.test"
    urls = [f"{host}/{section}/a{i}/" for section in ("garden", "cycling", "baking")
            for i in range(4)]
    model = SimpleNamespace(urls_=urls, labels_=np.array([0, 3] * 6), n_clusters_=5,
                            navigation_=SimpleNamespace(co_destinations=lambda c: {0: [3]}.get(
                                c, [])))
    for target_family, link_family, family in ((True, True, [0, 3]), (True, False, [0]),
                                               (False, True, [0])):
        strategy = SimpleNamespace(target_family=target_family, link_family=link_family)
        strategy._page_type = lambda m, c, s=strategy: SourceStrategy._page_type(
            s, m, c)  # type: ignore[arg-type]
        assert SourceStrategy._target_family(strategy, model, 0) == family  # type: ignore[arg-type]


def test_a_child_article_link_is_ranked_by_its_outline(tmp_path: Path) -> None:
    """The wiki of `wiki_table`: a breadcrumb's link to a child article of a section whose
    child links the sample never met at the pair is ranked as the child links it did meet
    (``pattern_outlines``, `NavigationTable.outlines`), not as the pair's mostly login
    redirects; switched off, eq. 5's mixture ranks it. The verdict is the pair's both ways."""
    from tests.test_learning_navigation import X_DROP, wiki_table

    def strategy(name: str, **params: Any) -> Any:
        table = wiki_table(("garden", "cycling", "hiking"))
        urls = [f"http://m.test/{s}/a{i}/" for s in ("garden", "cycling") for i in range(4)]
        return _hand_strategy(tmp_path / name, "source-ucc", table, urls, [0, 1] * 4,
                              {"mode": "ucc"}, params, dsim=np.array([0.3, 0.1]),
                              content=np.array([0.9, 0.2]))

    kid = "http://m.test/woodwork/a3/woodwork-kid3/"
    on, off = strategy("on"), strategy("off", pattern_outlines=False)
    assert on.params()["pattern_outlines"] and not off.params()["pattern_outlines"]
    by_outline, by_pair = on._judge(kid, 0, X_DROP), off._judge(kid, 0, X_DROP)
    assert by_outline.reason == "source:exact+outline:0" and by_outline.cluster == 0
    assert by_pair.reason == "source:exact:1" and by_pair.cluster == 1
    assert by_outline.priority > 2 * by_pair.priority
    assert by_outline.follow and by_pair.follow
    pooled_off = strategy("pooled-off", pooled_patterns=False)
    assert on.model.navigation_.pooled_patterns and not pooled_off.params()["pooled_patterns"]
    assert not pooled_off.model.navigation_.pooled_patterns
    assert off.model.navigation_.pooled_patterns and not off.model.navigation_.outlines


def test_balance_param_reaches_the_scorer(tmp_path: Path) -> None:
    """`balance: true` (strategy params) turns eq. 10 on: crawling photos lowers the photos'
    score; the default (off since session 10) and `balance: false` leave it alone."""
    from tests.test_learning_navigation import X_PHOTO

    for name, params, drops in (("on", {"balance": True}, True), ("default", {}, False),
                                ("off", {"balance": False}, False)):
        strategy = _listing_strategy(tmp_path / name, **params)
        assert strategy.params()["balance"] is (name == "on")
        first = strategy._judge("d9", 0, X_PHOTO).priority
        for _ in range(5):
            strategy.scorer.observe(2)
        assert (strategy._judge("d9", 0, X_PHOTO).priority < first) is drops


def test_the_duplicate_guard_reads_the_canonical_count_saved_with_the_model(
        tmp_path: Path) -> None:
    """`fit` saves how many duplicate views a rel=canonical decided; a model saved before
    that was counted takes every duplicate view as one (the old guard)."""
    rows = [[0, "/html/body/a", 10, 8, 0, 0]]
    strategy = _listing_strategy(tmp_path)
    model = strategy.model
    model.info.update(duplicate_views=rows, canonical_views=1)
    strategy._use(model)
    assert strategy.dups.canonical == 1 and strategy.dups.signals()[0]
    del model.info["canonical_views"]
    strategy._use(model)
    assert strategy.dups.canonical == 8 and not strategy.dups.signals()[0]


# --- live outliers: rare pages with new text are not worthless ---------------------------------
X_SIDE = '/html/body/nav/a[@class="wikilink1"]'
X_TOOL = '/html/body/div/a[@class="action"]'


def test_a_sampled_page_is_live_when_indexable_new_and_long_enough(tmp_path: Path) -> None:
    """While sampling, a page counts as live when it is marked for indexing, is no duplicate
    view and brought new text, judged on enough shingles (a login form is too short); with
    ``live_views``, another URL of a live page (the same digest) too."""
    from tests.test_learning_discovery import _text

    for views in (True, False):
        strategy = REGISTRY["source-ucc"].from_profile(
            _profile("source-ucc", tmp_path / str(views), ["http://m.test/"],
                     params={"live_views": views}))

        def visit(url: str, body: str, robots: str = "all", digest: bytes = b"",
                  strategy: Any = strategy) -> None:
            html = f'<html><head><meta name="robots" content="{robots}"></head><body>{body}'
            strategy.describe(Visit(page=parse_html(url, html.encode()), depth=1,
                                    digest=digest or url.encode()))

        visit("http://m.test/ns:start", f"<p>{_text(1)}</p>", digest=b"start")
        visit("http://m.test/copy", f"<p>{_text(1)}</p>", digest=b"start")   # same body
        visit("http://m.test/again", f"<p>{_text(1)}</p>")                  # text seen before
        visit("http://m.test/special", f"<p>{_text(2)}</p>", robots="noindex,nofollow")
        visit("http://m.test/login", "<form><label>Name</label><input name=u></form>")
        assert strategy.live.sampled == {"http://m.test/ns:start"} | (
            {"http://m.test/copy"} if views else set())


def test_a_sampled_page_counts_as_noindex_while_the_signal_is_trusted(tmp_path: Path) -> None:
    """The sampler closes a kind of URL whose first sampled pages were all noindex
    (`test_a_kind_of_url_whose_first_pages_were_all_noindex_is_closed`). On a site that
    marks nearly every page noindex (WordPress's "discourage search engines", a staging
    copy), noindex says nothing: otherwise every kind would close after four pages and the
    sample would end with a handful."""
    def noindex(strategy: Any, url: str, robots: str = "all") -> bool:
        html = f'<html><head><meta name="robots" content="{robots}"></head><body><p>{url}'
        strategy.describe(Visit(page=parse_html(url, html.encode()), depth=1,
                                digest=url.encode()))
        return bool(strategy._sample_noindex(url))

    def fresh() -> Any:
        return REGISTRY["source-ucc"].from_profile(
            _profile("source-ucc", tmp_path, ["http://m.test/"]))

    site = fresh()
    assert [noindex(site, "http://m.test/a"), noindex(site, "http://m.test/a?do=edit", "none"),
            noindex(site, "http://m.test/b?do=edit", "noindex,nofollow")] == [False, True, True]
    staging = fresh()
    assert not any(noindex(staging, f"http://m.test/{i}", "noindex") for i in range(20))


def test_the_content_is_never_a_cluster_the_site_marks_noindex(tmp_path: Path) -> None:
    """Crawling for UCC, the cluster ranked first is the content: never judged exhausted,
    its URL patterns are the content's. With a DokuWiki's login forms closed in its sample,
    its index views (noindex, many and rich in links) formed the cluster ranked first, and
    the namespace start pages were skipped (recall 0.988). A cluster most of whose sampled
    pages are marked noindex, while the sample trusts the signal, is never that cluster;
    if every cluster is, the order is left alone."""
    on = _listing_strategy(tmp_path / "on")
    model = on.model
    assert on._protected == 2                              # the photos
    labels = model.labels_.tolist()
    # the sample: every photo marked noindex, one list page of three
    on._sample_dup = {u: (False, c == 2 or u == "l1", False)
                      for u, c in zip(model.urls_, labels, strict=True)}
    assert on._noindex_clusters(model) == [2]
    model.info["noindex_clusters"] = [2]
    on._use(model)
    assert on._protected == 1                              # the lists, ranked next
    model.info["noindex_clusters"] = [0, 1, 2]
    on._use(model)
    assert on._protected == 2
    off = _listing_strategy(tmp_path / "off", content_guard=False)
    assert off.params()["content_guard"] is False
    off.model.info["noindex_clusters"] = [2]
    off._use(off.model)
    assert off._protected == 2
    # a staging copy marks every page noindex: the signal is not trusted, nothing is marked
    for _ in range(20):
        on._sample_rates.observe((-1, ""), False, True)
    assert on._noindex_clusters(model) == []


def test_the_harvest_counts_noindex_by_the_query_modes_of_the_sample(tmp_path: Path) -> None:
    """The sample's query modes (`SiteSampler.modes_`, kept in the model's info) are the
    harvest's too: noindex is counted per `mode_kind`; a model without them (or saved
    before them) counts per `url_kind`."""
    s = _listing_strategy(tmp_path)
    login = "http://m.test/d.php?id=a&do=login"
    assert not s.dups.modes and s.dups.kind(login) == "/*?do&id"
    s.model.info["query_modes"] = {"do": ["login", "edit"]}
    s._use(s.model)
    assert s.dups.modes == {"do": frozenset({"login", "edit"})}
    assert s.dups.kind(login) == "/*?do=login&id"
    sampler = s.sampler
    sampler.add_page("http://m.test/", [SimpleNamespace(url=f"http://m.test/d.php?id=p{i}&do={a}",
                                                        anchor_path="/html/body/a")
                                        for i in range(8) for a in ("login", "")])
    assert sampler.modes_ == {"do": ["login"]}            # "" is a keyword, not a word


def test_links_to_live_outliers_are_followed_last_and_to_dead_ones_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Real DokuWiki: the namespace start pages are few and unlike every other page, so the
    sample leaves them outliers, and a trusted sample's outliers are worth 0 (§4.2): the
    sidebar links to four of them were skipped as low-value. Crawling for UCC, a pair's
    outlier destinations are worth the best cluster's value in the share that were live
    (`test_a_sampled_page_is_live_when_indexable_new_and_long_enough`) and had a URL
    pattern of the content, for links of such a pattern: the sidebar's link to another
    start page is followed, ranked last (eq. 12 gives outliers 0), its link to the member
    list is not; a tool menu whose outliers were noindex stays low-value, and so does a
    pair with one live outlier in forty. Harvested outliers update the share. Crawling for
    a target, outliers are not the target: not used."""
    import numpy as np

    import archiver.strategies.source as source
    from archiver.learning.features import canonical_apath
    from archiver.learning.navigation import NavigationTable
    from tests.test_learning_discovery import _text
    from tests.test_learning_navigation import X_LISTS, X_NEXT, X_PHOTO, X_THUMB

    monkeypatch.setattr(source, "TRUSTED_SAMPLE", 1)   # outliers worth 0, as on a real sample
    x_rare, n = '/html/body/p/a[@class="rare"]', 40
    w = "http://w.test/"
    wiki = [f"{w}wiki/Page_{i}" for i in range(1, 9)]
    starts = [f"{w}wiki/{ns}_start" for ns in ("Geo", "Trade")]
    rare = [f"{w}wiki/Rare_{i}" for i in range(n)]
    groups = {w: {X_LISTS: [f"{w}lists/1"], X_PHOTO: [wiki[0]]},
              f"{w}lists/1": {X_THUMB: wiki[:4], X_NEXT: [f"{w}lists/2"]},
              f"{w}lists/2": {X_THUMB: wiki[4:], X_NEXT: [f"{w}lists/3"]},
              wiki[0]: {X_SIDE: [*starts, f"{w}wiki/Home"],
                        X_TOOL: [f"{w}tool?do=recent", f"{w}tool?do=media"]},
              wiki[1]: {x_rare: rare}}
    clusters = {w: 0, f"{w}lists/1": 1, f"{w}lists/2": 1, f"{w}lists/3": 1,
                **dict.fromkeys(wiki, 2),
                **dict.fromkeys([*starts, f"{w}wiki/Home", f"{w}tool?do=recent",
                                 f"{w}tool?do=media", *rare], -1)}

    def strategy(name: str, target: int | None = None, **params: Any) -> Any:
        s = _listing_strategy(tmp_path / name, **params)
        model = s.model
        model.navigation_ = NavigationTable().fit(groups, clusters, n_clusters=3)
        model.urls_ = list(clusters)
        model.labels_ = np.array(list(clusters.values()))
        model.info["target"] = target
        s._use(model)
        s.sampler.groups_ = groups
        s._cluster_of = dict(clusters)
        s.live.sampled = {*starts, rare[0], f"{w}tool?do=media"}  # a tool's URL pattern
        if s.live.on:
            s.live.learn(s.sampler.groups_, s.sampler.aliases_, s.sampler.dead_,
                         s._cluster_of, s._protected, model.info)
            s.live.read(model.info)
        return s

    on = strategy("on")
    side, rare_x = (canonical_apath(x) for x in (X_SIDE, x_rare))
    assert on._protected == 2 and on.live.content_patterns == {on._pattern(wiki[0])}
    # only links of the content's own URL patterns are shielded from exhaustion: another
    # page predicted to be content (a forum's print view, never sampled) is not
    assert on._shielded(2, wiki[3]) and on._shielded(2)
    assert not on._shielded(2, f"{w}tool?do=recent") and not on._shielded(1, wiki[3])
    assert on.model.info["live_outliers"] == [[row, x, live, of, []] for row in (-2, 2)
                                              for x, live, of in ((side, 2, 3), (rare_x, 1, n))]
    to_start = on._judge(f"{w}wiki/Society_start", 2, X_SIDE)
    assert to_start.follow and to_start.priority == 0.0 and to_start.cluster == -1
    assert on._judge(f"{w}members?page=2", 2, X_SIDE).reason == "low-value:-1"
    assert on._judge(f"{w}tool?do=index", 2, X_TOOL).reason == "low-value:-1"
    assert on._judge(f"{w}wiki/Rare_99", 2, x_rare).reason == "low-value:-1"
    assert on._static[-1] == 0.0                          # the outlier column: still 0
    for i in range(38):                                   # 2 live of 41: under 1/20
        on._via[f"{w}wiki/Dead_{i}"] = (wiki[0], X_SIDE)
        on._observe_destination(f"{w}wiki/Dead_{i}", -1)
    assert on.live.rows[(2, side)] == [2.0, 41.0]
    assert on._judge(f"{w}wiki/History_start", 2, X_SIDE).reason == "low-value:-1"
    on.model.classify = lambda bag: -1                    # harvested pages fit no cluster
    for i, (url, robots) in enumerate([(f"{w}wiki/Live_start", "all"),   # live
                                       (f"{w}wiki/Hidden_start", "noindex"),
                                       (f"{w}members?page=3", "all")]):   # not the content's
        on._via[url] = (wiki[0], X_SIDE)
        html = f'<html><head><meta name="robots" content="{robots}"></head><body><p>' \
               f'{_text(10 + i)}</p>'
        on.describe(Visit(page=parse_html(url, html.encode()), depth=1, digest=url.encode()))
    assert on.live.rows[(2, side)] == [3.0, 44.0]
    off = strategy("off", live_outliers=False)
    assert off.params()["live_outliers"] is False
    assert off._judge(f"{w}wiki/Society_start", 2, X_SIDE).reason == "low-value:-1"
    target = strategy("target", target=2)
    assert not target.live.rows and not target._judge(f"{w}wiki/Society_start", 2, X_SIDE).follow


def _live_strategy(path: Path, groups: dict[str, dict[str, list[str]]],
                   clusters: dict[str, int], sampled: set[str], **params: Any) -> Any:
    """A listing strategy on a model fitted to `groups` and `clusters` (three clusters), with
    `sampled` as its live sampled pages, and the live outliers learned from them."""
    import numpy as np

    from archiver.learning.navigation import NavigationTable

    s = _listing_strategy(path, **params)
    model = s.model
    model.navigation_ = NavigationTable().fit(groups, clusters, n_clusters=3)
    model.urls_ = list(clusters)
    model.labels_ = np.array(list(clusters.values()))
    s._use(model)
    s.sampler.groups_ = groups
    s._cluster_of = dict(clusters)
    s.live.sampled = set(sampled)
    s.live.learn(s.sampler.groups_, s.sampler.aliases_, s.sampler.dead_, s._cluster_of,
                 s._protected, model.info)
    s.live.read(model.info)
    return s


def test_live_outliers_behind_companion_links_are_credited_by_their_own_pattern(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Real MediaWiki at 2,000 articles: a 200-page sample held three talk pages, outliers
    (minPts 4), and their URL pattern (``/index.php/Talk:*``) is not the content's, so the
    talk tab of every article was skipped as low-value (recall 0.818). A pair of companion
    links -- held by at least four sampled pages, each linking pages of its own -- credits
    its live outliers' own URL patterns as well: the talk tab is followed, ranked last,
    from the clusters whose pair the sample saw and, through the Apath pooled over the
    clusters (eq. 5's "any" back-off), from those it did not. A menu that links the same
    page from every page is no companion: its live member list stays low-value."""

    import archiver.strategies.source as source
    from archiver.learning.features import canonical_apath
    from archiver.learning.liveoutliers import companion_pairs
    from archiver.learning.navigation import ANY_SOURCE
    from tests.test_learning_discovery import _text
    from tests.test_learning_navigation import X_LISTS, X_NEXT, X_PHOTO, X_THUMB

    monkeypatch.setattr(source, "TRUSTED_SAMPLE", 1)
    x_talk, x_menu = '/html/body/ul/li/a[@class="tab"]', '/html/body/div/a[@class="menu"]'
    w = "http://w.test/"
    wiki = [f"{w}wiki/Page_{i}" for i in range(1, 9)]
    talk = [f"{w}wiki/Talk:Page_{i}" for i in range(1, 9)]
    groups: dict[str, dict[str, list[str]]] = {
        w: {X_LISTS: [f"{w}lists/1"], X_PHOTO: [wiki[0]], x_talk: [wiki[1]]},
        f"{w}lists/1": {X_THUMB: wiki[:4], X_NEXT: [f"{w}lists/2"]},
        f"{w}lists/2": {X_THUMB: wiki[4:], X_NEXT: [f"{w}lists/3"]},
        **{page: {x_talk: [tab], x_menu: [f"{w}members"]}
           for page, tab in zip(wiki, talk, strict=True)}}
    clusters = {w: 0, f"{w}lists/1": 1, f"{w}lists/2": 1, f"{w}lists/3": 1,
                **dict.fromkeys(wiki, 2), talk[0]: -1, f"{w}members": -1}

    def strategy(name: str, **params: Any) -> Any:      # both indexable, with new text
        return _live_strategy(tmp_path / name, groups, clusters, {talk[0], f"{w}members"},
                              **params)

    on = strategy("on")
    tab, menu = (canonical_apath(x) for x in (x_talk, x_menu))
    shape = on._pattern(talk[0])
    patterns = on.live.content_patterns
    assert shape not in patterns and on._pattern(wiki[0]) in patterns
    assert companion_pairs(groups, on._cluster_of) >= {(2, tab), (ANY_SOURCE, tab)}
    assert not companion_pairs(groups, on._cluster_of) & {(2, menu), (ANY_SOURCE, menu)}
    assert on.model.info["live_outliers"] == [[ANY_SOURCE, tab, 1, 1, [shape]],
                                              [2, tab, 1, 1, [shape]]]
    followed = on._judge(f"{w}wiki/Talk:Page_99", 2, x_talk)
    assert followed.follow and followed.priority == 0.0 and followed.cluster == -1
    assert on._judge(f"{w}wiki/Talk:Page_98", 1, x_talk).follow   # pooled over clusters
    # a link to a file comes after them too: a page first, even one valued as an outlier
    x_file = '/html/body/div/a[@class="download"]'
    on._via[f"{w}files/1.pdf"] = (wiki[0], canonical_apath(x_file))
    on.observe_fetch(f"{w}files/1.pdf", 200, False, content_type="application/pdf")
    to_file = on._judge(f"{w}files/2.pdf", 2, x_file)
    assert to_file.follow and to_file.reason == source.FILE_REASON
    assert to_file.priority < followed.priority
    assert on._judge(f"{w}members?page=2", 2, x_menu).reason == "low-value:-1"
    # harvested talk pages update the row they were credited by, live or not; a pair the
    # sample saw lead only to content (the home page's tab) counts its own, credited by
    # the pooled Apath's companion patterns
    on.model.classify = lambda bag: -1
    for i, (url, robots, holder) in enumerate([(f"{w}wiki/Talk:Page_50", "all", "lists/1"),
                                               (f"{w}wiki/Talk:Page_51", "noindex", "lists/1"),
                                               (f"{w}wiki/Talk:Page_52", "all", "")]):
        on._via[url] = (f"{w}{holder}", x_talk)
        html = f'<html><head><meta name="robots" content="{robots}"></head><body><p>' \
               f'{_text(20 + i)}</p>'
        on.describe(Visit(page=parse_html(url, html.encode()), depth=1, digest=url.encode()))
    assert on.live.rows[(ANY_SOURCE, tab)] == [2.0, 3.0] and on.live.rows[(2, tab)] == [1.0, 1.0]
    assert on.live.rows[(0, tab)] == [1.0, 1.0]
    # a model saved before companion patterns (four fields a row) still loads
    on.model.info["live_outliers"] = [[2, tab, 1, 1]]
    on.live.read(on.model.info)
    assert on.live.rows == {(2, tab): [1.0, 1.0]} and not on.live.own
    assert on._judge(f"{w}wiki/Talk:Page_97", 2, x_talk).reason == "low-value:-1"


def test_a_url_pattern_whose_harvested_outliers_were_live_is_credited_everywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Real Redmine: the sample held one forum topic, an outlier, so the boards' links to
    the other topics were skipped as low-value (31 of 60 topics never archived). Topics
    came in as outliers through members' activity lists, whose links lead mostly to
    content. A URL pattern whose harvested outliers were live four times and in at least
    three of four is proven: a link of that pattern is worth the pattern's live share at
    any pair, ranked last; three live pages are not enough, nor four of six."""

    import archiver.strategies.source as source
    from archiver.learning.liveoutliers import MIN_PATTERN_PAGES, PROVEN_SHARE
    from tests.test_learning_discovery import _text
    from tests.test_learning_navigation import X_LISTS, X_NEXT, X_PHOTO, X_THUMB

    monkeypatch.setattr(source, "TRUSTED_SAMPLE", 1)
    x_board = '/html/body/table/tr/td[@class="subject"]/a'
    w = "http://w.test/"
    issues = [f"{w}issues/{i}" for i in range(1, 9)]
    groups = {w: {X_LISTS: [f"{w}lists/1"], X_PHOTO: [issues[0]], x_board: [f"{w}board"]},
              f"{w}lists/1": {X_THUMB: issues[:4], X_NEXT: [f"{w}lists/2"]},
              f"{w}lists/2": {X_THUMB: issues[4:], X_NEXT: [f"{w}lists/3"]},
              f"{w}board": {x_board: [f"{w}boards/1/topics/1", f"{w}boards/1/topics/2"]}}
    clusters = {w: 0, f"{w}lists/1": 1, f"{w}lists/2": 1, f"{w}lists/3": 1,
                **dict.fromkeys(issues, 2), f"{w}board": -1, f"{w}boards/1/topics/1": -1}

    def strategy(name: str, **params: Any) -> Any:
        s = _live_strategy(tmp_path / name, groups, clusters, {f"{w}boards/1/topics/1"},
                           **params)
        s.model.classify = lambda bag: -1                 # harvested pages fit no cluster
        return s

    def harvest(s: Any, urls: list[str], robots: str = "all") -> None:
        for url in urls:                                  # through a link to content
            s._via[url] = (f"{w}lists/1", X_THUMB)
            html = f'<html><head><meta name="robots" content="{robots}"></head><body><p>' \
                   f'{_text(len(s._via) + 100)}</p>'
            s.describe(Visit(page=parse_html(url, html.encode()), depth=1,
                             digest=url.encode()))

    assert MIN_PATTERN_PAGES == 4 and PROVEN_SHARE == 0.75
    on = strategy("on")
    topic = f"{w}boards/1/topics/99"
    assert on._judge(topic, -1, x_board).reason == "low-value:-1"
    harvest(on, [f"{w}boards/2/topics/{i}" for i in range(3)])
    assert on._judge(topic, -1, x_board).reason == "low-value:-1"      # three: not yet
    harvest(on, [f"{w}boards/2/topics/3"])
    assert on.live.proven(on._pattern(topic)) == 1.0
    followed = on._judge(topic, -1, x_board)
    assert followed.follow and followed.priority == 0.0 and followed.cluster == -1
    assert on._judge(f"{w}board/members?page=2", -1, x_board).reason == "low-value:-1"
    # four live of six (two noindex) is under three in four
    mixed = strategy("mixed")
    harvest(mixed, [f"{w}boards/3/topics/{i}" for i in range(4)])
    harvest(mixed, [f"{w}boards/3/topics/{i}" for i in range(4, 6)], robots="noindex")
    assert mixed.live.patterns[mixed._pattern(topic)] == [4.0, 6.0]
    assert mixed._judge(topic, -1, x_board).reason == "low-value:-1"
    # a topic with replies is fetched first by a reply's link (?r=M), then by its plain
    # link: another URL of a live page, live too with ``live_views``
    for views in (True, False):
        s = strategy(f"views-{views}", live_views=views)
        assert s.params()["live_views"] is views
        for i in range(4):
            text = f'<html><body><p>{_text(200 + i)}</p>'.encode()
            for url in (f"{w}boards/4/topics/{i}?r={i + 10}", f"{w}boards/4/topics/{i}"):
                s._via[url] = (f"{w}lists/1", X_THUMB)
                s.describe(Visit(page=parse_html(url, text), depth=1, digest=f"t{i}".encode()))
        assert url in s._duplicates
        assert s.live.patterns[s._pattern(topic)] == ([4.0, 4.0] if views else [0.0, 4.0])
        assert s._judge(topic, -1, x_board).follow is views


def test_a_low_value_clusters_pages_prove_their_url_pattern_as_outliers_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Real Redmine at one draw: the sample held four forum topics, a cluster of its own
    whose Info·DSim was under the line (four alike pages, linked only from the boards), so
    the boards' topic links were skipped as low-value:C and 30 of the 60 topics were never
    archived, though the harvest fetched other topics through members' activity lists,
    every one of them new text. With ``live_clusters`` a harvested page of a cluster under
    the line counts toward its URL pattern's proof as an outlier does: once four of them
    (and three in four) were live, a link of that pattern predicted into such a cluster is
    worth the pattern's live share. Pages of a cluster above the line count for nothing;
    three live pages are not enough; off, the topics stay low-value."""

    import archiver.strategies.source as source
    from tests.test_learning_discovery import _text
    from tests.test_learning_navigation import X_LISTS, X_NEXT, X_PHOTO, X_THUMB

    monkeypatch.setattr(source, "TRUSTED_SAMPLE", 1)
    x_board = '/html/body/table/tr/td/a[@class="topic"]'
    w = "http://w.test/"
    issues = [f"{w}issues/{i}" for i in range(1, 9)]
    topics = [f"{w}boards/1/topics/{i}" for i in range(1, 5)]
    groups = {w: {X_LISTS: [f"{w}lists/1"], X_PHOTO: [issues[0]], x_board: [f"{w}board"]},
              f"{w}lists/1": {X_THUMB: issues[:4], X_NEXT: [f"{w}lists/2"]},
              f"{w}lists/2": {X_THUMB: issues[4:], X_NEXT: [f"{w}lists/3"]},
              f"{w}board": {x_board: topics}}
    # the topics fall in the home page's cluster, which is under a line of 0.3
    clusters = {w: 0, f"{w}lists/1": 1, f"{w}lists/2": 1, f"{w}lists/3": 1,
                **dict.fromkeys(issues, 2), f"{w}board": 1, **dict.fromkeys(topics, 0)}

    def strategy(name: str, **params: Any) -> Any:
        return _live_strategy(tmp_path / name, groups, clusters, set(), low_value=0.3,
                              **params)

    def harvest(s: Any, urls: list[str], cluster: int) -> None:
        s.model.classify = lambda bag: cluster
        for url in urls:                                  # through a link to content
            s._via[url] = (f"{w}lists/1", X_THUMB)
            html = f'<html><body><p>{_text(len(s._via) + 300)}</p>'
            s.describe(Visit(page=parse_html(url, html.encode()), depth=1,
                             digest=url.encode()))

    on = strategy("on")
    assert on.params()["live_clusters"] is True
    assert on._low.tolist() == [1.0, 0.0, 0.0]
    topic = f"{w}boards/1/topics/99"
    assert on._judge(topic, 1, x_board).reason == "low-value:0"
    harvest(on, [f"{w}boards/2/topics/{i}" for i in range(4)], cluster=2)   # above the line
    assert not on.live.patterns and on._judge(topic, 1, x_board).reason == "low-value:0"
    harvest(on, [f"{w}boards/3/topics/{i}" for i in range(3)], cluster=0)
    assert on._judge(topic, 1, x_board).reason == "low-value:0"      # three: not yet
    harvest(on, [f"{w}boards/3/topics/3"], cluster=0)
    assert on.live.proven(on._pattern(topic)) == 1.0
    followed = on._judge(topic, 1, x_board)
    assert followed.follow and followed.cluster == 0
    assert not on.live.rows                       # no pair's outlier row is touched
    off = strategy("off", live_clusters=False)
    assert off.params()["live_clusters"] is False and off._low is None
    harvest(off, [f"{w}boards/3/topics/{i}" for i in range(4)], cluster=0)
    assert not off.live.patterns and off._judge(topic, 1, x_board).reason == "low-value:0"


def test_the_queue_is_re_ranked_when_a_clusters_worth_halves() -> None:
    """Crawling for UCC, Score(C) carries what C's harvested pages were worth; between the
    periodic re-rankings a cluster can stop bringing anything (a real Trac's timeline once
    every ticket was known), and its queued links kept their old rank. `rescore_due` says
    when any cluster's factor has fallen below half (or risen above twice) what it was when
    it last said so: whenever the scorer crawls for UCC, source-target's too when its
    example fell in no cluster."""
    from types import SimpleNamespace

    from archiver.learning.discovery import Worth

    def strategy(name: str, scorer_mode: str = "ucc", **params: Any) -> Any:
        s = REGISTRY[name](profile_from_dict({
            "name": "t", "seeds": ["http://s.test/"],
            "strategy": {"name": name, "params": params,
                         **({"target_example": "http://s.test/t/1"}
                            if name == "source-target" else {})}}))
        s.worth = Worth(3)
        s.scorer = SimpleNamespace(mode=scorer_mode)   # all rescore_due reads of it
        return s

    for name in ("source-ucc", "source-target"):   # source-target fallen back to UCC
        s = strategy(name)
        assert not s.rescore_due()               # the first look: nothing to compare with
        for n in range(1, 14):                   # pages of cluster 1 that brought nothing
            s.worth.observe(1, False, [])
            due = s.rescore_due()
            assert due == (n == 13), (name, n)   # factor 4 / (n + 4) / 0.5: 0.47 at 13
        assert not s.rescore_due()               # said once; the next is below 0.235
    for params, name, mode in (({"worth_rescore": False}, "source-ucc", "ucc"),
                               ({}, "source-target", "target")):
        other = strategy(name, mode, **params)
        other.rescore_due()
        for _ in range(40):
            other.worth.observe(1, False, [])
        assert not other.rescore_due()


@pytest.mark.parametrize("name", ["source-ucc", "source-target"])
def test_the_queue_is_re_ranked_when_most_recent_requests_were_wasted(name: str) -> None:
    """Between two periodic re-rankings the queue keeps the order it was given, though the
    harvest may have learned since that a kind of link gives nothing new (a real Misago's
    "last activity" links: redirects to threads already fetched, 190 of them in a row).
    `rescore_due` says so when more than half of the last `WASTE_WINDOW` harvest requests
    were wasted: a redirect to a URL already fetched, a client error, a duplicate page
    (told before the fetch's outcome, as the loop does). Then the window starts again
    (not at every `rescore`: the loop judges each popped URL again with it)."""
    from archiver.strategies.base import Queued
    from archiver.strategies.source import WASTE_WINDOW

    def strategy(**params: Any) -> Any:
        s = REGISTRY[name](profile_from_dict({
            "name": "t", "seeds": ["http://s.test/"],
            "strategy": {"name": name, "params": params,
                         **({"target_example": "http://s.test/t/1"}
                            if name == "source-target" else {})}}))
        s._fitted = True                          # harvesting (no scorer: worth says nothing)
        s.observe_fetch("http://s.test/t/0", 200, True)
        return s

    def request(s: Any, i: int, wasted: bool) -> bool:
        url = f"http://s.test/t/{i}"
        if i % 3 == 0:                            # a duplicate page: told first
            s._duplicate_seen(url, wasted, page=True)
            s.observe_fetch(url, 200, True)
        elif i % 3 == 1:                          # a redirect, to a page fetched or new
            s.observe_fetch(url, 302, False,
                            location="http://s.test/t/0" if wasted else f"http://s.test/n/{i}")
        else:                                     # a client error, or a page
            s.observe_fetch(url, 404 if wasted else 200, not wasted)
        return bool(s.rescore_due())

    half = WASTE_WINDOW // 2
    s = strategy()
    due = [request(s, i, wasted=i > WASTE_WINDOW - half) for i in range(1, WASTE_WINDOW + 1)]
    assert not any(due)                           # the first request counted, then half
    assert request(s, WASTE_WINDOW + 1, True)     # the oldest, unwasted, leaves: 17 of 32
    assert not request(s, WASTE_WINDOW + 2, True)   # said once: the window starts again
    # one URL judged again (a link and a seed): the window stays
    again = [Queued(1, "http://s.test/q/1", 1, "/html/body/a", "http://s.test/t/0"),
             Queued(2, "http://s.test/", 0, "", None)]
    assert [d.follow for _, d in s.rescore(again)] == [True, True]
    for i in range(WASTE_WINDOW - 2):             # the window fills again, all wasted
        assert not request(s, 100 + i, True)
    assert request(s, 200, True)
    off = strategy(waste_rescore=False)
    assert not any(request(off, i, True) for i in range(1, 3 * WASTE_WINDOW))


def test_outlier_hubs_keep_what_an_outlier_page_alone_lists_above_the_line(
        tmp_path: Path) -> None:
    """The Fossil-like sample of tests/test_learning_navigation.py: the tickets are linked
    only from the ticket report, an outlier. Eq. 6 and Kleinberg's HITS leave them nothing,
    and the walk of the verdict's second opinion what a random jump gives (under the line):
    the report's links to tickets were skipped as low-value. With the outlier pages' links
    in the walk (``outlier_hubs``, default true) they are followed, and ranked by eq. 12,
    which the parameter leaves alone."""
    from tests.test_learning_navigation import REPORT_DSIM, X_LOGIN, report_site_table

    table = report_site_table()
    urls = ["report", "t0", "t1", *(f"p{c}-{i}" for c in range(5) for i in range(4))]
    labels = [-1, 5, 5, *(c for c in range(5) for _ in range(4))]

    def strategy(path: Path, **params: Any) -> Any:
        return _hand_strategy(path, "source-ucc", table, urls, labels, {"mode": "ucc"},
                              {"page_family": False, "hub_share": 0, **params},
                              dsim=REPORT_DSIM, content=np.ones(6))

    on, off = strategy(tmp_path / "on"), strategy(tmp_path / "off", outlier_hubs=False)
    assert on.params()["outlier_hubs"] is True and off.params()["outlier_hubs"] is False
    followed, skipped = (s._judge("t9", -1, X_LOGIN) for s in (on, off))
    assert followed.follow and followed.cluster == 5
    assert not skipped.follow and skipped.reason == "low-value:5"
    assert followed.priority == pytest.approx(skipped.priority)


@pytest.mark.parametrize("key", ["hits_reset", "verdict_reset"])
def test_hits_resets_must_be_probabilities(key: str) -> None:
    from archiver.errors import ProfileError

    def make(reset: object) -> Any:
        return REGISTRY["source-ucc"](profile_from_dict({
            "name": "t", "seeds": ["http://s.test/"],
            "strategy": {"name": "source-ucc", "params": {key: reset}}}))

    assert getattr(make(0.1), key) == 0.1 and getattr(make(0), key) == 0.0
    for bad in (1, 1.5, -0.1):
        with pytest.raises(ProfileError, match=rf"strategy\.params\.{key}"):
            make(bad)


@pytest.mark.parametrize(("name", "default", "bad"), [
    ("type_share", 0.1, (1.5, -0.1)),
    ("requeue_share", 0.0, (1.5, -0.1)),
])
def test_shares_must_be_shares(name: str, default: float, bad: tuple[float, ...]) -> None:
    """``type_share`` (of the sample) and ``requeue_share`` (of a queued priority) are
    shares; out of range, a `ProfileError` names the field."""
    from archiver.errors import ProfileError

    def make(share: object) -> Any:
        return REGISTRY["source-ucc"](profile_from_dict({
            "name": "t", "seeds": ["http://s.test/"],
            "strategy": {"name": "source-ucc", "params": {name: share}}}))

    assert getattr(make(0), name) == 0.0 and make(0.25).params()[name] == 0.25
    assert getattr(REGISTRY["source-ucc"](profile_from_dict({
        "name": "t", "seeds": ["http://s.test/"]})), name) == default
    for value in bad:
        with pytest.raises(ProfileError, match=rf"strategy\.params\.{name}"):
            make(value)


def test_type_scores_param_scores_a_split_page_type_as_one_crawling_for_ucc(
        tmp_path: Path) -> None:
    """``type_scores`` (default true) crawling for UCC: the blog whose posts the sample split
    in two clusters ranks them first, and the largest of the two is the content cluster;
    off, its tag lists rank first and are protected as the content. Crawling for a target
    the clusters are scored apart whatever the parameter says."""
    from tests.test_learning_navigation import split_blog_model

    model = split_blog_model()
    tag, post, note = (int(model.labels_[i]) for i in (0, 12, 24))

    def strategy(name: str, kind: str = "source-ucc", **params: Any) -> Any:
        s = REGISTRY[kind].from_profile(_profile(kind, tmp_path / name, ["http://b.test/"],
                                                 params=params))
        s._use(model)
        return s

    on, off = strategy("on"), strategy("off", type_scores=False)
    assert on.params()["type_scores"] is True and off.params()["type_scores"] is False
    assert on.content_cluster in (post, note) and off.content_cluster == tag
    assert on.scorer.types_ is not None and off.scorer.types_ is None
    from archiver.cli import cluster_summary

    pair = sorted((post, note))
    assert (f"scored as one page type (strategy param type_scores): clusters {pair[0]}, "
            f"{pair[1]}") in cluster_summary(on).splitlines()
    assert "scored as one page type" not in cluster_summary(off)
    model.info = {"mode": "target", "target": post}
    target = strategy("target", "source-target")
    assert target.params()["type_scores"] is True and target.scorer.types_ is None


def test_distinct_links_param_runs_hits_over_distinct_urls(tmp_path: Path) -> None:
    """``distinct_links`` hands the scorer A with each pair weighing as its distinct URLs
    (`LinkScorer`, ``distinct``); off, eq. 6 as the paper has it."""
    import numpy as np

    from tests.test_learning_navigation import sidebar_blog_table

    urls = [*(f"tag{i}" for i in range(12)), *(f"e{i}" for i in range(12))]

    def strategy(name: str, **params: Any) -> Any:
        return _hand_strategy(tmp_path / name, "source-ucc", sidebar_blog_table(), urls,
                              [0] * 12 + [1] * 12, {"mode": "ucc"}, params,
                              dsim=np.ones(2), content=np.ones(2))

    off, on = strategy("off"), strategy("on", distinct_links=True)
    assert off.params()["distinct_links"] is False and on.params()["distinct_links"] is True
    table = on.scorer.table
    for s, A in ((off, table.adjacency_), (on, table.distinct_adjacency_)):
        assert np.array_equal(s.scorer.adjacency_, A - np.diag(np.diag(A)))
    assert not np.array_equal(table.adjacency_, table.distinct_adjacency_)


@pytest.mark.parametrize("endings", [True, False])
def test_a_links_duplicate_rate_is_its_path_endings(tmp_path: Path, endings: bool) -> None:
    """django-wiki's breadcrumb menu (one Apath) holds an article's children, its
    directory view and an "add article" link redirecting to the login page. A pair that
    sampled four such redirects and two directory views judged every child link there a
    duplicate view (real django-wiki: 13 child links skipped). With ``duplicate_endings``
    the strategy counts duplicates by the site's learned path endings, and a child link,
    with no ending, takes the rate of the links without one."""
    menu = '/html/body/div/div[@class="dropdown-menu"]/a'
    site = "http://w.test"
    pages = [f"{site}/a{i}/" for i in range(6)]
    groups = {page: {"/html/body/nav/a": pages,
                     menu: [f"{page}_create/", f"{page}_dir/", f"{page}c{i}/"]}
              for i, page in enumerate(pages)}
    clusters = {**{p: 2 for p in pages}, **{f"{p}c{i}/": 2 for i, p in enumerate(pages)},
                **{f"{p}_dir/": 1 for p in pages}}
    s = _live_strategy(tmp_path, groups, clusters, set(), duplicate_endings=endings)
    assert (s.dups.ending is not None) == endings
    for i in range(4):
        s.dups.observe((2, menu), True, url=f"{site}/b{i}/_create/")
    for i in range(2):
        s.dups.observe((2, menu), False, url=f"{site}/b{i}/_dir/")
    for i in range(30):
        s.dups.observe((2, "/html/body/nav/a"), False, url=f"{site}/b{i}/")
    child, create = (s._keep((2, menu), f"{site}/b9/{end}") for end in ("c9/", "_create/"))
    if endings:
        assert create < 0.2 and child > 0.9
    else:
        assert child == create < 0.5
