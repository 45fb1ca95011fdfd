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
