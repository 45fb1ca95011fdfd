"""The real An Otter Wiki's ground truth (`benchmarks.realsite.otterwiki`): page types and the
UCC page a URL shows come from the URL alone, so they are checked here without the wiki
installed (and without the network)."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter

import pytest

from benchmarks.realsite import otterwiki as ow

H = "http://127.0.0.1:8080"
PAGE = "/Woodwork/Notes%20on%20the%20lathe%20map"


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/Home", "home"),
    ("/home", "home"),
    ("/Home/view", "home"),
    ("/home.md", "home"),
    ("/Woodwork", "page"),
    ("/Woodwork/", "page"),
    ("/Woodwork.md", "page"),
    (PAGE, "page"),
    (PAGE + "/", "page"),
    (PAGE + "/view", "page"),
    ("/Woodwork/Notes on the lathe map", "page"),                # the sidebar's, unquoted
    ("/Woodwork/Notes%20On%20The%20Lathe%20Map/Tent%20paper", "page"),
    ("/Oven%20checklist", "page"),
    ("/Woodwork/Never%20written%20guide", "page"),             # a 404, told by the list
    ("/history", "page"),                                      # a page named "history"
    (PAGE + "?revision=77666d", "revision"),
    ("/?revision=7bd615", "revision"),
    (PAGE + "/view/77666d", "revision"),
    (PAGE + "?edit", "write"),
    ("/Missing%20page?edit", "write"),
    (PAGE + "/edit", "write"),
    (PAGE + "/edit/77666d", "write"),
    (PAGE + "/save", "write"),
    (PAGE + "/preview", "write"),
    (PAGE + "/draft", "write"),
    (PAGE + "/draft/discard", "write"),
    (PAGE + "/rename", "write"),
    (PAGE + "/rename/", "write"),
    (PAGE + "/delete/", "write"),
    (PAGE + "/inline_attachment", "write"),
    (PAGE + "/history", "history"),
    ("/Home/history", "history"),
    (PAGE + "/blame", "blame"),
    (PAGE + "/blame/", "blame"),
    (PAGE + "/blame/918992", "blame"),
    (PAGE + "/diff/77666d/918992", "diff"),
    (PAGE + "/source", "source"),
    (PAGE + "/source?raw", "source"),
    (PAGE + "/source/77666d", "source"),
    (PAGE + "/attachments", "attachments"),
    (PAGE + "/attachment/plan.txt", "attachments"),
    (PAGE + "/plan.txt", "attachment"),
    (PAGE + "/plan.txt?thumbnail", "attachment"),
    (PAGE + "/a/plan.txt", "attachment"),
    (PAGE + "/a/plan.txt/28239f", "attachment"),
    (PAGE + "/t/photo.png", "attachment"),
    (PAGE + "/t/photo.png/200", "attachment"),
    ("/-/changelog", "changelog"),
    ("/-/changelog/28239f", "changelog"),
    ("/-/log", "changelog"),
    ("/-/changelog/feed.rss", "feed"),
    ("/-/changelog/feed.atom", "feed"),
    ("/sitemap.xml", "feed"),
    ("/-/commit/918992", "commit"),
    ("/-/revert/918992", "write"),
    ("/-/create", "write"),
    ("/-/index", "index"),
    ("/-/search", "search"),
    ("/-/search/bread", "search"),
    ("/-/login", "login"),
    ("/-/login%20", "login"),                                  # the navbar's href="/-/login "
    ("/-/login?next=%2F-%2Fsettings", "login"),
    ("/-/register", "login"),
    ("/-/logout", "login"),
    ("/-/lost_password", "login"),
    ("/-/recover_password/abc", "login"),
    ("/-/settings", "login"),
    ("/-/about", "help"),
    ("/-/help", "help"),
    ("/-/help/syntax", "help"),
    ("/-/syntax", "help"),
    ("/-/admin", "admin"),
    ("/-/admin/user_management", "admin"),
    ("/-/user/3", "admin"),
    ("/-/housekeeping", "admin"),
    ("/-/healthz", "other"),
    ("/-/plugin/x/y", "other"),
    ("/-", "other"),
    ("/.git", "other"),
    ("/.git/info/refs?service=git-upload-pack", "other"),
    ("/.well-known/change-password", "other"),
    ("/static/css/otterwiki.css", "static"),
    ("/static/img/otter-favicon.ico", "static"),
    ("/favicon.ico", "static"),
    ("/robots.txt", "static"),
    ("/manifest.webmanifest", "static"),
    ("/-/plugin-static.css", "static"),
])
def test_otterwiki_page_type(path: str, kind: str) -> None:
    assert ow.page_type(H + path) == kind


def test_otterwiki_page_type_of_another_host_is_other() -> None:
    assert ow.page_type("https://otterwiki.com/") == "other"
    assert ow.page_type("https://github.com/redimp/otterwiki") == "other"


def test_otterwiki_every_type_is_reported() -> None:
    kinds = {ow.page_type(H + p) for p in ("/", PAGE, PAGE + "/history", "/-/index")}
    assert kinds | ow.UCC_TYPES <= set(ow.TYPE_ORDER)
    assert ow.TARGET_TYPE in ow.UCC_TYPES


def test_otterwiki_entity_of_is_a_pages_lowercased_path() -> None:
    """A page is its path lowercased (its file's name), whatever the URL form of its current
    view; its old revisions, views and the rest are no page."""
    key = "page woodwork/notes on the lathe map"
    for url in (PAGE, PAGE + "/", PAGE + "/view", "/woodwork/notes%20on%20the%20lathe%20map",
                "/Woodwork/Notes on the lathe map", "/Woodwork/Notes%20On%20The%20Lathe%20Map",
                "/Woodwork/Notes%20on%20the%20lathe%20map.md", PAGE + "?x=1"):
        assert ow.entity_of(H + url) == key, url
    for home in ("/", "/Home", "/home", "/HOME/", "/Home/view", "/home.md"):
        assert ow.entity_of(H + home) == "page home", home
    for other in (PAGE + "?revision=77666d", PAGE + "/view/77666d", PAGE + "?edit",
                  PAGE + "/history", PAGE + "/blame", PAGE + "/source", PAGE + "/attachments",
                  PAGE + "/plan.txt", PAGE + "/diff/a1b2/c3d4", "/-/commit/918992",
                  "/-/changelog", "/-/index", "/-/login", "/static/css/otterwiki.css",
                  "/?revision=7bd615", "https://otterwiki.com/Woodwork"):
        assert ow.entity_of(H + other if other.startswith("/") else other) is None, other


def test_otterwiki_generator_makes_pages_in_folders_with_revisions_and_attachments() -> None:
    """Home, twelve sections, articles under a section, at the top level or under an article
    (at most three levels), names unique whatever the case, every row's URL a UCC page of
    its own by `entity_of`; 1 to 6 revisions each by the 20 authors, commits in time order
    after Otterwiki's initial commit; wiki links to written pages (a few to pages never
    written); some attachments, linked; deterministic."""
    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = ow.generate(300, 0, now)
    rows = spec["pages"]
    assert len(rows) == 300 and rows[0]["path"] == "/" and rows[0]["kind"] == "home"
    assert [r["name"] for r in rows[1:13]] == ow.SECTIONS
    assert {r["kind"] for r in rows[13:]} == {"article"}
    assert {r["depth"] for r in rows} == {0, 1, 2, 3}
    keys = {ow.entity_of(H + r["path"]) for r in rows}
    assert len(keys) == 300 and None not in keys
    for r in rows:
        assert ow.page_type(H + r["path"]) == r["type"]
        assert r["file"] == r["name"].lower() + ".md"
        assert ow.entity_of(H + r["path"]) == f"page {r['file'][:-3]}"
    authors = {u["name"] for u in spec["users"][:20]}
    assert len(authors) == 20 and spec["users"][20]["permissions"] == "admin"
    events = spec["events"]
    assert [e["ts"] for e in events] == sorted(e["ts"] for e in events)
    assert spec["start"] < events[0]["ts"] and events[-1]["ts"] < now.timestamp()
    assert {e["user"] for e in events} <= authors and all(e["message"] for e in events)
    saves = Counter(e["file"] for e in events if e["file"].endswith(".md"))
    assert set(saves) == {r["file"] for r in rows} and set(saves.values()) <= set(range(1, 7))
    assert sum(saves.values()) > 700
    files = [e for e in events if not e["file"].endswith(".md")]
    assert 15 <= len({e["file"] for e in files}) <= 50
    last = {e["file"]: e["text"] for e in events}
    for e in files:
        page = e["file"].rsplit("/", 1)[0] + ".md"
        assert e["file"].rsplit("/", 1)[1] + ")" in last[page]
    names = {r["name"].lower() for r in rows}
    links = [m.lower() for text in last.values() for m in re.findall(r"\[\[[^|\]]+\|([^\]]+)\]\]",
                                                                      text)]
    assert len(links) > 300
    wanted = [m for m in links if m not in names]
    assert 0 < len(wanted) < 30
    assert ow.generate(300, 0, now) == spec

