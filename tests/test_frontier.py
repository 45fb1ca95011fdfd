"""Frontier batching: `add_many` writes what successive `add` calls write; `pop` brings the
parent's URL along for the crawl log."""

from __future__ import annotations

import random
from pathlib import Path

from archiver.db import connect
from archiver.frontier import Frontier, NewURL
from archiver.urls import canonicalize


def _news(rng: random.Random, n: int) -> list[NewURL]:
    out = []
    for _ in range(n):
        url = f"http://f.org/p{rng.randrange(30)}" + rng.choice(["", "#x", "?"])
        out.append(NewURL(url=url, canon=canonicalize(url), host="f.org", depth=1, hops="L",
                          via="link", state=rng.choice(["queued", "skipped"]),
                          priority=rng.random(), parent_id=1))
    return out


def test_add_many_equals_successive_adds(tmp_path: Path) -> None:
    rng = random.Random(5)
    batches = [_news(rng, rng.randrange(0, 25)) for _ in range(12)]
    results, tables = [], []
    for name, batched in (("one.sqlite3", False), ("many.sqlite3", True)):
        conn = connect(tmp_path / name)
        frontier = Frontier(conn)
        frontier.add(NewURL(url="http://f.org/", canon="http://f.org/", host="f.org",
                            depth=0, hops="", via="seed"), 0.0)
        got = []
        for batch in batches:
            if batched:
                got.append(frontier.add_many(batch, 1.0))
            else:
                got.append([frontier.add(new, 1.0) for new in batch])
        results.append(got)
        tables.append([tuple(r) for r in conn.execute("SELECT * FROM url ORDER BY id")])
        conn.close()
    assert results[0] == results[1]
    assert tables[0] == tables[1]


def test_pop_carries_the_parent_url(tmp_path: Path) -> None:
    conn = connect(tmp_path / "c.sqlite3")
    frontier = Frontier(conn)
    seed, _ = frontier.add(NewURL(url="http://f.org/", canon="http://f.org/", host="f.org",
                                  depth=0, hops="", via="seed", priority=1.0), 0.0)
    item = frontier.pop(0.0)
    assert item is not None and item.parent_url == ""
    frontier.mark(seed, "done")
    frontier.add(NewURL(url="http://f.org/a", canon="http://f.org/a", host="f.org", depth=1,
                        hops="L", via="link", parent_id=seed), 0.0)
    item = frontier.pop(0.0)
    assert item is not None and item.parent_url == "http://f.org/"


def test_a_followed_link_promotes_a_skipped_url_and_becomes_its_link(tmp_path: Path) -> None:
    """A URL skipped by the strategy (or queued lower) and found again by a followed link is
    queued with that link as its parent and anchor path, so that a re-ranking judges it by
    the link that made it worth following, not by the one that was skipped. Its depth stays
    the shortest path's."""
    from archiver.linking import LinkRow, PageOutcome

    conn = connect(tmp_path / "c.sqlite3")
    frontier = Frontier(conn)
    ids = [frontier.add(NewURL(url=u, canon=u, host="f.org", depth=1, hops="L", via="link"),
                        0.0)[0] for u in ("http://f.org/comment", "http://f.org/photo")]
    frontier.add(NewURL(url="http://f.org/u", canon="http://f.org/u", host="f.org", depth=2,
                        hops="LL", via="link", state="skipped", reason="strategy:low-value:2",
                        parent_id=ids[0], anchor_path="/html/body/ul/li/a[@class=\"author\"]"),
                 0.0)
    item = frontier.pop(0.0)
    assert item is not None
    good = NewURL(url="http://f.org/u", canon="http://f.org/u", host="f.org", depth=3,
                  hops="LLL", via="link", reason="strategy:source:exact+url:2", priority=0.7,
                  parent_id=ids[1], anchor_path="/html/body/div/a[@class=\"owner\"]",
                  anchor_text="owner")
    PageOutcome(links=[LinkRow(good, "owner", True, 0.7, good.reason)]).store(
        frontier, item, 1.0)
    row = conn.execute("SELECT state, priority, parent_id, anchor_path, anchor_text, depth,"
                       " hops FROM url WHERE url = 'http://f.org/u'").fetchone()
    # the deeper link decides, but depth and hops stay those of the shorter path
    assert tuple(row) == ("queued", 0.7, ids[1], '/html/body/div/a[@class="owner"]', "owner",
                          2, "LL")
    worse = NewURL(url="http://f.org/u", canon="http://f.org/u", host="f.org", depth=1,
                   hops="L", via="link", priority=0.1, parent_id=ids[0], anchor_path="/x")
    PageOutcome(links=[LinkRow(worse, "", True, 0.1, "")]).store(frontier, item, 2.0)
    assert conn.execute("SELECT parent_id FROM url WHERE url = 'http://f.org/u'"
                        ).fetchone()[0] == ids[1]          # a lower link changes nothing


def test_depth_is_the_shortest_path_and_a_too_deep_url_is_found_again(tmp_path: Path) -> None:
    """Depth belongs to the path, not to the URL: a queued URL found again by a shorter path
    takes that path's depth (its own links are then judged against max_depth from there),
    and a URL skipped as too deep is queued when a followed link finds it within max_depth.
    Without this, promotions by deeper links let depths creep up to max_depth (the zoo qa
    site's related-question chains) and the URLs past it were lost for the whole crawl."""
    from archiver.linking import LinkRow, PageOutcome

    conn = connect(tmp_path / "c.sqlite3")
    frontier = Frontier(conn)
    home, _ = frontier.add(NewURL(url="http://f.org/", canon="http://f.org/", host="f.org",
                                  depth=0, hops="", via="seed", priority=9.0), 0.0)
    for url, depth, state, reason in (("http://f.org/q", 5, "queued", "x"),
                                      ("http://f.org/deep", 31, "skipped", "too-deep"),
                                      ("http://f.org/out", 1, "skipped", "out-of-scope:host")):
        frontier.add(NewURL(url=url, canon=url, host="f.org", depth=depth, hops="L" * depth,
                            via="link", state=state, reason=reason, priority=0.5), 0.0)
    item = frontier.pop(0.0)
    assert item is not None and item.id == home
    links = [LinkRow(NewURL(url=u, canon=u, host="f.org", depth=1, hops="L", via="link",
                            reason="r", priority=p, parent_id=home), "", True, p, "r")
             for u, p in (("http://f.org/q", 0.1), ("http://f.org/deep", 0.3),
                          ("http://f.org/out", 0.9))]
    PageOutcome(links=links).store(frontier, item, 1.0)
    rows = {u: tuple(r) for u, *r in conn.execute("SELECT url, state, depth, hops, priority"
                                                  " FROM url WHERE url != 'http://f.org/'")}
    assert rows["http://f.org/q"] == ("queued", 1, "L", 0.5)      # shorter path, same rank
    assert rows["http://f.org/deep"] == ("queued", 1, "L", 0.3)   # found again in reach
    assert rows["http://f.org/out"] == ("skipped", 1, "L", 0.5)   # the URL's own verdict


def test_a_followed_link_under_another_spelling_is_reported_with_the_stored_one(
        tmp_path: Path) -> None:
    """`PageOutcome.respelled`: a followed link whose canonical URL the frontier holds, or
    an earlier link of the same page will make it hold, under another spelling, is reported
    with the spelling that is fetched; asked before `store`, it answers as after."""
    from archiver.linking import LinkRow, PageOutcome

    conn = connect(tmp_path / "c.sqlite3")
    frontier = Frontier(conn)

    def new(url: str) -> NewURL:
        return NewURL(url=url, canon=canonicalize(url), host="f.org", depth=1, hops="L",
                      via="link")
    frontier.add(new("http://f.org/"), 0.0)
    frontier.add(new("http://f.org/m?b=2&a=1"), 0.0)
    item = frontier.pop(0.0)
    assert item is not None
    urls = ["http://f.org/m?a=1&b=2",          # stored as ?b=2&a=1
            "http://f.org/n?next=/",           # first of this page's two spellings
            "http://f.org/n?next=%2F",
            "http://f.org/o?a=1&b=2",          # not followed: not reported
            "http://f.org/p"]                  # one spelling
    follow = [True, True, True, False, True]
    outcome = PageOutcome(links=[LinkRow(new(u), "", f, 0.5, "") for u, f in
                                 zip(urls, follow, strict=True)])
    expected = [("http://f.org/m?a=1&b=2", "http://f.org/m?b=2&a=1"),
                ("http://f.org/n?next=%2F", "http://f.org/n?next=/")]
    assert canonicalize(urls[1]) == canonicalize(urls[2])
    assert outcome.respelled(frontier) == expected
    outcome.store(frontier, item, 1.0)
    assert outcome.respelled(frontier) == expected                 # as a replay asks it
    assert frontier.spellings([canonicalize(urls[2])]) == {canonicalize(urls[2]): urls[1]}
