"""Files in SOUrCe: a kind of link that led mostly to files (a photo page's link to the
original JPEG) is followed after every link to a page (archiver.strategies.source, "Files").
On a real photologue gallery the back-off of eq. 5 ranked the originals above the photo
pages, and the crawl alternated page, file, page, file."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from archiver.crawl import Crawl
from archiver.learning.hops import HopCounts
from archiver.profile import profile_from_dict
from archiver.strategies.source import FILE_PRIORITY, SourceUCCStrategy
from tests.servers import serve_wsgi

N_PHOTOS = 160
PER_LIST = 12
N_USERS = 12
N_TAGS = 16
_WORDS = """harbour boat light dawn mist river bridge tower street market lantern roof
window door garden leaf stone cliff wave bird"""
WORDS = _WORDS.split()


def _frame(title: str, body: str) -> bytes:
    nav = ('<ul class="nav"><li><a href="/">Home</a></li><li><a href="/photos/">Photos</a>'
           '</li><li><a href="/about/">About</a></li></ul>')
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
            f'<header class="navbar">{nav}</header><div class="container">{body}</div>'
            "<footer><p>A camera club's photos.</p></footer></body></html>").encode()


def _photo(i: int) -> tuple[int, list[int], str]:
    """Photo i's owner, tags and caption."""
    rng = random.Random(i)
    caption = " ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 30)))
    return i % N_USERS, sorted(rng.sample(range(N_TAGS), 3)), caption.capitalize() + "."


def _thumbs(photos: Iterable[int]) -> str:
    return '<div class="list">' + "".join(
        f'<a class="thumb" href="/photo/{i}/"><img src="/t/{i}.png" alt=""></a>'
        for i in photos) + "</div>"


def _not_found(start: Callable[..., Any]) -> list[bytes]:
    start("404 Not Found", [("Content-Type", "text/plain")])
    return [b"not found"]


def gallery(environ: dict[str, Any], start: Callable[..., Any]) -> Iterable[bytes]:
    """Paged photo lists; photo pages (caption, owner, tags, neighbours and a link to the
    original JPEG, a file); members' and tags' photo lists; an about page."""
    path = environ["PATH_INFO"]
    if path.startswith("/orig/") and path.endswith(".jpg"):
        start("200 OK", [("Content-Type", "image/jpeg")])
        return [b"\xff\xd8\xff\xe0" + path.encode() * 40 + b"\xff\xd9"]
    parts = [p for p in path.split("/") if p]
    body: str | None = None
    if path in ("/", "/photos/"):
        page = parse_qs(environ.get("QUERY_STRING", "")).get("page", ["1"])[0]
        first = (int(page) - 1) * PER_LIST if page.isdigit() else N_PHOTOS
        if 0 <= first < N_PHOTOS:
            pager = "".join(f'<li><a href="/photos/?page={p}">{p}</a></li>'
                            for p in range(1, N_PHOTOS // PER_LIST + 1))
            body = (f"<h1>Photos, page {page}</h1>"
                    f"{_thumbs(range(first, min(N_PHOTOS, first + PER_LIST)))}"
                    f'<ul class="pager">{pager}</ul>')
    elif len(parts) == 2 and parts[1].isdigit():
        n = int(parts[1])
        if parts[0] == "photo" and n < N_PHOTOS:
            owner, tags, caption = _photo(n)
            near = "".join(f'<td><a href="/photo/{j}/">{"previous" if j < n else "next"}'
                           "</a></td>" for j in (n - 1, n + 1) if 0 <= j < N_PHOTOS)
            tag_links = "".join(f'<li><a href="/tag/{t}/">{WORDS[t]}</a></li>' for t in tags)
            body = (f"<h1>Photo {n}</h1><p class=\"by\">by <a href=\"/user/{owner}/\">member "
                    f"{owner}</a></p><p>{caption}</p>"
                    f'<div class="col"><a href="/orig/{n}.jpg"><img src="/d/{n}.png" '
                    f'alt=""></a></div><ul class="tags">{tag_links}</ul>'
                    f"<table><tr>{near}</tr></table>")
        elif parts[0] == "user" and n < N_USERS:
            body = (f"<h2>Member {n}</h2><p>Joined the club in {2000 + n}.</p>"
                    f"{_thumbs(i for i in range(N_PHOTOS) if _photo(i)[0] == n)}")
        elif parts[0] == "tag" and n < N_TAGS:
            body = (f"<h2>Tagged {WORDS[n]}</h2>"
                    f"{_thumbs(i for i in range(N_PHOTOS) if n in _photo(i)[1])}")
    elif path == "/about/":
        body = "<h1>About</h1><p>We meet every second Thursday.</p>"
    if body is None:
        return _not_found(start)
    start("200 OK", [("Content-Type", "text/html; charset=utf-8")])
    return [_frame(path, body)]


def _crawl(tmp_path: Path, name: str, params: dict[str, Any]) -> list[tuple[str, str]]:
    """source-ucc over the gallery; (URL path, reason to follow) of every fetch, in fetch
    order."""
    with serve_wsgi(gallery) as base:
        crawl = Crawl(profile_from_dict({
            "name": name, "seeds": [base + "/"],
            "politeness": {"delay": 0, "retries": 0}, "limits": {"max_requests": 800},
            "output": {"dir": str(tmp_path / name)},
            "strategy": {"name": "source-ucc", "sample_size": 80, "params": params}}))
        crawl.run()
    assert isinstance(crawl.strategy, SourceUCCStrategy)
    with sqlite3.connect(tmp_path / name / "crawl.sqlite3") as db:
        rows = db.execute(  # the reason of the link that found it, on its parent page
            "SELECT u.url, (SELECT l.reason FROM link l WHERE l.to_id = u.id "
            "AND l.from_id = u.parent_id) FROM fetch f JOIN url u ON u.id = f.url_id "
            "ORDER BY f.id").fetchall()
    return [(url[len(base):], reason or "") for url, reason in rows]


@pytest.mark.slow
def test_originals_are_fetched_after_every_photo_page(tmp_path: Path) -> None:
    fetched = _crawl(tmp_path, "files", {})
    photos = [n for n, (path, _) in enumerate(fetched) if path.startswith("/photo/")]
    files = [(n, reason) for n, (path, reason) in enumerate(fetched)
             if path.startswith("/orig/")]
    assert len(photos) == N_PHOTOS and len(files) == N_PHOTOS    # nothing is lost
    # "deferred": held on its page, then drawn by the sample, widened once it ran out
    # (`SiteSampler.widen`)
    harvested = [n for n, reason in files if reason not in ("sample", "deferred")]
    assert harvested and all(reason == "source:file" for n, reason in files
                             if n in harvested)
    assert min(harvested) > max(photos)                          # pages first


@pytest.mark.slow
def test_without_the_rule_the_originals_are_ranked_as_pages(tmp_path: Path) -> None:
    """The test above can fail: eq. 5's back-off ranks a photo page's link to its original
    JPEG with the links to pages, so files come before the last photo page."""
    fetched = _crawl(tmp_path, "nofiles", {"files": False})
    photos = [n for n, (path, _) in enumerate(fetched) if path.startswith("/photo/")]
    files = [n for n, (path, reason) in enumerate(fetched)
             if path.startswith("/orig/") and reason != "sample"]
    assert files and min(files) < max(photos)


def test_a_kind_of_link_leads_to_files_when_most_of_its_fetches_were_files() -> None:
    s = SourceUCCStrategy(profile_from_dict({"name": "t", "seeds": ["http://s.test/"],
                                             "strategy": {"name": "source-ucc"}}))
    s._fitted = True
    s._cluster_of["http://s.test/photo/1/"] = 2
    key = (2, "/html/body/div/a")
    for n in range(3):
        s._via[f"http://s.test/orig/{n}.jpg"] = ("http://s.test/photo/1/", key[1])
    s.observe_fetch("http://s.test/orig/0.jpg", 200, False, content_type="image/jpeg")
    assert s.hops.files(key)
    s.observe_fetch("http://s.test/orig/1.jpg", 404, False, content_type="text/html")
    assert not s.hops.files(key)                       # one file in two requests: not most
    s.observe_fetch("http://s.test/orig/2.jpg", 200, False, content_type="image/jpeg")
    assert s.hops.files(key)
    s._via["http://s.test/feed/"] = ("http://s.test/photo/1/", "/html/body/ul/a")
    s.observe_fetch("http://s.test/feed/", 200, False, content_type="application/rss+xml")
    assert not s.hops.files((2, "/html/body/ul/a"))    # a feed is no file: a duplicate view
    s.hops.use_files = False
    assert not s.hops.files(key)
    assert FILE_PRIORITY <= 0.0


def test_a_link_of_a_kind_followed_to_pages_is_no_file_link_wherever_it_is() -> None:
    """A real Fossil's forum index, an outlier, holds its threads in table cells, and the
    sample had followed one outlier's table-cell link, to a file: the threads were ranked as
    files, never fetched, although their kind had been fetched as pages
    (`archiver.learning.hops`)."""
    hops = HopCounts()
    cell = (-1, "/html/body/div/table/tr/td/a")
    hops.count(cell, False, file=True, link="http://s.test/raw/41/main.c")
    for n in range(3):
        hops.count((2, "/html/body/div/a"), False, link=f"http://s.test/forumpost/{n}a")
    assert hops.files(cell)                                  # the pair's, for a new kind
    assert hops.files(cell, "http://s.test/forum?n=25&x=25")
    assert not hops.files(cell, "http://s.test/forumpost/9f")   # a kind of pages
    assert hops.files((2, "/html/body/div/a"), "http://s.test/raw/77/util.c")
    restored = HopCounts()
    restored.load(hops.rows(), hops.kind_rows())
    assert not restored.files(cell, "http://s.test/forumpost/9f")
    restored.load(hops.rows())                               # a model saved before kinds
    assert restored.files(cell, "http://s.test/forumpost/9f")
