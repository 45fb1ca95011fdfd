"""Alternates in SOUrCe: a page's links to itself in other formats, which its head declares
as ``<link rel="alternate">`` (archiver.strategies.source, "Alternates"), are skipped. On a
real Trac every ticket links its RSS, CSV and TSV exports and every wiki page its plain
text; the sample spent a fifth of its requests on them and source-ucc ended on a thousand
exports."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from archiver.crawl import Crawl
from archiver.page import parse_html
from archiver.profile import profile_from_dict
from tests.servers import serve_wsgi

N_TICKETS = 90
PER_LIST = 15
N_COMPONENTS = 6
N_USERS = 9
FORMATS = {"rss": "application/rss+xml", "csv": "text/csv", "tab": "text/tab-separated-values"}
_WORDS = """crash parser export import window menu button crash slow memory unicode path
config plugin release test build install upgrade"""
WORDS = _WORDS.split()


def _text(n: int) -> str:
    rng = random.Random(n)
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(25, 60))).capitalize() + "."


def _frame(title: str, body: str, alternates: str = "") -> bytes:
    head = "".join(f'<link rel="alternate" href="{alternates}?format={f}" type="{t}">'
                   for f, t in FORMATS.items()) if alternates else ""
    foot = ('<div id="altlinks"><ul>' + "".join(
        f'<li><a rel="nofollow" class="{f}" href="{alternates}?format={f}">{f}</a></li>'
        for f in FORMATS) + "</ul></div>") if alternates else ""
    return (f"<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body>"
            '<div id="mainnav"><a href="/">Tickets</a> <a href="/about">About</a></div>'
            f'<div id="main">{body}{foot}</div></body></html>').encode()


def _listing(title: str, tickets: Iterable[int], alternates: str, pager: str = "") -> bytes:
    rows = "".join(f'<tr><td><a class="ticket" href="/ticket/{i}">#{i}</a></td>'
                   f"<td>{_text(i)[:40]}</td></tr>" for i in tickets)
    return _frame(title, f'<h2>{title}</h2><table class="listing">{rows}</table>{pager}',
                  alternates)


def tracker(environ: dict[str, Any], start: Callable[..., Any]) -> Iterable[bytes]:
    """Paged ticket lists, components' and reporters' ticket lists and ticket pages (a
    description, comments, its component and reporter, related and neighbouring tickets),
    each page with its three exports declared in the head and linked in the body."""
    path = environ["PATH_INFO"]
    query = parse_qs(environ.get("QUERY_STRING", ""))
    fmt = query.get("format", [""])[0]
    parts = [p for p in path.split("/") if p]
    n = int(parts[1]) if len(parts) == 2 and parts[1].isdigit() else -1
    if fmt in FORMATS and (path == "/" or n >= 0):
        start("200 OK", [("Content-Type", FORMATS[fmt])])
        return [f"id,summary\n{path},{fmt}\n".encode()]
    page: bytes | None = None
    if path == "/" and not fmt:
        number = query.get("page", ["1"])[0]
        first = (int(number) - 1) * PER_LIST if number.isdigit() else N_TICKETS
        if 0 <= first < N_TICKETS:
            pager = '<div class="paging">' + "".join(
                f'<a class="page" href="/?page={p}">{p}</a>'
                for p in range(1, N_TICKETS // PER_LIST + 1)) + "</div>"
            page = _listing(f"Tickets, page {number}",
                            range(first, min(N_TICKETS, first + PER_LIST)), "/", pager)
    elif fmt:
        page = None
    elif parts[:1] == ["component"] and 0 <= n < N_COMPONENTS:
        page = _listing(f"Component {n}", range(n, N_TICKETS, N_COMPONENTS), path)
    elif parts[:1] == ["user"] and 0 <= n < N_USERS:
        page = _listing(f"Reported by user {n}", range(n, N_TICKETS, N_USERS), path)
    elif parts[:1] == ["ticket"] and 0 <= n < N_TICKETS:
        related = "".join(f'<a class="ref" href="/ticket/{j}">#{j}</a> '
                          for j in (n * 7 % N_TICKETS, n * 13 % N_TICKETS) if j != n)
        near = "".join(f'<a class="near" href="/ticket/{j}">#{j}</a>'
                       for j in (n - 1, n + 1) if 0 <= j < N_TICKETS)
        comments = "".join(f'<div class="change"><p>{_text(n * 10 + c)}</p></div>'
                           for c in range(n % 4))
        page = _frame(f"#{n}", (
            f'<h1 class="summary">Ticket #{n}</h1><table class="properties"><tr><td>'
            f'<a class="component" href="/component/{n % N_COMPONENTS}">component '
            f'{n % N_COMPONENTS}</a></td><td><a class="user" href="/user/{n % N_USERS}">'
            f'user {n % N_USERS}</a></td></tr></table><div class="description">'
            f"<p>{_text(n)}</p><p>See {related}</p></div>{comments}"
            f'<div class="nav">{near}</div>'), path)
    elif path == "/about":
        page = _frame("About", "<h1>About</h1><p>The project's tracker.</p>")
    if page is None:
        start("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]
    start("200 OK", [("Content-Type", "text/html; charset=utf-8")])
    return [page]


def _crawl(tmp_path: Path, name: str, params: dict[str, Any]
           ) -> tuple[list[str], list[tuple[str, str]]]:
    """source-ucc over the tracker: the paths fetched, in order, and (path, reason) of every
    URL it skipped."""
    with serve_wsgi(tracker) as base:
        Crawl(profile_from_dict({
            "name": name, "seeds": [base + "/"],
            "politeness": {"delay": 0, "retries": 0}, "limits": {"max_requests": 600},
            "output": {"dir": str(tmp_path / name)},
            "strategy": {"name": "source-ucc", "sample_size": 60, "params": params}})).run()
    with sqlite3.connect(tmp_path / name / "crawl.sqlite3") as db:
        fetched = [url for (url,) in db.execute(
            "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id ORDER BY f.id")]
        skipped = db.execute("SELECT url, reason FROM url WHERE state = 'skipped'").fetchall()
    return ([url[len(base):] for url in fetched],
            [(url[len(base):], reason) for url, reason in skipped])


@pytest.mark.slow
def test_a_pages_own_formats_are_never_fetched(tmp_path: Path) -> None:
    fetched, skipped = _crawl(tmp_path, "alternates", {})
    tickets = {p for p in fetched if p.startswith("/ticket/") and "?" not in p}
    assert len(tickets) == N_TICKETS                          # nothing of the content lost
    assert not [p for p in fetched if "format=" in p]         # not even while sampling
    exports = [reason for path, reason in skipped if "format=" in path]
    assert len(exports) >= 3 * N_TICKETS
    assert all(reason.startswith("strategy:alternate:") for reason in exports)


@pytest.mark.slow
def test_without_the_rule_the_formats_are_fetched(tmp_path: Path) -> None:
    """The test above can fail: the exports are links like any other, and followed."""
    fetched, _ = _crawl(tmp_path, "noalternates", {"alternates": False})
    assert len([p for p in fetched if "format=" in p]) > N_TICKETS


def test_alternates_are_the_heads_rel_alternate_links_other_than_languages_and_itself(
        ) -> None:
    html = b"""<html><head><title>t</title>
    <link rel="alternate" type="text/csv" href="/ticket/7?format=csv">
    <link rel="Alternate nofollow" type="application/rss+xml" href="feed/#top">
    <link rel="alternate" hreflang="de" href="/de/ticket/7">
    <link rel="alternate" href="http://s.test/ticket/7">
    <link rel="stylesheet" href="/style.css">
    </head><body><a href="/ticket/7?format=csv">CSV</a></body></html>"""
    page = parse_html("http://s.test/ticket/7", html)
    assert page.alternates == {"http://s.test/ticket/7?format=csv",
                               "http://s.test/ticket/feed/"}
    assert parse_html("http://s.test/", b"<html><body><p>x</p></body></html>").alternates \
        == frozenset()
    # with a <base href> elsewhere, hrefs resolve against it, and the page's own URL (not
    # the base) is the one left out
    based = b"""<html><head><base href="http://s.test/mirror/">
    <link rel="alternate" href="http://s.test/ticket/7">
    <link rel="alternate" href="http://s.test/mirror/">
    <link rel="alternate" href="7?format=csv"></head><body></body></html>"""
    assert parse_html("http://s.test/ticket/7", based).alternates == {
        "http://s.test/mirror/", "http://s.test/mirror/7?format=csv"}
